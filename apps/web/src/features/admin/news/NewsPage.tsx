import { Button } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IconPlus } from '@tabler/icons-react';
import type { News } from '@lamella/contracts';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { AdminListPage } from '../../../components/AdminListPage';
import { errorText } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { confirmDelete } from '../common/confirm';
import { ADMIN_NEWS_KEY, newsApi, useAdminNews, useModelNames } from './api';
import { NewsDialog } from './NewsDialog';
import { NewsTable } from './NewsTable';
import { useModelName } from '../../../lib/modelName';

/** /admin/news (back-office.md §2 News screen): the insights layout with an optional model per item. */
export function NewsPage() {
  const { t } = useTranslation();
  const nameOf = useModelName();
  const qc = useQueryClient();
  const list = useAdminNews();
  const models = useModelNames();
  const modelNames = useMemo(() => new Map((models.data ?? []).map((m) => [m.id, nameOf(m)])), [models.data, nameOf]);
  // undefined: closed; null: adding; a news item: editing it.
  const [editing, setEditing] = useState<News | null | undefined>(undefined);
  const remove = useMutation({
    mutationFn: (id: string) => call(newsApi.remove, { params: { id } }),
    onSuccess: async (r) => {
      notifySuccess(r.message);
      await qc.invalidateQueries({ queryKey: ADMIN_NEWS_KEY });
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  const rows = list.data ?? [];
  return (
    <>
      <AdminListPage
        title={t('news.admin.title')}
        testId="admin-news"
        query={list}
        empty={rows.length === 0}
        emptyText={t('news.admin.empty')}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)} data-testid="news-add">
            {t('news.admin.add')}
          </Button>
        }
      >
        <NewsTable
          rows={rows}
          modelNames={modelNames}
          onEdit={setEditing}
          onDelete={(row) => confirmDelete(t, t('news.admin.deleteConfirm'), () => remove.mutate(row.id))}
        />
      </AdminListPage>
      {editing !== undefined ? <NewsDialog key={editing?.id ?? 'new'} news={editing} onClose={() => setEditing(undefined)} /> : null}
    </>
  );
}
