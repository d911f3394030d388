import { Accordion, Alert, Button, Center, Checkbox, Group, Loader, Modal, Select, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { IconAlertTriangle, IconArchive, IconDownload, IconFileSpreadsheet, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions';
import { Link, useSearchParams } from 'react-router';
import { useMe } from '../auth/session';
import { exportJobs, useBulkAction, useJobEvents, useJobsInfinite, useRerun } from '../jobs/api';
import { notifyJobError, notifyJobStarted, notifySuccess } from '../jobs/notify';
import { JobItem } from './JobItem';
import { ExampleResults } from './ExampleResults';
import { ModelManual } from './ModelManual';
import { notifications } from '@mantine/notifications';
import { PAGE_SIZE_KEY, PAGE_SIZES, LOAD_MORE_THROTTLE_MS, SORTS } from './resultsSettings';

/** The jobs of one model: sort, page size, selection and bulk actions, the infinite list. */
export function ModelResults({ modelId, title }: { modelId: string; title: string }) {
  const { t } = useTranslation();
  const { data: me } = useMe();
  useJobEvents();
  const [pageSize, setPageSize] = useLocalStorage({ key: PAGE_SIZE_KEY, defaultValue: '10', getInitialValueInEffect: false });
  const [sort, setSort] = useState('createdAt.desc');
  const s = SORTS.find((x) => x.value === sort) ?? SORTS[0];
  const size = PAGE_SIZES.includes(pageSize) ? Number(pageSize) : 10;
  const query = useJobsInfinite({ modelId, pageSize: size, sortBy: s.sortBy, sortOrder: s.sortOrder });
  const jobs = useMemo(() => {
    const seen = new Set<string>();
    return (query.data?.pages.flatMap((p) => p.jobs) ?? []).filter((j) => (seen.has(j.id) ? false : (seen.add(j.id), true)));
  }, [query.data]);
  const total = query.data?.pages[0]?.total ?? 0;

  const [picked, setSelected] = useState<string[]>([]);
  // Selection only keeps jobs that are still listed.
  const selected = useMemo(() => picked.filter((id) => jobs.some((j) => j.id === id)), [picked, jobs]);
  // `?job=<id>` (History's and notifications' links): that job opened and scrolled to once it is listed
  const [params] = useSearchParams();
  const linkedJob = params.get('job');
  const [opened, setOpened] = useState<string[]>(() => (linkedJob ? [linkedJob] : []));
  const linkedListed = Boolean(linkedJob && jobs.some((j) => j.id === linkedJob));
  useEffect(() => {
    if (linkedListed) document.querySelector(`[data-job-id="${CSS.escape(linkedJob!)}"]`)?.scrollIntoView({ block: 'center' });
  }, [linkedListed, linkedJob]);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [exporting, setExporting] = useState<'csv' | 'xlsx' | null>(null);
  const rerun = useRerun();
  const archive = useBulkAction('archive');
  const remove = useBulkAction('delete');

  // Infinite loading: a sentinel below the list, load-more throttled to 500 ms.
  const sentinel = useRef<HTMLDivElement>(null);
  const lastLoad = useRef(0);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasNextPage) return;
    const io = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting) || isFetchingNextPage) return;
      const now = Date.now();
      if (now - lastLoad.current < LOAD_MORE_THROTTLE_MS) return;
      lastLoad.current = now;
      void fetchNextPage();
    });
    io.observe(el);
    return () => io.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, jobs.length]);

  const anyOutdated = jobs.some((j) => j.outdated);
  const allSelected = jobs.length > 0 && selected.length === jobs.length;

  const doRerun = () =>
    rerun.mutate(
      { jobsIds: selected, modelId },
      {
        onSuccess: (created) => {
          notifyJobStarted(t, created.length);
          setSelected([]);
        },
        onError: (e) => notifyJobError(t, e),
      },
    );
  const doRerunMasks = () =>
    rerun.mutate(
      { jobsIds: selected, withUserMasks: true, modelId },
      {
        onSuccess: (created) => {
          notifyJobStarted(t, created.length);
          setSelected([]);
        },
        onError: (e) => notifyJobError(t, e),
      },
    );
  const doArchive = () =>
    archive.mutate(selected, {
      onSuccess: () => {
        notifySuccess(t, 'jobs.toast.archived', selected.length);
        setSelected([]);
      },
      onError: (e) => notifyJobError(t, e),
    });
  const doDelete = () =>
    remove.mutate(selected, {
      onSuccess: () => {
        notifySuccess(t, 'jobs.toast.deleted', selected.length);
        setSelected([]);
        setConfirmDelete(false);
      },
      onError: (e) => notifyJobError(t, e),
    });
  const doExport = async (format: 'csv' | 'xlsx') => {
    setExporting(format);
    try {
      await exportJobs(selected, format);
    } catch {
      notifications.show({ color: 'red', message: t('jobs.toast.exportFailed') });
    } finally {
      setExporting(null);
    }
  };
  const selectedJobs = jobs.filter((j) => selected.includes(j.id));
  const canRerunMasks = selectedJobs.length > 0 && selectedJobs.every((j) => j.masks.length > 0);

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {title}
      </Title>
      <ModelManual modelId={modelId} position="TOP" />
      {anyOutdated && (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} title={t('results.outdated.title')} data-testid="outdated-banner">
          {t('results.outdated.text')}
        </Alert>
      )}
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm" wrap="wrap">
          <Select
            label={t('results.sort.label')}
            data={SORTS.map((x) => ({ value: x.value, label: t(`results.sort.${x.value.replace('.', '_')}`) }))}
            value={sort}
            onChange={(v) => v && setSort(v)}
            allowDeselect={false}
            w={200}
          />
          <Select
            label={t('results.pageSize')}
            data={PAGE_SIZES}
            value={String(size)}
            onChange={(v) => v && setPageSize(v)}
            allowDeselect={false}
            w={100}
            data-testid="page-size"
          />
        </Group>
        <Text size="sm" c="dimmed" mt="lg">
          {t('results.count', { shown: jobs.length, total })}
        </Text>
      </Group>

      {jobs.length > 0 && (
        <Group gap="xs" wrap="wrap" data-testid="bulk-bar">
          <Checkbox
            label={t('results.selectAll')}
            checked={allSelected}
            indeterminate={selected.length > 0 && !allSelected}
            onChange={(e) => setSelected(e.currentTarget.checked ? jobs.map((j) => j.id) : [])}
            mr="sm"
          />
          <Button
            size="xs"
            variant="light"
            leftSection={<IconRefresh size={14} />}
            disabled={!selected.length}
            loading={rerun.isPending}
            onClick={doRerun}
          >
            {t('results.bulk.rerun')}
          </Button>
          <Button size="xs" variant="light" color="violet" leftSection={<IconRefresh size={14} />} disabled={!canRerunMasks} onClick={doRerunMasks}>
            {t('results.bulk.rerunMasks')}
          </Button>
          <Button
            size="xs"
            variant="light"
            color="gray"
            leftSection={<IconArchive size={14} />}
            disabled={!selected.length}
            loading={archive.isPending}
            onClick={doArchive}
          >
            {t('results.bulk.archive')}
          </Button>
          <Button
            size="xs"
            variant="light"
            color="red"
            leftSection={<IconTrash size={14} />}
            disabled={!selected.length}
            onClick={() => setConfirmDelete(true)}
          >
            {t('results.bulk.delete')}
          </Button>
          <Button
            size="xs"
            variant="light"
            color="teal"
            leftSection={<IconDownload size={14} />}
            disabled={!selected.length}
            loading={exporting === 'csv'}
            onClick={() => void doExport('csv')}
          >
            {t('results.bulk.export')}
          </Button>
          <Button
            size="xs"
            variant="light"
            color="teal"
            leftSection={<IconFileSpreadsheet size={14} />}
            disabled={!selected.length}
            loading={exporting === 'xlsx'}
            onClick={() => void doExport('xlsx')}
            data-testid="export-xlsx"
          >
            {t('resultText.ui.exportXlsx')}
          </Button>
        </Group>
      )}

      {query.isPending ? (
        <Stack gap="xs">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} h={64} />
          ))}
        </Stack>
      ) : query.isError ? (
        <Alert color="red">{t('results.loadFailed')}</Alert>
      ) : jobs.length === 0 ? (
        <Center py="xl">
          <Stack align="center" gap="sm">
            <Text c="dimmed">{t('jobs.empty')}</Text>
            <Button component={Link} to="/dashboard" variant="light">
              {t('results.toDashboard')}
            </Button>
          </Stack>
        </Center>
      ) : (
        <Accordion multiple value={opened} onChange={setOpened} variant="separated" chevronPosition="left" data-testid="jobs-accordion">
          {jobs.map((j) => (
            <JobItem
              key={j.id}
              job={j}
              opened={opened.includes(j.id)}
              role={me?.role}
              selected={selected.includes(j.id)}
              onSelect={(checked) => setSelected((sel) => (checked ? [...sel, j.id] : sel.filter((id) => id !== j.id)))}
            />
          ))}
        </Accordion>
      )}
      <div ref={sentinel} style={{ height: 1 }} />
      {isFetchingNextPage && (
        <Center>
          <Loader size="sm" />
        </Center>
      )}
      {hasNextPage && !isFetchingNextPage && (
        <Center>
          <Button variant="subtle" onClick={() => void fetchNextPage()}>
            {t('results.loadMore')}
          </Button>
        </Center>
      )}
      <ModelManual modelId={modelId} position="BOTTOM" />
      <ExampleResults modelId={modelId} />

      <Modal opened={confirmDelete} onClose={() => setConfirmDelete(false)} title={t('results.bulk.deleteTitle')} centered>
        <Text size="sm">{t('results.bulk.deleteText', { count: selected.length })}</Text>
        <FormActions
          submitLabel={t('results.bulk.delete')}
          onSubmit={doDelete}
          onCancel={() => setConfirmDelete(false)}
          cancelLabel={t('model.common.cancel')}
          loading={remove.isPending}
          danger
        />
      </Modal>
    </Stack>
  );
}
