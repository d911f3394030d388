import { Button, Group, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { groupsApi, projectsApi } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { errorText } from '../../lib/errorText';
import { notifyError, notifySuccess } from '../../lib/notify';

/**
 * What differs between the invitations answered from a notification:
 * - a project's (issue 28 item 4): the project is shared with the user, and the owner sees their name, only once they accept;
 * - a group's (issue 28 item 5): the user joins the group only by accepting.
 */
interface Kind {
  queryKey: readonly string[];
  /** The ids of the user's invitations still waiting. */
  waiting: () => Promise<string[]>;
  answer: (accept: boolean, id: string) => Promise<{ message: string }>;
  text: { answered: string; accept: string; decline: string };
}

const KINDS: Record<'project' | 'group', Kind> = {
  project: {
    queryKey: ['project-invitations'],
    waiting: async () => (await call(projectsApi.myInvitations)).map((i) => i.id),
    answer: (accept: boolean, id: string) => call(accept ? projectsApi.acceptInvitation : projectsApi.declineInvitation, { params: { id } }),
    text: { answered: 'projects.invitation.answered', accept: 'projects.invitation.accept', decline: 'projects.invitation.decline' },
  },
  group: {
    queryKey: ['group-invitations'],
    waiting: async () => (await call(groupsApi.myInvitations)).map((i) => i.id),
    answer: (accept: boolean, id: string) => call(accept ? groupsApi.acceptInvitation : groupsApi.declineInvitation, { params: { id } }),
    text: { answered: 'groupAdmin.invitation.answered', accept: 'groupAdmin.invitation.accept', decline: 'groupAdmin.invitation.decline' },
  },
};

/**
 * Accept or decline an invitation from its notification. An invitation no longer waiting (answered, or its project or
 * group deleted) says so instead.
 */
export function InvitationActions({ kind, invitationId }: { kind: keyof typeof KINDS; invitationId: string }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const k = KINDS[kind];
  const waiting = useQuery({ queryKey: k.queryKey, queryFn: k.waiting });
  const answer = useMutation({
    mutationFn: (accept: boolean) => k.answer(accept, invitationId),
    onSuccess: async (r) => {
      notifySuccess(r.message);
      // the projects list now holds the project; the account page the group (the group-admin flag comes from /users/me)
      await qc.invalidateQueries();
    },
    onError: (e) => notifyError(errorText(t, e)),
  });
  if (!waiting.data) return null;
  if (!waiting.data.includes(invitationId))
    return (
      <Text size="xs" c="dimmed">
        {t(k.text.answered)}
      </Text>
    );
  return (
    <Group gap={6} mt={4}>
      <Button
        size="compact-xs"
        onClick={() => answer.mutate(true)}
        loading={answer.isPending && answer.variables}
        data-testid={`${kind}-invitation-accept`}
      >
        {t(k.text.accept)}
      </Button>
      <Button
        size="compact-xs"
        variant="default"
        onClick={() => answer.mutate(false)}
        loading={answer.isPending && !answer.variables}
        data-testid={`${kind}-invitation-decline`}
      >
        {t(k.text.decline)}
      </Button>
    </Group>
  );
}
