import { Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions';
import { errorText } from '../../lib/errorText';
import { useCreateProject } from './api';

export function CreateProjectModal({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: (id: string) => void }) {
  const { t } = useTranslation();
  const create = useCreateProject();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setName('');
    setDescription('');
    setError(null);
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setError(t('projects.nameRequired'));
    create.mutate(
      { name: name.trim(), description: description.trim() || undefined },
      {
        onSuccess: (p) => {
          onCreated(p.id);
          close();
        },
        onError: (err) => setError(errorText(t, err)),
      },
    );
  };
  return (
    <Modal opened={opened} onClose={close} title={t('projects.create.title')}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('projects.fields.name')}
            required
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={error}
            maxLength={200}
            data-autofocus
          />
          <Textarea
            label={t('projects.fields.description')}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            autosize
            minRows={2}
            maxLength={2000}
          />
        </Stack>
        <FormActions submitLabel={t('projects.create.submit')} onCancel={close} loading={create.isPending} />
      </form>
    </Modal>
  );
}
