import { Alert, Badge, Button, CloseButton, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/errorText';
import { useProject } from './api';
import { DeleteProjectButton } from './DeleteProjectButton';
import { EditProjectForm } from './EditProjectForm';
import { ProjectImages } from './ProjectImages';
import { ProjectJobReview } from './ProjectJobReview';
import { ProjectSharing } from './ProjectSharing';
import { ProjectTemplateSelect } from './ProjectTemplateSelect';
import { ProjectReportMenu } from '../reports/ProjectReportMenu';
import { ACCESS_LABEL } from './accessLabel';

/**
 * One project: name and description (editable by owner and EDITOR), template, its fields with their jobs, sharing;
 * `&job=<id>` opens one of the project's jobs read-only in place of the fields.
 */
export function ProjectDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation();
  const project = useProject(id);
  const [editing, setEditing] = useState(false);
  const [params, setParams] = useSearchParams();
  const jobId = params.get('job');
  if (project.isPending) return <Loader aria-label={t('common.loading')} />;
  if (project.isError)
    return (
      <Alert color="red" role="alert" withCloseButton onClose={onClose}>
        {errorText(t, project.error, 'projects.loadFailed')}
      </Alert>
    );
  const p = project.data;
  const canWrite = p.access !== 'VIEWER';
  return (
    <Stack gap="md" data-testid="project-detail">
      <Paper withBorder p="md">
        {editing ? (
          <EditProjectForm project={p} onDone={() => setEditing(false)} />
        ) : (
          <Stack gap="xs">
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Group gap="xs">
                <Title order={3}>{p.name}</Title>
                <Badge variant="light" color={p.isOwner ? 'blue' : 'grape'}>
                  {t(ACCESS_LABEL[p.access])}
                </Badge>
              </Group>
              <CloseButton onClick={onClose} aria-label={t('common.close')} />
            </Group>
            <Text size="sm" c={p.description ? undefined : 'dimmed'} style={{ whiteSpace: 'pre-wrap' }}>
              {p.description || t('projects.noDescription')}
            </Text>
            {!p.isOwner && (
              <Text size="xs" c="dimmed">
                {t('projects.sharedBy', { name: p.ownerName })}
              </Text>
            )}
            {p.access === 'VIEWER' && (
              <Alert color="gray" variant="light" p="xs">
                {t('projects.readOnly')}
              </Alert>
            )}
            <Group gap="xs" justify="space-between" wrap="wrap">
              <ProjectTemplateSelect project={p} disabled={!canWrite} />
              <Group gap="xs">
                <ProjectReportMenu project={p} />
                {canWrite && (
                  <Button variant="default" size="xs" leftSection={<IconPencil size={14} />} onClick={() => setEditing(true)}>
                    {t('projects.edit')}
                  </Button>
                )}
                {p.isOwner && <DeleteProjectButton project={p} onDeleted={onClose} />}
              </Group>
            </Group>
          </Stack>
        )}
      </Paper>
      {jobId ? (
        <ProjectJobReview project={p} jobId={jobId} onBack={() => setParams({ project: p.id })} />
      ) : (
        <>
          <ProjectImages project={p} />
          <ProjectSharing project={p} />
        </>
      )}
    </Stack>
  );
}
