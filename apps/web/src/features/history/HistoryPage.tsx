import { Anchor, Box, Button, Center, Group, Pagination, Skeleton, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useBulkAction, useJobEvents, useJobsPage } from '../jobs/api';
import { formatDateTime } from '../../lib/format';
import { notifyJobError, notifySuccess } from '../jobs/notify';
import { StatusBadge } from '../jobs/StatusBadge';
import type { Job } from '../jobs/types';
import { useModelName } from '../../lib/modelName';

const PAGE_SIZE = 20;

/** /history: every job of the user across models, newest first, with the archived ones behind a toggle. */
export function HistoryPage() {
  const { t, i18n } = useTranslation();
  const nameOf = useModelName();
  useJobEvents();
  const [archived, setArchived] = useState(false);
  const [page, setPage] = useState(1);
  const jobs = useJobsPage({ archived, pageSize: PAGE_SIZE, sortBy: 'createdAt', sortOrder: 'desc' }, page);
  const unarchive = useBulkAction('unarchive');
  const pages = jobs.data ? Math.max(1, Math.ceil(jobs.data.total / PAGE_SIZE)) : 1;

  const action = (j: Job) =>
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
      <Anchor component={Link} to={`/models/${j.model.name.toLowerCase()}`} size="sm">
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
      {jobs.isPending ? (
        <Stack gap="xs">
          {[0, 1, 2, 3, 4].map((i) => (
            <Skeleton key={i} h={36} />
          ))}
        </Stack>
      ) : !jobs.data?.jobs.length ? (
        <Center py="xl">
          <Stack align="center">
            <Text c="dimmed">{archived ? t('history.emptyArchived') : t('jobs.empty')}</Text>
            {!archived && (
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
                  <Text size="sm" fw={500} truncate="end" title={j.image.orginalFilename}>
                    {j.image.orginalFilename}
                  </Text>
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
                        <Text size="sm" truncate="end" title={j.image.orginalFilename}>
                          {j.image.orginalFilename}
                        </Text>
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
