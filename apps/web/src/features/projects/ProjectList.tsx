import { Badge, Group, NavLink, Paper, Text } from '@mantine/core';
import type { Project } from '@lamella/contracts';
import { IconFolder, IconUsers } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ACCESS_LABEL } from './accessLabel';

/** The projects, each marked as own or shared (with the caller's role). */
export function ProjectList({ projects, selectedId, onOpen }: { projects: Project[]; selectedId: string | null; onOpen: (id: string) => void }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p={4}>
      {projects.map((p) => (
        <NavLink
          key={p.id}
          active={p.id === selectedId}
          onClick={() => onOpen(p.id)}
          leftSection={p.isOwner ? <IconFolder size={18} /> : <IconUsers size={18} />}
          data-testid="project-item"
          label={
            <Group gap="xs" wrap="nowrap" justify="space-between">
              <Text size="sm" truncate="end">
                {p.name}
              </Text>
              <Badge size="xs" variant="light" color={p.isOwner ? 'blue' : 'grape'}>
                {t(ACCESS_LABEL[p.access])}
              </Badge>
            </Group>
          }
          description={p.isOwner ? t('projects.imageCount', { count: p.imageCount }) : t('projects.sharedBy', { name: p.ownerName })}
        />
      ))}
    </Paper>
  );
}
