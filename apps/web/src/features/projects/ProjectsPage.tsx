import { Button, Container, Grid, Group, Stack, Title } from '@mantine/core';
import { IconPhoto, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ListState } from '../../components/ListState';
import { useProjects } from './api';
import { CreateProjectModal } from './CreateProjectModal';
import { ProjectDetail } from './ProjectDetail';
import { ProjectList } from './ProjectList';

/** /projects: the user's own and shared projects; `?project=<id>` opens one. */
export function ProjectsPage() {
  const { t } = useTranslation();
  const projects = useProjects();
  const [params, setParams] = useSearchParams();
  const openId = params.get('project');
  const [creating, setCreating] = useState(false);
  const open = (id: string | null) => setParams(id ? { project: id } : {});
  const list = projects.data ?? [];

  return (
    <Container size="xl" py="md">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <Title order={2}>{t('projects.title')}</Title>
          <Group gap="xs">
            <Button component={Link} to="/library" variant="default" leftSection={<IconPhoto size={16} />}>
              {t('projects.libraryLink')}
            </Button>
            <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
              {t('projects.create.button')}
            </Button>
          </Group>
        </Group>
        <Grid gutter="md">
          <Grid.Col span={{ base: 12, md: 4 }}>
            <ListState query={projects} empty={!list.length} emptyText={t('projects.empty')}>
              <ProjectList projects={list} selectedId={openId} onOpen={open} />
            </ListState>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 8 }}>{openId && <ProjectDetail id={openId} onClose={() => open(null)} />}</Grid.Col>
        </Grid>
      </Stack>
      <CreateProjectModal opened={creating} onClose={() => setCreating(false)} onCreated={(id) => open(id)} />
    </Container>
  );
}
