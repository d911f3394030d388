/** Create or edit a project settings template (accounts.md §2, §5): name, description, settings JSON (width 800). */
import { JsonInput, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import type { SettingsTemplate } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions';
import { applyServerErrors } from '../../lib/forms';
import { errorText } from '../../lib/errorText';
import { notifyError } from '../../lib/notify';
import { templatesApi } from './api';
import { templateErrors } from './rules';

export function TemplateModal({ template, onClose, onSaved }: { template: SettingsTemplate | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const form = useForm({
    initialValues: {
      name: template?.name ?? '',
      description: template?.description ?? '',
      settings: template ? JSON.stringify(template.settings, null, 2) : '',
    },
    validate: (values) => {
      const e = templateErrors(values);
      return {
        name: e.name ? t('adminAccounts.templates.nameRequired') : null,
        settings: e.settings ? t(`adminAccounts.templates.${e.settings}`) : null,
      };
    },
  });
  const save = useMutation({
    mutationFn: () => {
      const body = {
        name: form.values.name.trim(),
        description: form.values.description.trim() || null,
        settings: JSON.parse(form.values.settings) as Record<string, unknown>,
      };
      return template ? templatesApi.update(template.id, body) : templatesApi.create(body);
    },
    onSuccess: onSaved,
    onError: (e) => {
      if (!applyServerErrors(form, e)) notifyError(errorText(t, e, 'adminAccounts.error'));
    },
  });
  return (
    <Modal opened onClose={onClose} size={800} title={t('adminAccounts.templates.modalTitle')}>
      <form onSubmit={form.onSubmit(() => save.mutate())} noValidate>
        <Stack>
          <TextInput required label={t('adminAccounts.templates.templateName')} {...form.getInputProps('name')} />
          <Textarea label={t('adminAccounts.templates.description')} autosize minRows={2} {...form.getInputProps('description')} />
          <JsonInput
            required
            label={t('adminAccounts.templates.settings')}
            formatOnBlur
            // Mantine shows its own validationError for text that does not parse (without one: a red border and no
            // message, hiding the form's): the same words as the form's check
            validationError={t('adminAccounts.templates.invalidJson')}
            autosize
            minRows={10}
            maxRows={20}
            styles={{ input: { fontFamily: 'monospace' } }}
            {...form.getInputProps('settings')}
          />
          <FormActions submitLabel={t('adminAccounts.save')} onCancel={onClose} cancelLabel={t('adminAccounts.cancel')} loading={save.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
