import { Group, MultiSelect, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { custApi, GROUPS_KEY } from '../customizations/api';
import type { TrainErrors, TrainValues } from './trainForm';
import { UsersMultiSelect } from './UsersMultiSelect';

interface Props {
  modelId: string;
  values: TrainValues;
  errorText: (field: keyof TrainErrors) => string | undefined;
  set: (patch: Partial<TrainValues>) => void;
}

/** Which trainable images a run uses: all, or filtered by user, customization group and upload days. */
export function ImagesScope({ modelId, values, errorText, set }: Props) {
  const { t } = useTranslation();
  const groups = useQuery({ queryKey: GROUPS_KEY, queryFn: custApi.groups, enabled: values.scope === 'filtered' });
  const groupOptions = (groups.data ?? []).filter((g) => g.modelId === modelId).map((g) => ({ value: g.id, label: g.nameEn }));
  return (
    <Stack gap="xs">
      <div>
        <Text size="sm" fw={500} mb={4} id="train-scope-label">
          {t('adminTraining.form.images')}
        </Text>
        <SegmentedControl
          aria-labelledby="train-scope-label"
          value={values.scope}
          onChange={(v) => set({ scope: v as TrainValues['scope'] })}
          data={[
            { value: 'all', label: t('adminTraining.form.scopeAll') },
            { value: 'filtered', label: t('adminTraining.form.scopeFiltered') },
          ]}
          data-testid="train-scope"
        />
      </div>
      {values.scope === 'filtered' && (
        <Stack gap="xs">
          <UsersMultiSelect value={values.userIds} onChange={(userIds) => set({ userIds })} />
          <MultiSelect
            label={t('adminTraining.form.groups')}
            placeholder={values.groupIds.length ? undefined : t('adminTraining.form.groupsPlaceholder')}
            data={groupOptions}
            value={values.groupIds}
            onChange={(groupIds) => set({ groupIds })}
            searchable
            clearable
            comboboxProps={{ withinPortal: true }}
            data-testid="train-groups"
          />
          <Group grow wrap="wrap" gap="xs">
            <TextInput
              type="date"
              label={t('adminTraining.form.from')}
              value={values.from}
              onChange={(e) => set({ from: e.currentTarget.value })}
              error={errorText('from')}
              miw={150}
              data-testid="train-from"
            />
            <TextInput
              type="date"
              label={t('adminTraining.form.to')}
              value={values.to}
              onChange={(e) => set({ to: e.currentTarget.value })}
              error={errorText('to')}
              miw={150}
              data-testid="train-to"
            />
          </Group>
        </Stack>
      )}
    </Stack>
  );
}
