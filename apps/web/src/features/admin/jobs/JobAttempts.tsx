import { Badge, Paper, Table, Text, Title } from '@mantine/core';
import type { AdminJobDetail } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { ScrollTable } from '../../../components/ScrollTable';
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
        <ScrollTable
          minWidth={640}
          headers={[
            t('adminJobs.attempts.attempt'),
            t('adminJobs.attempts.launcher'),
            t('adminJobs.attempts.started'),
            t('adminJobs.attempts.ended'),
            t('adminJobs.attempts.outcome'),
            t('adminJobs.attempts.reason'),
          ]}
        >
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
        </ScrollTable>
      )}
    </Paper>
  );
}
