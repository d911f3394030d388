import { ActionIcon, Group, Table, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatAdminDateTime } from '../../../lib/format';

/** A stored insight or news item: both titles and the creation time. */
export interface BilingualRow {
  id: string;
  titleEn: string;
  titleDe: string;
  createdAt: string;
}

/** A column shown between Title and Created at. */
export interface ExtraColumn<T> {
  header: string;
  cell: (row: T) => ReactNode;
}

interface Props<T extends BilingualRow> {
  rows: T[];
  /** Translated texts: the column headers and the edit / delete labels. */
  labels: { title: string; createdAt: string; actions: string; edit: string; delete: string };
  /** `data-testid` of the table; rows and buttons use `<rowTestId>-row`, `-edit`, `-delete`. */
  tableTestId: string;
  rowTestId: string;
  minWidth: number;
  extraColumns?: ExtraColumn<T>[];
  onEdit: (row: T) => void;
  onDelete: (row: T) => void;
}

/** Title (in the UI language), any extra columns, Created at, Actions (edit, delete): the insights and news lists. */
export function BilingualTable<T extends BilingualRow>({
  rows,
  labels,
  tableTestId,
  rowTestId,
  minWidth,
  extraColumns = [],
  onEdit,
  onDelete,
}: Props<T>) {
  const { i18n } = useTranslation();
  const de = i18n.language === 'de';
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table striped highlightOnHover verticalSpacing="xs" data-testid={tableTestId}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{labels.title}</Table.Th>
            {extraColumns.map((c) => (
              <Table.Th key={c.header}>{c.header}</Table.Th>
            ))}
            <Table.Th w={180}>{labels.createdAt}</Table.Th>
            <Table.Th w={100}>{labels.actions}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id} data-testid={`${rowTestId}-row`}>
              <Table.Td>
                <Text size="sm" lineClamp={2}>
                  {de ? row.titleDe : row.titleEn}
                </Text>
              </Table.Td>
              {extraColumns.map((c) => (
                <Table.Td key={c.header}>{c.cell(row)}</Table.Td>
              ))}
              <Table.Td>
                <Text size="sm">{formatAdminDateTime(row.createdAt)}</Text>
              </Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <Tooltip label={labels.edit}>
                    <ActionIcon variant="subtle" aria-label={labels.edit} onClick={() => onEdit(row)} data-testid={`${rowTestId}-edit`}>
                      <IconPencil size={16} />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label={labels.delete}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={labels.delete}
                      onClick={() => onDelete(row)}
                      data-testid={`${rowTestId}-delete`}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
