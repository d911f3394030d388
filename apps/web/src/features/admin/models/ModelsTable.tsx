import { Badge, Group, Table, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconSelector } from '@tabler/icons-react';
import type { ComputeModel } from '@lamella/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { NO_VALUE } from '../../../lib/format';
import { ModelActionsMenu, type ModelActions } from './ModelActionsMenu';
import { columnValue, type ModelColumn } from './sort';

export interface ModelSort {
  col: ModelColumn;
  order: 'asc' | 'desc';
}

function display(m: ComputeModel, c: ModelColumn, t: TFunction): string {
  const v = columnValue(m, c);
  if (c === 'accessType') return t(`admin.models.accessTypes.${m.accessType}`);
  // the server answers mean times in seconds
  if (c === 'averageJobTime' || c === 'averageWaitTime') return v === null ? NO_VALUE : t('compute.models.seconds', { value: Number(v).toFixed(1) });
  return v === null ? NO_VALUE : String(v);
}

/** The models table: sortable columns (sorted in the client), one actions menu per row. */
export function ModelsTable({
  rows,
  columns,
  sort,
  onSort,
  actions,
}: {
  rows: ComputeModel[];
  columns: ModelColumn[];
  sort: ModelSort;
  onSort: (col: ModelColumn) => void;
  actions: ModelActions;
}) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={Math.max(360, columns.length * 120 + 60)}>
      <Table striped highlightOnHover verticalSpacing="xs" data-testid="models-table">
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => {
              const Icon = sort.col !== c ? IconSelector : sort.order === 'asc' ? IconArrowUp : IconArrowDown;
              return (
                <Table.Th key={c}>
                  <UnstyledButton onClick={() => onSort(c)}>
                    <Group gap={4} wrap="nowrap">
                      <Text fw={600} size="sm">
                        {t(`admin.models.col.${c}`)}
                      </Text>
                      <Icon size={14} />
                    </Group>
                  </UnstyledButton>
                </Table.Th>
              );
            })}
            <Table.Th w={60}>
              <Text fw={600} size="sm">
                {t('admin.actions')}
              </Text>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((m) => (
            <Table.Tr key={m.id} data-model={m.internalName}>
              {columns.map((c) => (
                <Table.Td key={c}>{display(m, c, t)}</Table.Td>
              ))}
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  {m.archivedAt && (
                    <Badge color="gray" variant="light" size="sm" data-testid="model-archived">
                      {t('admin.models.archived')}
                    </Badge>
                  )}
                  <ModelActionsMenu model={m} actions={actions} />
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
