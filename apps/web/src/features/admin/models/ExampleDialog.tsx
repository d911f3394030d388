import { Alert, Center, Loader, Modal, Stack } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconInfoCircle } from '@tabler/icons-react';
import type { ComputeModel, ModelExampleBody } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { FormActions } from '../../../components/FormActions';
import { errorText } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { RichText } from '../common/RichText';
import { computeModelsApi, modelExampleKey } from './api';

const hasContent = (html: string) => Boolean(html.replace(/<[^>]*>/g, '').trim()) || /<img/i.test(html);

/** "Example": the example results shown to users, in English and German (both required). */
export function ExampleDialog({ model, onClose }: { model: ComputeModel; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const key = modelExampleKey(model.id);
  const example = useQuery({ queryKey: key, queryFn: () => call(computeModelsApi.example, { params: { id: model.id } }) });
  const [en, setEn] = useState<string | null>(null);
  const [de, setDe] = useState<string | null>(null);
  const [errors, setErrors] = useState<{ en?: string; de?: string }>({});
  const save = useMutation({
    mutationFn: (body: ModelExampleBody) => call(computeModelsApi.saveExample, { params: { id: model.id }, body }),
    onSuccess: async () => {
      notifySuccess(t('admin.models.exampleUpdated'));
      await qc.invalidateQueries({ queryKey: key });
      onClose();
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  const submit = () => {
    const contentEn = en ?? example.data?.contentEn ?? '';
    const contentDe = de ?? example.data?.contentDe ?? '';
    const errs = {
      en: hasContent(contentEn) ? undefined : t('admin.models.contentRequired'),
      de: hasContent(contentDe) ? undefined : t('admin.models.contentRequired'),
    };
    setErrors(errs);
    if (!errs.en && !errs.de) save.mutate({ contentEn, contentDe });
  };
  return (
    <Modal opened onClose={onClose} title={t('admin.models.exampleTitle', { name: model.displayName })} size="xl">
      <Stack>
        <Alert color="blue" icon={<IconInfoCircle size={16} />}>
          {t('admin.models.exampleHint')}
        </Alert>
        {example.isPending ? (
          <Center p="lg">
            <Loader />
          </Center>
        ) : example.isError ? (
          <Alert color="red">{errorText(t, example.error, 'admin.error')}</Alert>
        ) : (
          <>
            <RichText label={t('admin.models.contentEn')} value={example.data.contentEn} onChange={setEn} error={errors.en} testId="example-en" />
            <RichText label={t('admin.models.contentDe')} value={example.data.contentDe} onChange={setDe} error={errors.de} testId="example-de" />
          </>
        )}
        <FormActions
          submitLabel={t('admin.save')}
          cancelLabel={t('admin.cancel')}
          onCancel={onClose}
          onSubmit={submit}
          loading={save.isPending}
          disabled={example.isPending || example.isError}
        />
      </Stack>
    </Modal>
  );
}
