import { Table, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatResultValue } from '../jobs/format';
import type { DataTableItem } from '../jobs/types';

export function DataTableView({ item }: { item: DataTableItem }) {
  const { t, i18n } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={280}>
      <Table striped withTableBorder data-testid="result-table" aria-label={item.title ?? t('results.panel.table')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('results.panel.measurement')}</Table.Th>
            <Table.Th ta="right">{t('results.panel.value')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {item.rows.map((r, i) => (
            <Table.Tr key={i}>
              <Table.Td>
                {r.labelTooltip ? (
                  <Tooltip label={r.labelTooltip} multiline maw={320} withArrow>
                    <Text size="sm" span style={{ textDecoration: 'underline dotted', cursor: 'help' }} tabIndex={0}>
                      {r.label}
                    </Text>
                  </Tooltip>
                ) : (
                  r.label
                )}
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
                {formatResultValue(r.value, r.kind, i18n.language)}
                {r.unit ? ` ${r.unit}` : ''}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
