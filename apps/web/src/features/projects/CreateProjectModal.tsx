import { Modal } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions';
import { ProjectFields } from './ProjectFields';
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
        <ProjectFields name={name} description={description} onName={setName} onDescription={setDescription} error={error} autoFocus />
        <FormActions submitLabel={t('projects.create.submit')} onCancel={close} loading={create.isPending} />
      </form>
    </Modal>
  );
}
