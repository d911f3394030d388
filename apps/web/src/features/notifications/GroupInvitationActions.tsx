import { Button, Group, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { groupsApi } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { errorText } from '../../lib/errorText';
import { notifyError, notifySuccess } from '../../lib/notify';

export const GROUP_INVITATIONS_KEY = ['group-invitations'] as const;

/**
 * Accept or decline a group invitation from its notification (issue 28 item 5): the user joins the group only by
 * accepting. An invitation that is no longer waiting (answered, or its group deleted) says so instead.
 */
export function GroupInvitationActions({ invitationId }: { invitationId: string }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const waiting = useQuery({ queryKey: GROUP_INVITATIONS_KEY, queryFn: () => call(groupsApi.myInvitations) });
  const answer = useMutation({
    mutationFn: (accept: boolean) => call(accept ? groupsApi.acceptInvitation : groupsApi.declineInvitation, { params: { id: invitationId } }),
    onSuccess: async (r) => {
      notifySuccess(r.message);
      await qc.invalidateQueries({ queryKey: GROUP_INVITATIONS_KEY });
      // the account page shows the group; the group-admin flag and menus come from /users/me
      await qc.invalidateQueries();
    },
    onError: (e) => notifyError(errorText(t, e)),
  });
  if (!waiting.data) return null;
  if (!waiting.data.some((i) => i.id === invitationId))
    return (
      <Text size="xs" c="dimmed">
        {t('groupAdmin.invitation.answered')}
      </Text>
    );
  return (
    <Group gap={6} mt={4}>
      <Button
        size="compact-xs"
        onClick={() => answer.mutate(true)}
        loading={answer.isPending && answer.variables}
        data-testid="group-invitation-accept"
      >
        {t('groupAdmin.invitation.accept')}
      </Button>
      <Button
        size="compact-xs"
        variant="default"
        onClick={() => answer.mutate(false)}
        loading={answer.isPending && !answer.variables}
        data-testid="group-invitation-decline"
      >
        {t('groupAdmin.invitation.decline')}
      </Button>
    </Group>
  );
}
