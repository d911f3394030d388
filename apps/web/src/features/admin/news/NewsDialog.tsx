import { Modal, Select, Stack } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { News, NewsBody } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { FormActions } from '../../../components/FormActions';
import { errorText } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { BilingualFields } from '../insights/BilingualFields';
import { emptyBilingual, validateBilingual, type BilingualErrors, type BilingualValues } from '../insights/bilingual';
import { ADMIN_NEWS_KEY, newsApi, useModelNames } from './api';

/** Add or edit news: an optional model (empty: general news), English and German title and content. */
export function NewsDialog({ news, onClose }: { news: News | null; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const models = useModelNames();
  const [initial] = useState<BilingualValues>(() => (news ? { ...news } : emptyBilingual()));
  const [values, setValues] = useState<BilingualValues>(initial);
  const [modelId, setModelId] = useState<string | null>(news?.modelId ?? null);
  const [errors, setErrors] = useState<BilingualErrors>({});
  const save = useMutation({
    mutationFn: (body: NewsBody) => (news ? call(newsApi.update, { params: { id: news.id }, body }) : call(newsApi.create, { body })),
    onSuccess: async (saved) => {
      notifySuccess(saved.message);
      await qc.invalidateQueries({ queryKey: ADMIN_NEWS_KEY });
      onClose();
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  const submit = () => {
    const errs = validateBilingual(t, values);
    setErrors(errs);
    if (!Object.keys(errs).length) save.mutate({ ...values, titleEn: values.titleEn.trim(), titleDe: values.titleDe.trim(), modelId });
  };
  return (
    <Modal opened onClose={onClose} title={t('news.admin.modalTitle')} size="xl" data-testid="news-dialog">
      <Stack>
        <Select
          label={t('news.admin.model')}
          placeholder={t('news.admin.modelPlaceholder')}
          data={(models.data ?? []).map((m) => ({ value: m.id, label: m.displayName }))}
          value={modelId}
          onChange={setModelId}
          clearable
          searchable
          data-testid="news-model"
        />
        <BilingualFields initial={initial} values={values} errors={errors} onChange={(p) => setValues((v) => ({ ...v, ...p }))} testIdPrefix="news" />
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
