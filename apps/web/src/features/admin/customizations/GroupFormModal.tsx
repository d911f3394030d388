/** Create or edit a customization group: English and German names, model, description (back-office.md §2). */
import { Modal, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../../components/FormActions';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { errorText } from '../../../lib/errorText';
import { GROUPS_KEY, custApi, modelIdOf } from './api';
import type { CustomizationGroup, CustomizationGroupBody } from '@lamella/contracts';
import { useModels } from './useModels';
import { useModelName } from '../../../lib/modelName';

export function GroupFormModal({
  group,
  opened,
  onClose,
  onSaved,
}: {
  group: CustomizationGroup | null;
  opened: boolean;
  onClose: () => void;
  onSaved: (g: CustomizationGroup | undefined) => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const models = useModels();
  const nameOf = useModelName();
  const form = useForm({
    initialValues: {
      nameEn: group?.nameEn ?? '',
      nameDe: group?.nameDe ?? '',
      modelId: group ? modelIdOf(group) : '',
      description: group?.description ?? '',
    },
    validate: {
      nameEn: (v) => (v.trim() ? null : t('admin.cust.nameRequired')),
      nameDe: (v) => (v.trim() ? null : t('admin.cust.nameRequired')),
      modelId: (v) => (v ? null : t('admin.cust.modelRequired')),
    },
  });
  const save = useMutation({
    mutationFn: (v: typeof form.values) => {
      const body: CustomizationGroupBody = {
        nameEn: v.nameEn.trim(),
        nameDe: v.nameDe.trim(),
        modelId: v.modelId,
        description: v.description.trim(),
      };
      return group ? custApi.update(group.id, body) : custApi.create(body);
    },
    onSuccess: async (g) => {
      notifySuccess(group ? t('admin.cust.groupEdited') : t('admin.cust.groupCreated'));
      await qc.invalidateQueries({ queryKey: GROUPS_KEY });
      form.reset();
      onSaved(g);
      onClose();
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  return (
    <Modal opened={opened} onClose={onClose} title={group ? t('admin.cust.editTitle') : t('admin.cust.createTitle')}>
      <form onSubmit={form.onSubmit((v) => save.mutate(v))} noValidate>
        <Stack>
          <TextInput label={t('admin.cust.nameEn')} withAsterisk {...form.getInputProps('nameEn')} />
          <TextInput label={t('admin.cust.nameDe')} withAsterisk {...form.getInputProps('nameDe')} />
          <Select
            label={t('admin.cust.model')}
            withAsterisk
            searchable
            data={(models.data ?? []).map((m) => ({ value: m.id, label: nameOf(m) || m.id }))}
            {...form.getInputProps('modelId')}
            value={form.values.modelId || null}
            onChange={(v) => form.setFieldValue('modelId', v ?? '')}
          />
          <Textarea label={t('admin.cust.description')} autosize minRows={2} {...form.getInputProps('description')} />
          <FormActions
            submitLabel={group ? t('admin.save') : t('admin.create')}
            onCancel={onClose}
            cancelLabel={t('admin.cancel')}
            loading={save.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}
