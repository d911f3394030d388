import { Button } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IconPlus, IconRefresh } from '@tabler/icons-react';
import type { Insight } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { AdminListPage } from '../../../components/AdminListPage';
import { errorText } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { confirmDelete } from '../common/confirm';
import { ADMIN_INSIGHTS_KEY, insightsApi, useAdminInsights } from './api';
import { InsightDialog } from './InsightDialog';
import { InsightsTable } from './InsightsTable';

/**
 * /admin/insights (back-office.md §2 Insights screen): 'Reset visibility' (for every user: asks first, issue 26 item
 * 7), 'Add', the table and the edit modal.
 */
export function InsightsPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const list = useAdminInsights();
  // undefined: closed; null: adding; an insight: editing it.
  const [editing, setEditing] = useState<Insight | null | undefined>(undefined);
  const reset = useMutation({
    mutationFn: () => call(insightsApi.resetVisibility),
    onSuccess: (r) => notifySuccess(r.message),
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  const remove = useMutation({
    mutationFn: (id: string) => call(insightsApi.remove, { params: { id } }),
    onSuccess: async (r) => {
      notifySuccess(r.message);
      await qc.invalidateQueries({ queryKey: ADMIN_INSIGHTS_KEY });
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  const rows = list.data ?? [];
  return (
    <>
      <AdminListPage
        title={t('insights.admin.title')}
        testId="admin-insights"
        query={list}
        empty={rows.length === 0}
        emptyText={t('insights.admin.empty')}
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} />}
              loading={reset.isPending}
              onClick={() => confirmDelete(t, t('insights.admin.resetConfirm'), () => reset.mutate())}
              data-testid="insights-reset"
            >
              {t('insights.admin.resetVisibility')}
            </Button>
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)} data-testid="insight-add">
              {t('insights.admin.add')}
            </Button>
          </>
        }
      >
        <InsightsTable
          rows={rows}
          onEdit={setEditing}
          onDelete={(row) => confirmDelete(t, t('insights.admin.deleteConfirm'), () => remove.mutate(row.id))}
        />
      </AdminListPage>
      {editing !== undefined ? <InsightDialog key={editing?.id ?? 'new'} insight={editing} onClose={() => setEditing(undefined)} /> : null}
    </>
  );
}
