import { Badge, Group, Table, Text } from '@mantine/core';
import type { TrainingMetrics } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { VERDICT_LABEL } from './labels';
import { formatDeltaG, formatF, verdict, VERDICT_COLOR, type Metric } from './format';

/** One metric: base and candidate values next to each other, the candidate's cell coloured better or worse. */
export function MetricCells({ metric, base, candidate }: { metric: Metric; base: TrainingMetrics; candidate: TrainingMetrics }) {
  const { t } = useTranslation();
  const v = verdict(metric, base, candidate);
  const fmt = metric === 'fScore' ? formatF : formatDeltaG;
  return (
    <>
      <Table.Td style={{ fontVariantNumeric: 'tabular-nums' }}>{fmt(base[metric])}</Table.Td>
      <Table.Td
        data-verdict={v}
        data-testid={`candidate-${metric}`}
        style={{
          fontVariantNumeric: 'tabular-nums',
          background: v === 'same' ? undefined : `var(--mantine-color-${VERDICT_COLOR[v]}-light)`,
        }}
      >
        <Group gap={4} wrap="wrap">
          <Text size="sm" fw={v === 'same' ? undefined : 600}>
            {fmt(candidate[metric])}
          </Text>
          {v !== 'same' && (
            <Badge size="xs" variant="light" color={VERDICT_COLOR[v]}>
              {t(VERDICT_LABEL[v])}
            </Badge>
          )}
        </Group>
      </Table.Td>
    </>
  );
}
