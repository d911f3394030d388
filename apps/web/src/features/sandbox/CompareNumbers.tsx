import { Table, Text } from '@mantine/core';
import type { Job } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { NO_VALUE } from '../../lib/format';

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const fmt = (v: number | null) => (v === null ? NO_VALUE : Math.abs(v) >= 100 ? v.toFixed(1) : v.toPrecision(4).replace(/\.?0+$/, ''));

/** The numeric measurements of the current and the candidate version's jobs next to each other, with the difference. */
export function CompareNumbers({ current, candidate }: { current: Job | undefined; candidate: Job | undefined }) {
  const { t } = useTranslation();
  const a = current?.result?.measurements ?? {};
  const b = candidate?.result?.measurements ?? {};
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => num(a[k]) !== null || num(b[k]) !== null);
  if (keys.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('adminTraining.compare.noNumbers')}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table withTableBorder verticalSpacing={4} data-testid="compare-numbers">
        <Table.Thead>
          <Table.Tr>
            <Table.Th />
            <Table.Th>{t('adminTraining.compare.current')}</Table.Th>
            <Table.Th>{t('adminTraining.compare.candidate')}</Table.Th>
            <Table.Th>{t('adminTraining.compare.difference')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {keys.map((k) => {
            const x = num(a[k]);
            const y = num(b[k]);
            return (
              <Table.Tr key={k} data-measurement={k}>
                <Table.Td>
                  <Text size="sm">{t(`resultText.column.${k}`, { defaultValue: k })}</Text>
                </Table.Td>
                <Table.Td style={{ fontVariantNumeric: 'tabular-nums' }}>{fmt(x)}</Table.Td>
                <Table.Td style={{ fontVariantNumeric: 'tabular-nums' }}>{fmt(y)}</Table.Td>
                <Table.Td style={{ fontVariantNumeric: 'tabular-nums' }}>{x !== null && y !== null ? fmt(y - x) : NO_VALUE}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
