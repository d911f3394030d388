import { ActionIcon, Group, Table, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { Insight } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { formatAdminDateTime } from '../../../lib/format';

interface Props {
  rows: Insight[];
  onEdit: (insight: Insight) => void;
  onDelete: (insight: Insight) => void;
}

/** Title (in the UI language), Created at, Actions (edit, delete). */
export function InsightsTable({ rows, onEdit, onDelete }: Props) {
  const { t, i18n } = useTranslation();
  const de = i18n.language === 'de';
  return (
    <Table.ScrollContainer minWidth={360}>
      <Table striped highlightOnHover verticalSpacing="xs" data-testid="insights-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('insights.admin.columns.title')}</Table.Th>
            <Table.Th w={180}>{t('insights.admin.columns.createdAt')}</Table.Th>
            <Table.Th w={100}>{t('insights.admin.columns.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const title = de ? row.titleDe : row.titleEn;
            return (
              <Table.Tr key={row.id} data-testid="insight-row">
                <Table.Td>
                  <Text size="sm" lineClamp={2}>
                    {title}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{formatAdminDateTime(row.createdAt)}</Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Tooltip label={t('insights.admin.edit')}>
                      <ActionIcon variant="subtle" aria-label={t('insights.admin.edit')} onClick={() => onEdit(row)} data-testid="insight-edit">
                        <IconPencil size={16} />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label={t('insights.admin.delete')}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('insights.admin.delete')}
                        onClick={() => onDelete(row)}
                        data-testid="insight-delete"
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
