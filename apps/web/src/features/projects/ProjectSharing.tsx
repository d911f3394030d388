import { ActionIcon, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { Project } from '@lamella/contracts';
import { IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ListState } from '../../components/ListState';
import { errorText } from '../../lib/errorText';
import { notifyError } from '../../lib/notify';
import { useCancelInvitation, useProjectAccess, useRevokeAccess } from './api';
import { ShareForm } from './ShareForm';
import { ACCESS_LABEL } from './accessLabel';

/** Who has access (owner, EDITORs, VIEWERs, pending invitations); the owner shares by e-mail and revokes. */
export function ProjectSharing({ project }: { project: Project }) {
  const { t } = useTranslation();
  const access = useProjectAccess(project.id);
  const revoke = useRevokeAccess(project.id);
  const cancel = useCancelInvitation(project.id);
  const onError = (err: unknown) => notifyError(errorText(t, err));
  const data = access.data;
  return (
    <Paper withBorder p="md">
      <Title order={4} mb="sm">
        {t('projects.sharing.title')}
      </Title>
      {project.isOwner && <ShareForm projectId={project.id} />}
      <ListState query={access} empty={!data?.members.length} emptyText={t('projects.sharing.empty')}>
        <Stack gap={6} mt="sm" data-testid="project-members">
          {data?.members.map((m) => (
            <Group key={m.userId} justify="space-between" wrap="nowrap">
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Text size="sm" truncate="end">
                  {m.name}
                </Text>
                <Text size="xs" c="dimmed" truncate="end">
                  {m.email}
                </Text>
              </Stack>
              <Group gap={4} wrap="nowrap">
                <Badge size="sm" variant="light">
                  {t(ACCESS_LABEL[m.role])}
                </Badge>
                {project.isOwner && m.role !== 'OWNER' && (
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('projects.sharing.revoke', { email: m.email })}
                    onClick={() => revoke.mutate(m.userId, { onError })}
                  >
                    <IconX size={14} />
                  </ActionIcon>
                )}
              </Group>
            </Group>
          ))}
          {data?.invitations.map((i) => (
            <Group key={i.email} justify="space-between" wrap="nowrap">
              <Text size="sm" c="dimmed" truncate="end">
                {i.email}
              </Text>
              <Group gap={4} wrap="nowrap">
                <Badge size="sm" variant="outline" color="gray">
                  {t('projects.sharing.invited', { role: t(ACCESS_LABEL[i.role]) })}
                </Badge>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('projects.sharing.cancelInvitation', { email: i.email })}
                  onClick={() => cancel.mutate(i.email, { onError })}
                >
                  <IconX size={14} />
                </ActionIcon>
              </Group>
            </Group>
          ))}
        </Stack>
      </ListState>
    </Paper>
  );
}
