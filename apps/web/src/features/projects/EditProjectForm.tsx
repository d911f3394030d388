import type { Project } from '@lamella/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions';
import { ProjectFields } from './ProjectFields';
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
      <ProjectFields name={name} description={description} onName={setName} onDescription={setDescription} error={error} />
      <FormActions onCancel={onDone} loading={update.isPending} />
    </form>
  );
}
