import { Badge, Paper, ScrollArea, Table, Text, Title } from '@mantine/core';
import type { AdminJobDetail } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { formatAdminDateTime } from '../../../lib/format';

const OUTCOME_COLOR = { RUNNING: 'blue', FINISHED: 'green', FAILED: 'red', ABANDONED: 'orange' } as const;

/** Every attempt of the job: launcher, start, end, outcome and why it was abandoned (or the error of a failed one). */
export function JobAttempts({ job }: { job: AdminJobDetail }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" data-testid="job-attempts">
      <Title order={3} size="h5" mb="xs">
        {t('adminJobs.attempts.title')}
      </Title>
      {job.attempts.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('adminJobs.attempts.none')}
        </Text>
      ) : (
        <ScrollArea type="auto">
          <Table verticalSpacing="xs" miw={640}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('adminJobs.attempts.attempt')}</Table.Th>
                <Table.Th>{t('adminJobs.attempts.launcher')}</Table.Th>
                <Table.Th>{t('adminJobs.attempts.started')}</Table.Th>
                <Table.Th>{t('adminJobs.attempts.ended')}</Table.Th>
                <Table.Th>{t('adminJobs.attempts.outcome')}</Table.Th>
                <Table.Th>{t('adminJobs.attempts.reason')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {job.attempts.map((a, n) => (
                <Table.Tr key={n} data-testid="job-attempt">
                  <Table.Td>{a.attempt}</Table.Td>
                  <Table.Td>
                    <Text size="sm" title={a.launcherId ?? undefined}>
                      {a.launcher}
                    </Text>
                  </Table.Td>
                  <Table.Td>{formatAdminDateTime(a.startedAt)}</Table.Td>
                  <Table.Td>{formatAdminDateTime(a.endedAt)}</Table.Td>
                  <Table.Td>
                    <Badge color={OUTCOME_COLOR[a.outcome]} variant="light">
                      {t(`adminJobs.attempts.outcomes.${a.outcome}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c={a.outcome === 'FAILED' ? 'red' : undefined} style={{ overflowWrap: 'anywhere' }}>
                      {a.reason ?? '—'}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
    </Paper>
  );
}
