/** /admin/training: every training run (issue 25), filtered by model and status, live while runs are active. */
import { Group, Select } from '@mantine/core';
import type { TrainingRunStatus, TrainingRunsQuery } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AdminListPage } from '../../../components/AdminListPage';
import { useModelName } from '../../../lib/modelName';
import { useModels } from '../customizations/useModels';
import { useTrainingRunEvents, useTrainingRuns } from './api';
import { RUN_STATUS_LABEL } from './labels';
import { TrainingRunsTable } from './TrainingRunsTable';

const STATUSES: TrainingRunStatus[] = ['QUEUED', 'RUNNING', 'FINISHED', 'FAILED', 'CANCELLED'];

export function TrainingRunsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const modelId = params.get('modelId') ?? undefined;
  const status = STATUSES.find((s) => s === params.get('status'));
  const query: TrainingRunsQuery = { ...(modelId ? { modelId } : {}), ...(status ? { status } : {}) };
  const runs = useTrainingRuns(query);
  useTrainingRunEvents();
  const models = useModels();
  const nameOf = useModelName();
  const setParam = (key: string, value: string | null) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  const rows = runs.data ?? [];
  return (
    <AdminListPage
      title={t('adminTraining.runs.title')}
      testId="training-runs"
      filters={
        <Group gap="sm" wrap="wrap" align="flex-end">
          <Select
            label={t('adminTraining.runs.model')}
            placeholder={t('adminTraining.runs.allModels')}
            data={(models.data ?? []).map((m) => ({ value: m.id, label: nameOf(m) }))}
            value={modelId ?? null}
            onChange={(v) => setParam('modelId', v)}
            clearable
            w={{ base: '100%', sm: 260 }}
          />
          <Select
            label={t('adminTraining.runs.statusFilter')}
            placeholder={t('adminTraining.runs.allStatuses')}
            data={STATUSES.map((s) => ({ value: s, label: t(RUN_STATUS_LABEL[s]) }))}
            value={status ?? null}
            onChange={(v) => setParam('status', v)}
            clearable
            w={{ base: '100%', sm: 200 }}
          />
        </Group>
      }
      query={runs}
      empty={rows.length === 0}
      emptyText={t('adminTraining.runs.empty')}
    >
      <TrainingRunsTable runs={rows} />
    </AdminListPage>
  );
}
