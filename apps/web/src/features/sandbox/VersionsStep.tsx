import { Card, MultiSelect } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { trainingApi } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { versionsKey } from '../admin/training/api';
import { MODEL_VERSIONS } from './api';

/** Admin step: the model versions to compare (at least one): the shipped ones and the chosen models' trained ones. */
export function VersionsStep({ value, onChange, modelIds }: { value: string[]; onChange: (v: string[]) => void; modelIds: string[] }) {
  const { t } = useTranslation();
  const trained = useQueries({
    queries: modelIds.map((id) => ({
      queryKey: versionsKey(id),
      queryFn: () => call(trainingApi.versions, { params: { id } }),
      retry: false,
    })),
  });
  const data = [...new Set([...MODEL_VERSIONS, ...trained.flatMap((q) => (q.data?.versions ?? []).map((v) => v.version))])];
  return (
    <Card withBorder>
      <MultiSelect
        label={t('sandbox.versions')}
        data={data}
        value={value}
        onChange={onChange}
        error={value.length === 0 ? t('sandbox.versionsRequired') : undefined}
        maw={400}
      />
    </Card>
  );
}
