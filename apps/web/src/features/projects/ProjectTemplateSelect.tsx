import { Select } from '@mantine/core';
import type { Project } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/errorText';
import { notifyError } from '../../lib/notify';
import { useTemplateOptions, useUpdateProject } from './api';

/** The project settings template applied to the project (owner and EDITOR change it). */
export function ProjectTemplateSelect({ project, disabled }: { project: Project; disabled: boolean }) {
  const { t } = useTranslation();
  const options = useTemplateOptions();
  const update = useUpdateProject(project.id);
  return (
    <Select
      label={t('projects.template.label')}
      placeholder={t('projects.template.none')}
      clearable
      size="xs"
      w={{ base: '100%', sm: 260 }}
      disabled={disabled || update.isPending}
      data={(options.data ?? []).map((o) => ({ value: o.id, label: o.name }))}
      value={project.templateId}
      onChange={(templateId) => update.mutate({ templateId }, { onError: (err) => notifyError(errorText(t, err)) })}
    />
  );
}
