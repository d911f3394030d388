/** Admin jobs list (back-office.md §2 "Jobs list"): filters/sort/columns in the query string, infinite table. */
import {
  Anchor,
  Badge,
  Button,
  Checkbox,
  Collapse,
  Group,
  Loader,
  Paper,
  Popover,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { IconArrowDown, IconArrowUp, IconColumns, IconDownload, IconFilter, IconSelector } from '@tabler/icons-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatDateTime, seconds } from '../common/format';
import {
  DEFAULT_FILTERS,
  DELETED_OPTIONS,
  JOB_COLUMNS,
  JOB_SOURCES,
  JOB_STATUSES,
  decodeFilters,
  encodeFilters,
  nextSort,
  reportUrl,
  type JobColumn,
  type JobFilters,
} from './filters';
import { adminJobsApi, adminRating, companyOf, durationMs, fullName, imageName, submittedMasks, waitMs, type AdminJob } from './api';
import { QueryState } from '../common/QueryState';

const STATUS_COLOR: Record<string, string> = { NEW: 'gray', PENDING: 'blue', FINISHED: 'green', CACHED: 'teal', FAILED: 'red' };

function cell(job: AdminJob, col: JobColumn, t: (k: string, o?: Record<string, unknown>) => string): ReactNode {
  switch (col) {
    case 'owner':
      return fullName(job.owner);
    case 'company':
      return companyOf(job) ?? '—';
    case 'userRating':
      return job.userFeedback?.rating ?? job.userRating ?? '—';
    case 'adminRating': {
      const r = adminRating(job);
      return r.mean === null ? '—' : `${r.mean.toFixed(2)} (${t('admin.jobs.votes', { count: r.count })})`;
    }
    case 'duration': {
      const v = durationMs(job);
      return v === null ? '—' : t('admin.jobs.seconds', { value: seconds(v) });
    }
    case 'waitTime': {
      const v = waitMs(job);
      return v === null ? '—' : t('admin.jobs.seconds', { value: seconds(v) });
    }
    case 'status':
      return (
        <Badge color={STATUS_COLOR[job.status] ?? 'gray'} variant="light">
          {t(`admin.jobs.statuses.${job.status}`, { defaultValue: job.status })}
        </Badge>
      );
    case 'source':
      return t(`admin.jobs.sources.${job.source}`, { defaultValue: job.source });
    case 'model':
      return job.model ? `${job.model.displayName ?? job.model.name ?? ''}${job.modelVersion ? ` (${job.modelVersion})` : ''}` : '—';
    case 'project':
      return job.project?.name ?? '—';
    case 'image':
      return imageName(job) ?? '—';
    case 'deleted':
      return job.deleted ? t('admin.yes') : t('admin.no');
    case 'submittedMasks':
      return submittedMasks(job) ?? 0;
  }
}

function SortHeader({ label, col, filters, onSort }: { label: string; col: string; filters: JobFilters; onSort: (k: string) => void }) {
  const active = filters.sortKey === col;
  const Icon = !active ? IconSelector : filters.sortOrder === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <UnstyledButton onClick={() => onSort(col)} aria-sort={active ? (filters.sortOrder === 'asc' ? 'ascending' : 'descending') : undefined}>
      <Group gap={4} wrap="nowrap">
        <Text fw={600} size="sm">
          {label}
        </Text>
        <Icon size={14} />
      </Group>
    </UnstyledButton>
  );
}

export function JobsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const filters = decodeFilters(params);
  const wide = useMediaQuery('(min-width: 62em)', true);
  const [showFilters, setShowFilters] = useState<boolean | null>(null);
  const filtersOpen = showFilters ?? wide;
  const update = (patch: Partial<JobFilters>) => setParams(encodeFilters({ ...filters, ...patch }), { replace: true });
  const filterKey = encodeFilters({ ...filters, columns: [] }).toString();

  const models = useQuery({ queryKey: ['admin', 'models-short'], queryFn: adminJobsApi.models, staleTime: 60_000 });
  const jobs = useInfiniteQuery({
    queryKey: ['admin', 'jobs', filterKey, filters.columns.join(',')],
    queryFn: ({ pageParam }) => adminJobsApi.list(filters, pageParam),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => (last?.hasNextPage ? (last.page ?? 0) + 1 : undefined),
  });
  const rows = jobs.data?.pages.flatMap((p) => p?.data ?? []) ?? [];

  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = sentinel.current;
    if (!el) return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && jobs.hasNextPage && !jobs.isFetchingNextPage) void jobs.fetchNextPage();
    });
    io.observe(el);
    return () => io.disconnect();
  }, [jobs.hasNextPage, jobs.isFetchingNextPage, jobs.fetchNextPage, rows.length]);

  const onSort = (k: string) => update(nextSort(filters, k));
  const visible = JOB_COLUMNS.filter((c) => filters.columns.includes(c));
  const modelOptions = (models.data ?? []).map((m) => ({ value: m.id, label: m.displayName ?? m.name ?? m.id }));
  const flagBox = (key: 'withUserFeedback' | 'withAdminFeedback' | 'withSubmittedMasks') => (
    <Checkbox label={t(`admin.jobs.${key}`)} checked={filters[key]} onChange={(e) => update({ [key]: e.currentTarget.checked })} />
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={2}>{t('admin.jobs.title')}</Title>
        <Group gap="xs" wrap="wrap">
          <Button component="a" href={reportUrl('report', filters)} download variant="light" leftSection={<IconDownload size={16} />}>
            {t('admin.jobs.exportStats')}
          </Button>
          <Button component="a" href={reportUrl('masks-report', filters)} download variant="light" leftSection={<IconDownload size={16} />}>
            {t('admin.jobs.exportMasks')}
          </Button>
        </Group>
      </Group>

      <Group gap="xs" wrap="wrap">
        <Button
          variant={filtersOpen ? 'filled' : 'default'}
          size="xs"
          leftSection={<IconFilter size={14} />}
          onClick={() => setShowFilters(!filtersOpen)}
        >
          {t('admin.jobs.filters')}
        </Button>
        <Popover position="bottom-start" shadow="md" withinPortal>
          <Popover.Target>
            <Button variant="default" size="xs" leftSection={<IconColumns size={14} />}>
              {t('admin.columns')}
            </Button>
          </Popover.Target>
          <Popover.Dropdown>
            <Stack gap={6}>
              {JOB_COLUMNS.map((c) => (
                <Checkbox
                  key={c}
                  label={t(`admin.jobs.col.${c}`)}
                  checked={filters.columns.includes(c)}
                  onChange={(e) => update({ columns: e.currentTarget.checked ? [...filters.columns, c] : filters.columns.filter((x) => x !== c) })}
                />
              ))}
            </Stack>
          </Popover.Dropdown>
        </Popover>
        <Button
          variant="subtle"
          size="xs"
          onClick={() =>
            update({
              ...DEFAULT_FILTERS,
              columns: filters.columns,
              sortKey: undefined,
              sortOrder: undefined,
              startDate: undefined,
              endDate: undefined,
              modelId: undefined,
              userId: undefined,
              company: undefined,
              status: undefined,
              source: undefined,
            })
          }
        >
          {t('admin.jobs.resetFilters')}
        </Button>
      </Group>

      <Collapse in={filtersOpen}>
        <Paper withBorder p="sm">
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
            <TextInput
              type="date"
              label={t('admin.jobs.startDate')}
              value={filters.startDate ?? ''}
              onChange={(e) => update({ startDate: e.currentTarget.value || undefined })}
            />
            <TextInput
              type="date"
              label={t('admin.jobs.endDate')}
              value={filters.endDate ?? ''}
              onChange={(e) => update({ endDate: e.currentTarget.value || undefined })}
            />
            <Select
              label={t('admin.jobs.model')}
              placeholder={t('admin.jobs.any')}
              data={modelOptions}
              value={filters.modelId ?? null}
              onChange={(v) => update({ modelId: v ?? undefined })}
              clearable
              searchable
            />
            <TextInput
              key={`u-${filters.userId ?? ''}`}
              label={t('admin.jobs.userId')}
              defaultValue={filters.userId ?? ''}
              onBlur={(e) => update({ userId: e.currentTarget.value.trim() || undefined })}
              onKeyDown={(e) => e.key === 'Enter' && update({ userId: e.currentTarget.value.trim() || undefined })}
            />
            <TextInput
              key={`c-${filters.company ?? ''}`}
              label={t('admin.jobs.company')}
              defaultValue={filters.company ?? ''}
              onBlur={(e) => update({ company: e.currentTarget.value.trim() || undefined })}
              onKeyDown={(e) => e.key === 'Enter' && update({ company: e.currentTarget.value.trim() || undefined })}
              data-testid="filter-company"
            />
            <Select
              label={t('admin.jobs.deleted')}
              data={DELETED_OPTIONS.map((v) => ({ value: v, label: t(`admin.jobs.deletedOptions.${v}`) }))}
              value={filters.deleted}
              allowDeselect={false}
              onChange={(v) => update({ deleted: (v ?? 'NOT_DELETED') as JobFilters['deleted'] })}
            />
            <Select
              label={t('admin.jobs.status')}
              placeholder={t('admin.jobs.any')}
              data={JOB_STATUSES.map((v) => ({ value: v, label: t(`admin.jobs.statuses.${v}`) }))}
              value={filters.status ?? null}
              onChange={(v) => update({ status: v ?? undefined })}
              clearable
            />
            <Select
              label={t('admin.jobs.source')}
              placeholder={t('admin.jobs.any')}
              data={JOB_SOURCES.map((v) => ({ value: v, label: t(`admin.jobs.sources.${v}`) }))}
              value={filters.source ?? null}
              onChange={(v) => update({ source: v ?? undefined })}
              clearable
            />
          </SimpleGrid>
          <Group mt="sm" gap="lg" wrap="wrap">
            {flagBox('withUserFeedback')}
            {flagBox('withAdminFeedback')}
            {flagBox('withSubmittedMasks')}
          </Group>
        </Paper>
      </Collapse>

      <QueryState query={jobs} empty={rows.length === 0} emptyText={t('admin.jobs.empty')}>
        <Table.ScrollContainer minWidth={Math.max(420, 160 + visible.length * 130)}>
          <Table striped highlightOnHover verticalSpacing="xs" data-testid="admin-jobs-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <SortHeader label={t('admin.jobs.col.createdAt')} col="createdAt" filters={filters} onSort={onSort} />
                </Table.Th>
                {visible.map((c) => (
                  <Table.Th key={c}>
                    <SortHeader label={t(`admin.jobs.col.${c}`)} col={c} filters={filters} onSort={onSort} />
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((job) => (
                <Table.Tr key={job.id}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <Anchor href={`/admin/jobs/${job.id}`} target="_blank" rel="noopener" title={t('admin.jobs.openDetail')} size="sm">
                      {formatDateTime(job.createdAt)}
                    </Anchor>
                  </Table.Td>
                  {visible.map((c) => (
                    <Table.Td key={c}>{cell(job, c, t)}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </QueryState>
      <div ref={sentinel} style={{ height: 1 }} />
      {jobs.isFetchingNextPage && (
        <Group justify="center" gap="xs">
          <Loader size="xs" />
          <Text size="sm" c="dimmed">
            {t('admin.jobs.loadingMore')}
          </Text>
        </Group>
      )}
    </Stack>
  );
}
