import { Text } from '@mantine/core';
import type { News } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { BilingualTable } from '../common/BilingualTable';

interface Props {
  rows: News[];
  /** Model id → display name. */
  modelNames: Map<string, string>;
  onEdit: (news: News) => void;
  onDelete: (news: News) => void;
}

/** Title (in the UI language), Model (or General), Created at, Actions (edit, delete). */
export function NewsTable({ rows, modelNames, onEdit, onDelete }: Props) {
  const { t } = useTranslation();
  return (
    <BilingualTable
      rows={rows}
      labels={{
        title: t('news.admin.columns.title'),
        createdAt: t('news.admin.columns.createdAt'),
        actions: t('news.admin.columns.actions'),
        edit: t('news.admin.edit'),
        delete: t('news.admin.delete'),
      }}
      tableTestId="news-table"
      rowTestId="news"
      minWidth={480}
      extraColumns={[
        {
          header: t('news.admin.columns.model'),
          cell: (row) => (
            <Text size="sm" c={row.modelId ? undefined : 'dimmed'}>
              {row.modelId ? (modelNames.get(row.modelId) ?? row.modelId) : t('news.admin.general')}
            </Text>
          ),
        },
      ]}
      onEdit={onEdit}
      onDelete={onDelete}
    />
  );
}
