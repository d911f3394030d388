import { NumberInput, SimpleGrid } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DemoLicenseSettings } from '@lamella/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { FormActions } from '../../../components/FormActions';
import { errorText } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { ADMIN_SETTINGS_KEY, DEMO_LICENSE_KEY, adminUsersApi } from './api';

const fields = ['maxImages', 'demoDuration', 'extensionDuration', 'reminderBeforeExpiry', 'reminderBeforeExtensionExpiry'] as const;
type Field = (typeof fields)[number];
type Values = Record<Field, number | string>;

/** The five numbers, all required whole numbers (0–100000); saved with PUT /admin/licenses/demo. */
export function DemoLicenseForm({ initial }: { initial: DemoLicenseSettings }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [values, setValues] = useState<Values>(initial);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const save = useMutation({
    mutationFn: (body: DemoLicenseSettings) => call(adminUsersApi.setDemoLicense, { body }),
    onSuccess: async () => {
      notifySuccess(t('adminSettings.demo.saved'));
      await Promise.all([qc.invalidateQueries({ queryKey: DEMO_LICENSE_KEY }), qc.invalidateQueries({ queryKey: ADMIN_SETTINGS_KEY })]);
    },
    onError: (e) => notifyError(errorText(t, e, 'adminSettings.demo.failed'), t('adminSettings.demo.failed')),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const errs: Partial<Record<Field, string>> = {};
    for (const f of fields) {
      const v = values[f];
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) errs[f] = t('adminSettings.demo.numberRequired');
    }
    setErrors(errs);
    if (!Object.keys(errs).length) save.mutate(values as DemoLicenseSettings);
  };
  return (
    <form onSubmit={submit} noValidate>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {fields.map((f) => (
          <NumberInput
            key={f}
            label={t(`adminSettings.demo.fields.${f}`)}
            required
            min={0}
            max={100_000}
            allowDecimal={false}
            allowNegative={false}
            value={values[f]}
            error={errors[f]}
            onChange={(v) => setValues((prev) => ({ ...prev, [f]: v }))}
            data-testid={`demo-${f}`}
          />
        ))}
      </SimpleGrid>
      <FormActions submitLabel={t('adminSettings.save')} loading={save.isPending} submitTestId="demo-save" />
    </form>
  );
}
