import { MultiSelect, Stack, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MaintenanceSettings, ModelShort } from '@lamella/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { FormActions } from '../../../components/FormActions';
import { errorText, fieldErrors } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { ADMIN_SETTINGS_KEY, MAINTENANCE_NOTICE_KEY, settingsApi } from './api';
import { useModelName } from '../../../lib/modelName';

interface Props {
  initial: MaintenanceSettings;
  models: ModelShort[];
}

type Errors = Partial<Record<'en' | 'de' | 'models', string>>;

/** English and German messages (both required) and the models under maintenance; saved with PUT /admin/settings/maintenance. */
export function MaintenanceForm({ initial, models }: Props) {
  const { t } = useTranslation();
  const nameOf = useModelName();
  const qc = useQueryClient();
  const [en, setEn] = useState(initial.maintenanceMessage.en);
  const [de, setDe] = useState(initial.maintenanceMessage.de);
  const [chosen, setChosen] = useState<string[]>(initial.maintenanceModels);
  const [errors, setErrors] = useState<Errors>({});
  const save = useMutation({
    mutationFn: () => call(settingsApi.setMaintenance, { body: { maintenanceMessage: { en: en.trim(), de: de.trim() }, maintenanceModels: chosen } }),
    onSuccess: async (saved) => {
      notifySuccess(saved.message);
      await Promise.all([qc.invalidateQueries({ queryKey: ADMIN_SETTINGS_KEY }), qc.invalidateQueries({ queryKey: MAINTENANCE_NOTICE_KEY })]);
    },
    onError: (e) => {
      const f = fieldErrors(t, e);
      setErrors({ en: f['maintenanceMessage.en'], de: f['maintenanceMessage.de'], models: f.maintenanceModels });
      notifyError(errorText(t, e, 'admin.error'));
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const errs: Errors = {};
    if (!en.trim()) errs.en = t('adminSettings.validation.messageEnRequired');
    if (!de.trim()) errs.de = t('adminSettings.validation.messageDeRequired');
    setErrors(errs);
    if (!Object.keys(errs).length) save.mutate();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Textarea
          label={t('adminSettings.maintenance.messageEn')}
          required
          autosize
          minRows={2}
          value={en}
          error={errors.en}
          onChange={(e) => setEn(e.currentTarget.value)}
          data-testid="maintenance-message-en"
        />
        <Textarea
          label={t('adminSettings.maintenance.messageDe')}
          required
          autosize
          minRows={2}
          value={de}
          error={errors.de}
          onChange={(e) => setDe(e.currentTarget.value)}
          data-testid="maintenance-message-de"
        />
        <MultiSelect
          label={t('adminSettings.maintenance.models')}
          description={t('adminSettings.maintenance.modelsHint')}
          placeholder={chosen.length ? undefined : t('adminSettings.maintenance.modelsPlaceholder')}
          data={models.map((m) => ({ value: m.id, label: nameOf(m) }))}
          value={chosen}
          onChange={setChosen}
          error={errors.models}
          searchable
          clearable
          clearButtonProps={{ 'aria-label': t('adminSettings.maintenance.clearModels') }}
          nothingFoundMessage={t('adminSettings.maintenance.noModels')}
          comboboxProps={{ withinPortal: true }}
          data-testid="maintenance-models"
        />
        <FormActions submitLabel={t('adminSettings.save')} loading={save.isPending} submitTestId="maintenance-save" />
      </Stack>
    </form>
  );
}
