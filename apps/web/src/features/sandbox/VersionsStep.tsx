import { Card, MultiSelect } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { VERSIONS } from '@lamella/analysis/versions';
import { SANDBOX_MAX_VERSIONS, trainingApi } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { versionsKey } from '../admin/training/api';

/**
 * Admin step: the model versions to compare (at least one, at most SANDBOX_MAX_VERSIONS, as the server takes): the
 * shipped ones and the chosen models' trained ones.
 */
export function VersionsStep({ value, onChange, modelIds }: { value: string[]; onChange: (v: string[]) => void; modelIds: string[] }) {
  const { t } = useTranslation();
  const trained = useQueries({
    queries: modelIds.map((id) => ({
      queryKey: versionsKey(id),
      queryFn: () => call(trainingApi.versions, { params: { id } }),
      retry: false,
    })),
  });
  const data = [...new Set([...VERSIONS, ...trained.flatMap((q) => (q.data?.versions ?? []).map((v) => v.version))])];
  return (
    <Card withBorder>
      <MultiSelect
        label={t('sandbox.versions')}
        data={data}
        value={value}
        onChange={onChange}
        maxValues={SANDBOX_MAX_VERSIONS}
        description={t('sandbox.versionsMax', { count: SANDBOX_MAX_VERSIONS })}
        error={value.length === 0 ? t('sandbox.versionsRequired') : undefined}
        maw={400}
      />
    </Card>
  );
}
