import { Stack, TextInput, Textarea } from '@mantine/core';
import type { Project } from '@lamella/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions';
import { errorText } from '../../lib/errorText';
import { useUpdateProject } from './api';

/** Rename and describe a project. */
export function EditProjectForm({ project, onDone }: { project: Project; onDone: () => void }) {
  const { t } = useTranslation();
  const update = useUpdateProject(project.id);
  const [name, setName] = useState(project.name);
  const [description, setDescription] = useState(project.description ?? '');
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setError(t('projects.nameRequired'));
    update.mutate(
      { name: name.trim(), description: description.trim() || null },
      { onSuccess: onDone, onError: (err) => setError(errorText(t, err)) },
    );
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('projects.fields.name')}
          required
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={error}
          maxLength={200}
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
      <FormActions onCancel={onDone} loading={update.isPending} />
    </form>
  );
}
