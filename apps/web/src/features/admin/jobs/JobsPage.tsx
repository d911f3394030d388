/** Admin jobs list (back-office.md §2 "Jobs list"): filters/sort/columns in the query string, infinite table. */
import { Anchor, Button, Checkbox, Group, Loader, Popover, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { IconColumns, IconFilter } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatAdminDateTime } from '../../../lib/format';
import { DEFAULT_FILTERS, JOB_COLUMNS, decodeFilters, encodeFilters, nextSort, reportUrl, type JobFilters } from './filters';
import { adminJobsApi } from './api';
import { JobCell } from './JobCell';
import { JobFiltersPanel } from './JobFiltersPanel';
import { SortHeader } from './SortHeader';
import { AdminListPage } from '../../../components/AdminListPage';
import { ReportDownload } from '../common/ReportDownload';

export function JobsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const filters = decodeFilters(params);
  const wide = useMediaQuery('(min-width: 62em)', true);
  const [showFilters, setShowFilters] = useState<boolean | null>(null);
  const filtersOpen = showFilters ?? wide;
  // From the address bar, not this render's `filters`: React Router re-renders in a transition, so two filters
  // changed in quick succession (a start date, then the end date cleared) would otherwise lose the first.
  const update = (patch: Partial<JobFilters>) =>
    setParams(encodeFilters({ ...decodeFilters(new URLSearchParams(window.location.search)), ...patch }), { replace: true });
  const filterKey = encodeFilters({ ...filters, columns: [] }).toString();

  const models = useQuery({ queryKey: ['admin', 'models-short'], queryFn: adminJobsApi.models, staleTime: 60_000 });
  const jobs = useInfiniteQuery({
    queryKey: ['admin', 'jobs', filterKey, filters.columns.join(',')],
    queryFn: ({ pageParam }) => adminJobsApi.list(filters, pageParam),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => (last?.hasNextPage ? (last.page ?? 0) + 1 : undefined),
  });
  const rows = jobs.data?.pages.flatMap((p) => p?.data ?? []) ?? [];
  const total = useQuery({ queryKey: ['admin', 'jobs-count', filterKey], queryFn: () => adminJobsApi.count(filters) });

  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = jobs;
  useEffect(() => {
    const el = sentinel.current;
    if (!el) return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && hasNextPage && !isFetchingNextPage) void fetchNextPage();
    });
    io.observe(el);
    return () => io.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, rows.length]);

  const onSort = (k: string) => update(nextSort(filters, k));
  const visible = JOB_COLUMNS.filter((c) => filters.columns.includes(c));

  return (
    <AdminListPage
      title={t('admin.jobs.title')}
      actions={
        <>
          <ReportDownload
            label={t('admin.jobs.exportStats')}
            xlsxLabel={t('adminReports.download.jobsXlsx')}
            href={(format) => reportUrl('report', filters, format)}
          />
          <ReportDownload
            label={t('admin.jobs.exportMasks')}
            xlsxLabel={t('adminReports.download.masksXlsx')}
            href={(format) => reportUrl('masks-report', filters, format)}
          />
        </>
      }
      filters={
        <>
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
                      onChange={(e) =>
                        update({ columns: e.currentTarget.checked ? [...filters.columns, c] : filters.columns.filter((x) => x !== c) })
                      }
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

          <JobFiltersPanel filters={filters} filtersOpen={filtersOpen} models={models.data ?? []} update={update} />
          {total.data ? (
            <Text size="sm" c="dimmed" data-testid="list-total">
              {t('admin.jobs.matching', { count: total.data.total })}
            </Text>
          ) : null}
        </>
      }
      query={jobs}
      empty={rows.length === 0}
      emptyText={t('admin.jobs.empty')}
      footer={
        <>
          <div ref={sentinel} style={{ height: 1 }} />
          {jobs.isFetchingNextPage && (
            <Group justify="center" gap="xs">
              <Loader size="xs" />
              <Text size="sm" c="dimmed">
                {t('admin.jobs.loadingMore')}
              </Text>
            </Group>
          )}
        </>
      }
    >
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
                    {formatAdminDateTime(job.createdAt)}
                  </Anchor>
                </Table.Td>
                {visible.map((c) => (
                  <Table.Td key={c}>
                    <JobCell job={job} col={c} />
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </AdminListPage>
  );
}
