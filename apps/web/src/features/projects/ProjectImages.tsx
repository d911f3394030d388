import { ActionIcon, Badge, Button, Group, Image, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { projectsApi, type Project, type ProjectField } from '@lamella/contracts';
import { IconPlus, IconUpload, IconX } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { urlOf } from '../../api/client';
import { ListState } from '../../components/ListState';
import { errorText } from '../../lib/errorText';
import { notifyError } from '../../lib/notify';
import { AddImagesModal } from './AddImagesModal';
import { useProjectFields, useRemoveProjectImage } from './api';
import { FieldModelRow } from './FieldModelRow';

/**
 * The project's fields (its images, oldest first: field 1 is the first added) with their thumbnails and, per model,
 * the job that represents the field (its key value, status, and a link to review it). Owner and EDITOR add images
 * from the library, remove them, and accept or release the fields' jobs.
 */
export function ProjectImages({ project }: { project: Project }) {
  const { t } = useTranslation();
  const fields = useProjectFields(project.id);
  const remove = useRemoveProjectImage(project.id);
  const [adding, setAdding] = useState(false);
  const canWrite = project.access !== 'VIEWER';
  const list = fields.data ?? [];
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="xs" wrap="wrap">
        <Title order={4}>{t('projects.images.title')}</Title>
        {canWrite && (
          <Group gap="xs">
            <Button
              size="xs"
              variant="default"
              component={Link}
              to={`/dashboard?project=${encodeURIComponent(project.id)}`}
              leftSection={<IconUpload size={14} />}
            >
              {t('projectRun.uploadInto')}
            </Button>
            <Button size="xs" leftSection={<IconPlus size={14} />} onClick={() => setAdding(true)}>
              {t('projects.images.add')}
            </Button>
          </Group>
        )}
      </Group>
      <Text size="xs" c="dimmed" mb="sm">
        {t('projects.field.intro')}
      </Text>
      <ListState query={fields} empty={!list.length} emptyText={t('projects.images.empty')}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {list.map((field, n) => (
            <FieldCard
              key={field.imageId}
              project={project}
              field={field}
              number={n + 1}
              onRemove={canWrite ? () => remove.mutate(field.imageId, { onError: (err) => notifyError(errorText(t, err)) }) : undefined}
            />
          ))}
        </SimpleGrid>
      </ListState>
      {canWrite && <AddImagesModal project={project} opened={adding} onClose={() => setAdding(false)} />}
    </Paper>
  );
}

function FieldCard({ project, field, number, onRemove }: { project: Project; field: ProjectField; number: number; onRemove?: () => void }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="xs" data-testid="project-image" data-image-id={field.imageId}>
      <Stack gap={6}>
        <Image
          src={urlOf(projectsApi.thumbnail, { params: { id: project.id, imageId: field.imageId } })}
          alt={field.orginalFilename}
          h={120}
          fit="contain"
          bg="gray.1"
        />
        <Group justify="space-between" wrap="nowrap" gap={4}>
          <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
            <Badge variant="default" size="sm" style={{ flexShrink: 0 }}>
              {t('projects.field.number', { n: number })}
            </Badge>
            <Text size="sm" truncate="end" title={field.orginalFilename}>
              {field.orginalFilename}
            </Text>
          </Group>
          {onRemove && (
            <ActionIcon variant="subtle" color="red" aria-label={t('projects.images.remove', { name: field.orginalFilename })} onClick={onRemove}>
              <IconX size={14} />
            </ActionIcon>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          {t('projects.images.dimensions', { width: field.width, height: field.height })}
        </Text>
        {field.models.length ? (
          field.models.map((m) => <FieldModelRow key={m.modelId} project={project} field={field} model={m} />)
        ) : (
          <Text size="xs" c="dimmed">
            {t('projects.images.noJobs')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
