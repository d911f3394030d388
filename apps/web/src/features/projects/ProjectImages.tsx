import { ActionIcon, Button, Group, Image, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { projectsApi, type Project } from '@lamella/contracts';
import { IconPlus, IconUpload, IconX } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { urlOf } from '../../api/client';
import { ListState } from '../../components/ListState';
import { errorText } from '../../lib/errorText';
import { notifyError } from '../../lib/notify';
import { StatusBadge } from '../jobs/StatusBadge';
import { AddImagesModal } from './AddImagesModal';
import { useProjectImages, useRemoveProjectImage } from './api';

/** The images the project holds, each with its jobs; owner and EDITOR add images from the library and remove them. */
export function ProjectImages({ project }: { project: Project }) {
  const { t } = useTranslation();
  const images = useProjectImages(project.id);
  const remove = useRemoveProjectImage(project.id);
  const [adding, setAdding] = useState(false);
  const canWrite = project.access !== 'VIEWER';
  const list = images.data ?? [];
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="sm">
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
      <ListState query={images} empty={!list.length} emptyText={t('projects.images.empty')}>
        <SimpleGrid cols={{ base: 1, xs: 2, lg: 3 }} spacing="sm">
          {list.map((img) => (
            <Paper key={img.id} withBorder p="xs" data-testid="project-image">
              <Stack gap={4}>
                <Image
                  src={urlOf(projectsApi.thumbnail, { params: { id: project.id, imageId: img.id } })}
                  alt={img.orginalFilename}
                  h={120}
                  fit="contain"
                  bg="gray.1"
                />
                <Group justify="space-between" wrap="nowrap" gap={4}>
                  <Text size="sm" truncate="end" title={img.orginalFilename}>
                    {img.orginalFilename}
                  </Text>
                  {canWrite && (
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('projects.images.remove', { name: img.orginalFilename })}
                      onClick={() => remove.mutate(img.id, { onError: (err) => notifyError(errorText(t, err)) })}
                    >
                      <IconX size={14} />
                    </ActionIcon>
                  )}
                </Group>
                <Text size="xs" c="dimmed">
                  {t('projects.images.dimensions', { width: img.width, height: img.height })}
                </Text>
                {img.jobs.length ? (
                  img.jobs.slice(0, 5).map((j) => (
                    <Group key={j.id} gap={4} justify="space-between" wrap="nowrap">
                      <Text size="xs" truncate="end">
                        {j.modelName}
                      </Text>
                      <StatusBadge status={j.status} />
                    </Group>
                  ))
                ) : (
                  <Text size="xs" c="dimmed">
                    {t('projects.images.noJobs')}
                  </Text>
                )}
              </Stack>
            </Paper>
          ))}
        </SimpleGrid>
      </ListState>
      {canWrite && <AddImagesModal project={project} opened={adding} onClose={() => setAdding(false)} />}
    </Paper>
  );
}
