import { Anchor, Box, Button, Center, Group, Pagination, Select, Skeleton, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { JobStatusValues, type JobStatus } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAvailableModels } from '../favourites/api';
import { useBulkAction, useJobEvents, useJobsPage } from '../jobs/api';
import { formatDateTime } from '../../lib/format';
import { notifyJobError, notifySuccess } from '../jobs/notify';
import { StatusBadge } from '../jobs/StatusBadge';
import type { JobListRow } from '../jobs/types';
import { useModelName } from '../../lib/modelName';

const PAGE_SIZE = 20;

/** The job's results: its model's page with the job opened (ModelResults reads `job`). */
const jobLink = (j: JobListRow) => `/models/${j.model.name.toLowerCase()}?job=${encodeURIComponent(j.id)}`;

/**
 * /history: every job of the user across models, newest first, with the archived ones behind a toggle; filters by
 * model, status, creation days and image name (issue 24 item 7); each row links to its job.
 */
export function HistoryPage() {
  const { t, i18n } = useTranslation();
  const nameOf = useModelName();
  useJobEvents();
  const models = useAvailableModels();
  const [archived, setArchived] = useState(false);
  const [page, setPage] = useState(1);
  const [modelId, setModelId] = useState<string | null>(null);
  const [status, setStatus] = useState<JobStatus | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [name, setName] = useState('');
  const [typedName] = useDebouncedValue(name.trim(), 300);
  const filtered = Boolean(modelId || status || from || to || typedName);
  const rangeError = from && to && to < from ? t('history.filters.dateRange') : null;
  const jobs = useJobsPage(
    {
      archived,
      pageSize: PAGE_SIZE,
      sortBy: 'createdAt',
      sortOrder: 'desc',
      ...(modelId ? { modelId } : {}),
      ...(status ? { status } : {}),
      ...(from && !rangeError ? { from } : {}),
      ...(to && !rangeError ? { to } : {}),
      ...(typedName ? { name: typedName } : {}),
    },
    page,
  );
  // every filter change starts again at the first page
  const filter =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };
  const clear = () => {
    setModelId(null);
    setStatus(null);
    setFrom('');
    setTo('');
    setName('');
    setPage(1);
  };
  const unarchive = useBulkAction('unarchive');
  const pages = jobs.data ? Math.max(1, Math.ceil(jobs.data.total / PAGE_SIZE)) : 1;

  const action = (j: JobListRow) =>
    archived ? (
      <Button
        size="compact-xs"
        variant="light"
        onClick={() =>
          unarchive.mutate([j.id], {
            onSuccess: () => notifySuccess(t, 'jobs.toast.unarchived', 1),
            onError: (e) => notifyJobError(t, e),
          })
        }
      >
        {t('history.restore')}
      </Button>
    ) : (
      <Anchor component={Link} to={jobLink(j)} size="sm" data-testid="history-open">
        {t('history.open')}
      </Anchor>
    );

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2">
          {t('history.title')}
        </Title>
        <Switch
          label={t('history.showArchived')}
          checked={archived}
          onChange={(e) => {
            setArchived(e.currentTarget.checked);
            setPage(1);
          }}
        />
      </Group>
      <Group gap="sm" align="flex-end" wrap="wrap" data-testid="history-filters">
        <Select
          label={t('history.filters.model')}
          placeholder={t('history.filters.any')}
          data={(models.data ?? []).map((m) => ({ value: m.id, label: nameOf(m) }))}
          value={modelId}
          onChange={filter(setModelId)}
          clearable
          w={200}
          data-testid="history-filter-model"
        />
        <Select
          label={t('history.filters.status')}
          placeholder={t('history.filters.any')}
          data={JobStatusValues.map((s) => ({ value: s, label: t(`jobs.status.${s}`) }))}
          value={status}
          onChange={filter((v: string | null) => setStatus(v as JobStatus | null))}
          clearable
          w={170}
          data-testid="history-filter-status"
        />
        <TextInput
          type="date"
          label={t('history.filters.from')}
          value={from}
          onChange={(e) => filter(setFrom)(e.currentTarget.value)}
          w={160}
          data-testid="history-filter-from"
        />
        <TextInput
          type="date"
          label={t('history.filters.to')}
          value={to}
          onChange={(e) => filter(setTo)(e.currentTarget.value)}
          error={rangeError}
          w={160}
          data-testid="history-filter-to"
        />
        <TextInput
          label={t('history.filters.name')}
          placeholder={t('history.filters.namePlaceholder')}
          value={name}
          onChange={(e) => filter(setName)(e.currentTarget.value)}
          maxLength={200}
          w={200}
          data-testid="history-filter-name"
        />
        {filtered && (
          <Button variant="subtle" onClick={clear} data-testid="history-filter-clear">
            {t('history.filters.clear')}
          </Button>
        )}
      </Group>
      {jobs.isPending ? (
        <Stack gap="xs">
          {[0, 1, 2, 3, 4].map((i) => (
            <Skeleton key={i} h={36} />
          ))}
        </Stack>
      ) : !jobs.data?.jobs.length ? (
        <Center py="xl">
          <Stack align="center">
            <Text c="dimmed">{filtered ? t('history.filters.none') : archived ? t('history.emptyArchived') : t('jobs.empty')}</Text>
            {!archived && !filtered && (
              <Button component={Link} to="/dashboard" variant="light">
                {t('history.toDashboard')}
              </Button>
            )}
          </Stack>
        </Center>
      ) : (
        <>
          {/* phones: a list (a five-column table only showed the date and half the file name) */}
          <Stack gap={0} hiddenFrom="sm" data-testid="history-list">
            {jobs.data.jobs.map((j) => (
              <Group
                key={j.id}
                justify="space-between"
                wrap="nowrap"
                gap="xs"
                py="xs"
                data-testid="history-item"
                style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
              >
                <div style={{ minWidth: 0, flex: 1 }}>
                  <Anchor component={Link} to={jobLink(j)} size="sm" fw={500} truncate="end" title={j.image.orginalFilename} display="block">
                    {j.image.orginalFilename}
                  </Anchor>
                  <Text size="xs" c="dimmed" truncate="end">
                    {nameOf(j.model)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {formatDateTime(j.createdAt, i18n.language)}
                  </Text>
                </div>
                <Stack gap={6} align="flex-end">
                  <StatusBadge status={j.status} />
                  {action(j)}
                </Stack>
              </Group>
            ))}
          </Stack>
          <Box visibleFrom="sm">
            <Table.ScrollContainer minWidth={560}>
              <Table striped highlightOnHover data-testid="history-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('history.date')}</Table.Th>
                    <Table.Th>{t('history.image')}</Table.Th>
                    <Table.Th>{t('history.model')}</Table.Th>
                    <Table.Th>{t('history.status')}</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {jobs.data.jobs.map((j) => (
                    <Table.Tr key={j.id} data-testid="history-row">
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(j.createdAt, i18n.language)}</Table.Td>
                      <Table.Td maw={280}>
                        <Anchor
                          component={Link}
                          to={jobLink(j)}
                          size="sm"
                          truncate="end"
                          title={j.image.orginalFilename}
                          display="block"
                          data-testid="history-job-link"
                        >
                          {j.image.orginalFilename}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{nameOf(j.model)}</Table.Td>
                      <Table.Td>
                        <StatusBadge status={j.status} />
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{action(j)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Box>
        </>
      )}
      {pages > 1 && (
        <Center>
          <Pagination total={pages} value={page} onChange={setPage} size="sm" />
        </Center>
      )}
    </Stack>
  );
}
