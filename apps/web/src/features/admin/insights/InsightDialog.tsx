import { Alert, Modal, Stack } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IconInfoCircle } from '@tabler/icons-react';
import type { Insight, InsightBody } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { FormActions } from '../../../components/FormActions';
import { errorText } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { ADMIN_INSIGHTS_KEY, insightsApi } from './api';
import { BilingualFields } from './BilingualFields';
import { emptyBilingual, validateBilingual, type BilingualErrors, type BilingualValues } from './bilingual';

/** The modal 'Edit insights' (add when `insight` is null): English and German title and content, all required. */
export function InsightDialog({ insight, onClose }: { insight: Insight | null; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [initial] = useState<BilingualValues>(() => (insight ? { ...insight } : emptyBilingual()));
  const [values, setValues] = useState<BilingualValues>(initial);
  const [errors, setErrors] = useState<BilingualErrors>({});
  const save = useMutation({
    mutationFn: (body: InsightBody) =>
      insight ? call(insightsApi.update, { params: { id: insight.id }, body }) : call(insightsApi.create, { body }),
    onSuccess: async (saved) => {
      notifySuccess(saved.message);
      await qc.invalidateQueries({ queryKey: ADMIN_INSIGHTS_KEY });
      onClose();
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  const submit = () => {
    const errs = validateBilingual(t, values);
    setErrors(errs);
    if (!Object.keys(errs).length) save.mutate({ ...values, titleEn: values.titleEn.trim(), titleDe: values.titleDe.trim() });
  };
  return (
    <Modal opened onClose={onClose} title={t('insights.admin.modalTitle')} size="xl" data-testid="insight-dialog">
      <Stack>
        <Alert color="blue" icon={<IconInfoCircle size={16} />}>
          {t('insights.admin.imageNote')}
        </Alert>
        <BilingualFields
          initial={initial}
          values={values}
          errors={errors}
          onChange={(p) => setValues((v) => ({ ...v, ...p }))}
          testIdPrefix="insight"
        />
        <FormActions
          submitLabel={t('insights.form.save')}
          cancelLabel={t('insights.form.cancel')}
          onCancel={onClose}
          onSubmit={submit}
          loading={save.isPending}
        />
      </Stack>
    </Modal>
  );
}
