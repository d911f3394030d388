import { Select, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ComputeModel } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { FormActions } from '../../../components/FormActions';
import { errorText } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { computeModelsApi, MODELS_KEY } from './api';

interface Values {
  internalName: string;
  routingPath: string;
  storagePath: string;
  displayName: string;
  displayNameDe: string;
  version: string;
  accessType: 'PUBLIC' | 'PRIVATE';
  isDefaultVisible: boolean;
}

/** The General tab: create or edit a model. */
export function ModelForm({ model, onDone }: { model: ComputeModel | null; onDone: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const req = (v: string) => (v.trim() ? null : t('admin.models.required'));
  const form = useForm<Values>({
    initialValues: {
      internalName: model?.internalName ?? '',
      routingPath: model?.routingPath ?? '',
      storagePath: model?.storagePath ?? '',
      displayName: model?.displayName ?? '',
      displayNameDe: model?.displayNameDe ?? '',
      version: model?.version ?? '',
      accessType: model?.accessType ?? 'PRIVATE',
      isDefaultVisible: model?.isDefaultVisible ?? true,
    },
    validate: {
      internalName: req,
      routingPath: (v) => req(v) ?? (v.trim().startsWith('/') ? null : t('admin.models.routingPathStart')),
      storagePath: req,
      displayName: req,
      version: req,
    },
  });
  const save = useMutation({
    mutationFn: async (v: Values): Promise<unknown> => {
      const body = {
        ...v,
        internalName: v.internalName.trim(),
        routingPath: v.routingPath.trim(),
        storagePath: v.storagePath.trim(),
        displayName: v.displayName.trim(),
        // Empty clears the German name: German readers then see the shipped translation or the displayed name.
        displayNameDe: v.displayNameDe.trim() || null,
        version: v.version.trim(),
      };
      return model ? call(computeModelsApi.update, { params: { id: model.id }, body }) : call(computeModelsApi.create, { body });
    },
    onSuccess: async () => {
      notifySuccess(model ? t('admin.models.modelUpdated') : t('admin.models.modelCreated'));
      await qc.invalidateQueries({ queryKey: MODELS_KEY });
      onDone();
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  return (
    <form onSubmit={form.onSubmit((v) => save.mutate(v))} noValidate>
      <Stack>
        <TextInput label={t('admin.models.internalName')} withAsterisk {...form.getInputProps('internalName')} />
        <TextInput label={t('admin.models.routingPath')} withAsterisk placeholder="/grain-size" {...form.getInputProps('routingPath')} />
        <TextInput label={t('admin.models.storagePath')} withAsterisk {...form.getInputProps('storagePath')} />
        <TextInput label={t('admin.models.displayName')} withAsterisk {...form.getInputProps('displayName')} />
        <TextInput
          label={t('admin.models.displayNameDe')}
          description={t('admin.models.displayNameDeHint')}
          lang="de"
          {...form.getInputProps('displayNameDe')}
        />
        <TextInput label={t('admin.models.version')} withAsterisk {...form.getInputProps('version')} />
        <Select
          label={t('admin.models.accessType')}
          data={(['PRIVATE', 'PUBLIC'] as const).map((v) => ({ value: v, label: t(`admin.models.accessTypes.${v}`) }))}
          allowDeselect={false}
          {...form.getInputProps('accessType')}
        />
        <Switch label={t('admin.models.isDefaultVisible')} {...form.getInputProps('isDefaultVisible', { type: 'checkbox' })} />
        <FormActions submitLabel={t('admin.save')} cancelLabel={t('admin.cancel')} onCancel={onDone} loading={save.isPending} />
      </Stack>
    </form>
  );
}
