import { Table, Text } from '@mantine/core';
import type { TrainingValidation } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { METRICS } from './format';
import { METRIC_LABEL } from './labels';
import { MetricCells } from './MetricCells';

/**
 * The candidate's validation: per held-out image and in total, boundary F-score and |ΔG| of the base version and of
 * the candidate on the same images, better or worse highlighted (colour and a word, not colour alone).
 */
export function ValidationTable({
  validation,
  baseVersion,
  candidateVersion,
  imageName,
}: {
  validation: TrainingValidation;
  baseVersion: string;
  candidateVersion: string;
  /** The name to show for a held-out image id (its file name when known). */
  imageName?: (id: string) => string;
}) {
  const { t } = useTranslation();
  const name = imageName ?? ((id: string) => id.slice(0, 8));
  return (
    <div>
      <Text size="sm" c="dimmed" mb={4}>
        {t('adminTraining.validation.caption', { base: baseVersion, candidate: candidateVersion })}
      </Text>
      <Table.ScrollContainer minWidth={480}>
        <Table withTableBorder withColumnBorders verticalSpacing={4} data-testid="validation-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th rowSpan={2}>{t('adminTraining.validation.image')}</Table.Th>
              {METRICS.map((m) => (
                <Table.Th key={m} colSpan={2} ta="center">
                  {t(METRIC_LABEL[m])}
                </Table.Th>
              ))}
            </Table.Tr>
            <Table.Tr>
              {METRICS.map((m) => [
                <Table.Th key={`${m}-b`}>{t('adminTraining.validation.base')}</Table.Th>,
                <Table.Th key={`${m}-c`}>{t('adminTraining.validation.candidate')}</Table.Th>,
              ])}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {validation.images.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={5}>
                  <Text size="sm" c="dimmed">
                    {t('adminTraining.validation.empty')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {validation.images.map((row) => (
              <Table.Tr key={row.id} data-testid="validation-row">
                <Table.Td style={{ wordBreak: 'break-all' }}>
                  <Text size="sm" title={row.id}>
                    {name(row.id)}
                  </Text>
                </Table.Td>
                {METRICS.map((m) => (
                  <MetricCells key={m} metric={m} base={row.base} candidate={row.candidate} />
                ))}
              </Table.Tr>
            ))}
            <Table.Tr data-testid="validation-total">
              <Table.Td>
                <Text size="sm" fw={700}>
                  {t('adminTraining.validation.total')}
                </Text>
              </Table.Td>
              {METRICS.map((m) => (
                <MetricCells key={m} metric={m} base={validation.total.base} candidate={validation.total.candidate} />
              ))}
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </div>
  );
}
