import { Select, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useProjects, useTemplateOptions } from '../projects/api';

/**
 * The project a run goes into (optional): its images join the project and its jobs run with the project's
 * settings template. Only projects the user may add to (own, or shared as EDITOR) are offered.
 */
export function ProjectPicker({ value, onChange }: { value: string | null; onChange: (projectId: string | null) => void }) {
  const { t } = useTranslation();
  const projects = useProjects();
  const templates = useTemplateOptions();
  const writable = (projects.data ?? []).filter((p) => p.access !== 'VIEWER');
  const chosen = writable.find((p) => p.id === value);
  const template = chosen?.templateId ? templates.data?.find((o) => o.id === chosen.templateId) : undefined;
  if (!projects.isPending && writable.length === 0) return null;
  return (
    <div>
      <Select
        label={t('projectRun.label')}
        description={t('projectRun.description')}
        placeholder={t('projectRun.placeholder')}
        clearable
        searchable
        data-testid="run-project"
        disabled={projects.isPending}
        data={writable.map((p) => ({ value: p.id, label: p.name }))}
        value={chosen ? chosen.id : null}
        onChange={onChange}
      />
      {template && (
        <Text size="xs" c="dimmed" mt={4}>
          {t('projectRun.template', { name: template.name })}
        </Text>
      )}
    </div>
  );
}
