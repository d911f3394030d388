/** Models registry (back-office.md §2 "Models page", §5, §8). Route: /admin/compute-compute-models-registry. */
import { Button } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IconPlus } from '@tabler/icons-react';
import type { ComputeModel } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isAdmin, useMe } from '../../auth/session';
import { TrainDialog } from '../training/TrainDialog';
import { call } from '../../../api/client';
import { errorText } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { confirmDelete } from '../common/confirm';
import { AdminListPage } from '../../../components/AdminListPage';
import { computeModelsApi, MODELS_KEY, useComputeModels } from './api';
import { ColumnsPicker } from './ColumnsPicker';
import { ExampleDialog } from './ExampleDialog';
import { ManualDialog } from './ManualDialog';
import { ModelDialog } from './ModelDialog';
import { ModelsTable, type ModelSort } from './ModelsTable';
import { MODEL_COLUMNS, sortModels, type ModelColumn } from './sort';

const COLUMNS_STORAGE_KEY = 'lamella.admin.models.columns';

export function ModelsPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const models = useComputeModels();
  const [columns, setColumns] = useLocalStorage<ModelColumn[]>({
    key: COLUMNS_STORAGE_KEY,
    defaultValue: [...MODEL_COLUMNS],
    getInitialValueInEffect: false,
  });
  const [sort, setSort] = useState<ModelSort>({ col: 'name', order: 'asc' });
  const [editing, setEditing] = useState<ComputeModel | null | 'new'>(null);
  const [manualFor, setManualFor] = useState<ComputeModel | null>(null);
  const [exampleFor, setExampleFor] = useState<ComputeModel | null>(null);
  const [trainFor, setTrainFor] = useState<ComputeModel | null>(null);
  const navigate = useNavigate();
  const admin = isAdmin(useMe().data);
  const remove = useMutation({
    mutationFn: (id: string) => call(computeModelsApi.remove, { params: { id } }),
    onSuccess: async () => {
      notifySuccess(t('admin.models.modelDeleted'));
      await qc.invalidateQueries({ queryKey: MODELS_KEY });
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  const archive = useMutation({
    mutationFn: ({ id, on }: { id: string; on: boolean }) => call(on ? computeModelsApi.archive : computeModelsApi.unarchive, { params: { id } }),
    onSuccess: async (_m, v) => {
      notifySuccess(t(v.on ? 'admin.models.archivedDone' : 'admin.models.unarchivedDone'));
      await qc.invalidateQueries({ queryKey: MODELS_KEY });
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  const visible = MODEL_COLUMNS.filter((c) => c === 'name' || columns.includes(c));
  const rows = sortModels(models.data ?? [], sort.col, sort.order);
  const onSort = (col: ModelColumn) => setSort((s) => (s.col === col ? { col, order: s.order === 'asc' ? 'desc' : 'asc' } : { col, order: 'asc' }));
  return (
    <>
      <AdminListPage
        title={t('admin.models.title')}
        actions={
          <>
            <ColumnsPicker columns={columns} onChange={setColumns} />
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
              {t('admin.models.add')}
            </Button>
          </>
        }
        query={models}
        empty={rows.length === 0}
        emptyText={t('admin.models.empty')}
      >
        <ModelsTable
          rows={rows}
          columns={visible}
          sort={sort}
          onSort={onSort}
          actions={{
            onEdit: setEditing,
            onManual: setManualFor,
            onExample: setExampleFor,
            onDelete: (m) => confirmDelete(t, t('admin.models.deleteConfirm', { name: m.displayName }), () => remove.mutate(m.id)),
            onArchive: (m, on) =>
              on
                ? confirmDelete(t, t('admin.models.archiveConfirm', { name: m.displayName }), () => archive.mutate({ id: m.id, on }))
                : archive.mutate({ id: m.id, on }),
            ...(admin
              ? { onTrain: setTrainFor, onVersions: (m: ComputeModel) => void navigate(`/admin/compute-compute-models-registry/${m.id}/versions`) }
              : {}),
          }}
        />
      </AdminListPage>
      <ModelDialog model={editing === 'new' ? null : editing} opened={editing !== null} onClose={() => setEditing(null)} />
      {manualFor && <ManualDialog model={manualFor} onClose={() => setManualFor(null)} />}
      {exampleFor && <ExampleDialog model={exampleFor} onClose={() => setExampleFor(null)} />}
      {trainFor && <TrainDialog model={trainFor} onClose={() => setTrainFor(null)} />}
    </>
  );
}
