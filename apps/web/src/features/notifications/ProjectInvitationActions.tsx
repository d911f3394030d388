import { Button, Group, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { projectsApi } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { errorText } from '../../lib/errorText';
import { notifyError, notifySuccess } from '../../lib/notify';

export const PROJECT_INVITATIONS_KEY = ['project-invitations'] as const;

/**
 * Accept or decline a project invitation from its notification (issue 28 item 4): the project is shared with the
 * user, and the owner sees their name, only once they accept. An invitation no longer waiting says so instead.
 */
export function ProjectInvitationActions({ invitationId }: { invitationId: string }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const waiting = useQuery({ queryKey: PROJECT_INVITATIONS_KEY, queryFn: () => call(projectsApi.myInvitations) });
  const answer = useMutation({
    mutationFn: (accept: boolean) => call(accept ? projectsApi.acceptInvitation : projectsApi.declineInvitation, { params: { id: invitationId } }),
    onSuccess: async (r) => {
      notifySuccess(r.message);
      await qc.invalidateQueries({ queryKey: PROJECT_INVITATIONS_KEY });
      // the projects list now holds the project
      await qc.invalidateQueries();
    },
    onError: (e) => notifyError(errorText(t, e)),
  });
  if (!waiting.data) return null;
  if (!waiting.data.some((i) => i.id === invitationId))
    return (
      <Text size="xs" c="dimmed">
        {t('projects.invitation.answered')}
      </Text>
    );
  return (
    <Group gap={6} mt={4}>
      <Button
        size="compact-xs"
        onClick={() => answer.mutate(true)}
        loading={answer.isPending && answer.variables}
        data-testid="project-invitation-accept"
      >
        {t('projects.invitation.accept')}
      </Button>
      <Button
        size="compact-xs"
        variant="default"
        onClick={() => answer.mutate(false)}
        loading={answer.isPending && !answer.variables}
        data-testid="project-invitation-decline"
      >
        {t('projects.invitation.decline')}
      </Button>
    </Group>
  );
}
