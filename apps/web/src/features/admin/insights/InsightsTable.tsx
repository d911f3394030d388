import type { Insight } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { BilingualTable } from '../common/BilingualTable';

interface Props {
  rows: Insight[];
  onEdit: (insight: Insight) => void;
  onDelete: (insight: Insight) => void;
}

/** Title (in the UI language), Created at, Actions (edit, delete). */
export function InsightsTable({ rows, onEdit, onDelete }: Props) {
  const { t } = useTranslation();
  return (
    <BilingualTable
      rows={rows}
      labels={{
        title: t('insights.admin.columns.title'),
        createdAt: t('insights.admin.columns.createdAt'),
        actions: t('insights.admin.columns.actions'),
        edit: t('insights.admin.edit'),
        delete: t('insights.admin.delete'),
      }}
      tableTestId="insights-table"
      rowTestId="insight"
      minWidth={360}
      onEdit={onEdit}
      onDelete={onDelete}
    />
  );
}
