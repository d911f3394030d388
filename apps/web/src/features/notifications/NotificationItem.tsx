import { ActionIcon, Group, Text, UnstyledButton } from '@mantine/core';
import { IconCheck, IconTrash } from '@tabler/icons-react';
import { GROUP_INVITATION_NOTIFICATION, JOB_FAILED_NOTIFICATION, JOB_FINISHED_NOTIFICATION, type Notification } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../lib/format';
import { GroupInvitationActions } from './GroupInvitationActions';
import { useJobNotificationModel } from './useJobNotificationModel';

interface Props {
  notification: Notification;
  /** Opens what the notification is about; `modelPath`: the results page of a job notification's model. */
  onOpen: (n: Notification, modelPath?: string) => void;
  onSeen: (id: string) => void;
  onDelete: (id: string) => void;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** One notification of the panel: its text by type (unknown types say so), date, mark-seen and delete buttons. */
export function NotificationItem({ notification: n, onOpen, onSeen, onDelete }: Props) {
  const { t } = useTranslation();
  const format = useFormat();
  const jobModel = useJobNotificationModel(n);
  const label =
    n.type === 'PROJECT_SHARED'
      ? t('notifications.projectShared', { sharedByName: text(n.payload.sharedByName), projectName: text(n.payload.projectName) })
      : n.type === GROUP_INVITATION_NOTIFICATION
        ? t('groupAdmin.invitation.text', { invitedByName: text(n.payload.invitedByName), groupName: text(n.payload.groupName) })
        : n.type === JOB_FINISHED_NOTIFICATION
          ? t('notifications.jobFinished', { model: jobModel?.name ?? '' })
          : n.type === JOB_FAILED_NOTIFICATION
            ? t('notifications.jobFailed', { model: jobModel?.name ?? '' })
            : t('notifications.unknown');
  return (
    <Group
      wrap="nowrap"
      gap="xs"
      px="sm"
      py={6}
      data-testid="notification"
      data-seen={n.isSeen}
      style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
    >
      <UnstyledButton style={{ flex: 1, minWidth: 0 }} onClick={() => onOpen(n, jobModel?.path)}>
        <Text size="sm" fw={n.isSeen ? 400 : 600} lineClamp={2}>
          {label}
        </Text>
        <Text size="xs" c="dimmed">
          {format.dateTime(n.createdAt)}
        </Text>
      </UnstyledButton>
      {n.type === GROUP_INVITATION_NOTIFICATION && typeof n.payload.invitationId === 'string' && (
        <GroupInvitationActions invitationId={n.payload.invitationId} />
      )}
      {!n.isSeen && (
        <ActionIcon variant="subtle" size="sm" aria-label={t('notifications.markSeen')} onClick={() => onSeen(n.id)}>
          <IconCheck size={14} />
        </ActionIcon>
      )}
      <ActionIcon variant="subtle" color="red" size="sm" aria-label={t('notifications.delete')} onClick={() => onDelete(n.id)}>
        <IconTrash size={14} />
      </ActionIcon>
    </Group>
  );
}
