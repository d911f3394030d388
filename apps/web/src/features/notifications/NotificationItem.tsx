import { ActionIcon, Group, Text, UnstyledButton } from '@mantine/core';
import { IconCheck, IconTrash } from '@tabler/icons-react';
import { GROUP_INVITATION_NOTIFICATION, JOB_FAILED_NOTIFICATION, JOB_FINISHED_NOTIFICATION, type Notification } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useFormat } from '../../lib/format';
import { InvitationActions } from './InvitationActions';
import { useJobNotificationModel } from './useJobNotificationModel';

interface Props {
  notification: Notification;
  /** Opens what the notification is about; `modelPath`: the results page of a job notification's model, with its job. */
  onOpen: (n: Notification, modelPath?: string) => void;
  onSeen: (id: string) => void;
  onDelete: (id: string) => void;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** The job's place on its model's results page (`?job=`: opened and scrolled to). */
const jobPath = (modelPath: string, n: Notification) =>
  typeof n.payload.jobId === 'string' ? `${modelPath}?job=${encodeURIComponent(n.payload.jobId)}` : modelPath;

/** A job notification's text: the latest job's image by name (older notifications without one: the model only). */
function jobLabel(t: TFunction, n: Notification, model: string): string {
  const image = text(n.payload.imageName);
  const failed = (n.payload.jobStatus ?? (n.type === JOB_FAILED_NOTIFICATION ? 'FAILED' : 'FINISHED')) === 'FAILED';
  if (!image) return failed ? t('notifications.jobFailed', { model }) : t('notifications.jobFinished', { model });
  return failed ? t('notifications.jobFailedImage', { model, image }) : t('notifications.jobFinishedImage', { model, image });
}

/** The batch counts of a grouped job notification (one per request, issue 24 item 7); null for a batch of one. */
function batchOf(n: Notification): { done: number; total: number; failed: number } | null {
  const total = count(n.payload.total);
  if (total < 2) return null;
  const failed = count(n.payload.failed);
  return { done: count(n.payload.finished) + failed, total, failed };
}

/** One notification of the panel: its text by type (unknown types say so), date, mark-seen and delete buttons. */
export function NotificationItem({ notification: n, onOpen, onSeen, onDelete }: Props) {
  const { t } = useTranslation();
  const format = useFormat();
  const jobModel = useJobNotificationModel(n);
  const isJob = n.type === JOB_FINISHED_NOTIFICATION || n.type === JOB_FAILED_NOTIFICATION;
  const label =
    n.type === 'PROJECT_SHARED'
      ? t('notifications.projectShared', { sharedByName: text(n.payload.sharedByName), projectName: text(n.payload.projectName) })
      : n.type === 'PROJECT_INVITATION'
        ? t('notifications.projectInvitation', { projectName: text(n.payload.projectName) })
        : n.type === GROUP_INVITATION_NOTIFICATION
          ? t('groupAdmin.invitation.text', { invitedByName: text(n.payload.invitedByName), groupName: text(n.payload.groupName) })
          : isJob
            ? jobLabel(t, n, jobModel?.name ?? '')
            : t('notifications.unknown');
  const batch = isJob ? batchOf(n) : null;
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
      <UnstyledButton
        style={{ flex: 1, minWidth: 0 }}
        data-testid="notification-open"
        onClick={() => onOpen(n, jobModel ? jobPath(jobModel.path, n) : undefined)}
      >
        <Text size="sm" fw={n.isSeen ? 400 : 600} lineClamp={2}>
          {label}
        </Text>
        {batch && (
          <Text size="xs" data-testid="notification-batch">
            {t('notifications.batchProgress', { done: batch.done, total: batch.total })}
            {batch.failed > 0 ? ` · ${t('notifications.batchFailed', { count: batch.failed })}` : ''}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          {format.dateTime(n.createdAt)}
        </Text>
      </UnstyledButton>
      {n.type === GROUP_INVITATION_NOTIFICATION && typeof n.payload.invitationId === 'string' && (
        <InvitationActions kind="group" invitationId={n.payload.invitationId} />
      )}
      {n.type === 'PROJECT_INVITATION' && typeof n.payload.invitationId === 'string' && (
        <InvitationActions kind="project" invitationId={n.payload.invitationId} />
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
