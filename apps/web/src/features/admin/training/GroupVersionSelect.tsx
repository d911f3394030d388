import { Loader, Select } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CustomizationGroup } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { errorText } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { GROUPS_KEY } from '../customizations/api';
import { trainingApi, useModelVersions, useTrainedVersions } from './api';

const CURRENT = '__current__';

/** Per customization group: the model version its members' jobs run with (a customer's own trained model). */
export function GroupVersionSelect({ group }: { group: CustomizationGroup }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const versions = useModelVersions(group.modelId);
  const trained = useTrainedVersions(group.modelId);
  const [saved, setSaved] = useState<string | null>(group.modelVersion);
  const save = useMutation({
    mutationFn: (version: string | null) => call(trainingApi.setGroupVersion, { params: { id: group.id }, body: { version } }),
    onSuccess: async (r) => {
      setSaved(r.version);
      notifySuccess(r.message || t('adminTraining.group.saved'));
      await qc.invalidateQueries({ queryKey: GROUPS_KEY });
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  const current = trained.data?.currentVersion ?? versions.data?.find((v) => v.isCurrent)?.version ?? '';
  const options = [
    { value: CURRENT, label: t('adminTraining.group.versionCurrent', { version: current }) },
    ...[...new Set([...(versions.data ?? []).map((v) => v.version), ...(trained.data?.versions ?? []).map((v) => v.version)])].map((v) => ({
      value: v,
      label: v,
    })),
  ];
  return (
    <Select
      label={t('adminTraining.group.version')}
      description={t('adminTraining.group.versionHint')}
      data={options}
      value={saved ?? CURRENT}
      onChange={(v) => v && save.mutate(v === CURRENT ? null : v)}
      allowDeselect={false}
      disabled={save.isPending}
      rightSection={versions.isPending || save.isPending ? <Loader size={14} /> : undefined}
      comboboxProps={{ withinPortal: true }}
      data-testid="group-version"
    />
  );
}
