import { ActionIcon, Group, Table, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { News } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { formatAdminDateTime } from '../../../lib/format';

interface Props {
  rows: News[];
  /** Model id → display name. */
  modelNames: Map<string, string>;
  onEdit: (news: News) => void;
  onDelete: (news: News) => void;
}

/** Title (in the UI language), Model (or General), Created at, Actions (edit, delete). */
export function NewsTable({ rows, modelNames, onEdit, onDelete }: Props) {
  const { t, i18n } = useTranslation();
  const de = i18n.language === 'de';
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table striped highlightOnHover verticalSpacing="xs" data-testid="news-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('news.admin.columns.title')}</Table.Th>
            <Table.Th>{t('news.admin.columns.model')}</Table.Th>
            <Table.Th w={180}>{t('news.admin.columns.createdAt')}</Table.Th>
            <Table.Th w={100}>{t('news.admin.columns.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id} data-testid="news-row">
              <Table.Td>
                <Text size="sm" lineClamp={2}>
                  {de ? row.titleDe : row.titleEn}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" c={row.modelId ? undefined : 'dimmed'}>
                  {row.modelId ? (modelNames.get(row.modelId) ?? row.modelId) : t('news.admin.general')}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{formatAdminDateTime(row.createdAt)}</Text>
              </Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <Tooltip label={t('news.admin.edit')}>
                    <ActionIcon variant="subtle" aria-label={t('news.admin.edit')} onClick={() => onEdit(row)} data-testid="news-edit">
                      <IconPencil size={16} />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label={t('news.admin.delete')}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('news.admin.delete')}
                      onClick={() => onDelete(row)}
                      data-testid="news-delete"
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
