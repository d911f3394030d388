import { Anchor, Table, Text } from '@mantine/core';
import type { TrainingRun } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatAdminDateTime } from '../../../lib/format';
import { useModelName } from '../../../lib/modelName';
import { RunProgress } from './RunProgress';
import { RunStatusBadge } from './RunStatusBadge';

/** The training runs, newest first: candidate (link to the run), model, base, status, progress, dates. */
export function TrainingRunsTable({ runs }: { runs: TrainingRun[] }) {
  const { t } = useTranslation();
  const nameOf = useModelName();
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped highlightOnHover verticalSpacing="xs" data-testid="training-runs-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('adminTraining.runs.col.candidate')}</Table.Th>
            <Table.Th>{t('adminTraining.runs.col.model')}</Table.Th>
            <Table.Th>{t('adminTraining.runs.col.base')}</Table.Th>
            <Table.Th>{t('adminTraining.runs.col.status')}</Table.Th>
            <Table.Th>{t('adminTraining.runs.col.progress')}</Table.Th>
            <Table.Th>{t('adminTraining.runs.col.created')}</Table.Th>
            <Table.Th>{t('adminTraining.runs.col.createdBy')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {runs.map((r) => (
            <Table.Tr key={r.id} data-testid="training-run-row" data-run-id={r.id} data-status={r.status}>
              <Table.Td>
                <Anchor
                  component={Link}
                  to={`/admin/training/${r.id}`}
                  fw={600}
                  aria-label={t('adminTraining.runs.open', { version: r.candidateVersion })}
                >
                  {r.candidateVersion}
                </Anchor>
              </Table.Td>
              <Table.Td>{nameOf(r.model)}</Table.Td>
              <Table.Td>{r.baseVersion}</Table.Td>
              <Table.Td>
                <RunStatusBadge status={r.status} />
              </Table.Td>
              <Table.Td>
                <RunProgress run={r} compact />
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatAdminDateTime(r.createdAt)}</Table.Td>
              <Table.Td>
                <Text size="sm" style={{ wordBreak: 'break-all' }}>
                  {r.createdBy?.email ?? ''}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
