import {
  JOB_FAILED_NOTIFICATION,
  JOB_FINISHED_NOTIFICATION,
  NOTIFICATION_EVENT,
  type Notification,
  type NotificationsDeleted,
  type NotificationsUpdated,
} from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { notFound } from '../../platform/http/errors.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { normalizeEmail } from '../users/service.ts';
import * as repo from './repo.ts';

/** user-app.md §3 Notification: {id, type, payload, isSeen, createdAt}. */
export const presentNotification = (n: repo.NotificationRow): Notification => ({
  id: n.id,
  type: n.type,
  payload: n.payload,
  isSeen: n.seenAt !== null,
  createdAt: n.createdAt.toISOString(),
});

/** The newest 200 notifications of the user (the panel, and the socket's `notifications` acknowledgement). */
export async function listNotifications(db: Db, userId: string): Promise<Notification[]> {
  return (await repo.listForUser(db, userId, 200)).map(presentNotification);
}

/**
 * The panel (GET /notifications): the newest 200, in one statement that also tells whether project invitations
 * wait for the user's address. When some do, `activate` (the projects module: invitations become shares, each
 * with its notification) runs first and the list is read again; otherwise nothing is written.
 */
export async function panel(
  db: Db,
  user: { id: string; email: string },
  activate?: (user: { id: string; email: string }) => Promise<unknown>,
): Promise<Notification[]> {
  const { list, invited } = await repo.panelForUser(db, user.id, normalizeEmail(user.email), 200);
  if (!invited || !activate) return list;
  await activate(user);
  return (await repo.panelForUser(db, user.id, normalizeEmail(user.email), 200)).list;
}

/** Stores a notification and pushes it to the user's open pages (socket.io event `notification`). */
export async function notify(
  db: Db,
  realtime: Pick<Realtime, 'emitToUser'>,
  userId: string,
  type: string,
  payload: Record<string, unknown>,
): Promise<Notification> {
  const shown = presentNotification(await repo.insert(db, { userId, type, payload }));
  realtime.emitToUser(userId, NOTIFICATION_EVENT, shown);
  return shown;
}

/**
 * A job ended: its owner gets JOB_FINISHED or JOB_FAILED unless one of their pages shows that model's results
 * (they see it there) or it was a sandbox try (the sandbox page polls). Issue 24 item 7: one notification per batch
 * (the jobs of one request), updated as its jobs end: the latest job and its image name (the panel names the image and
 * opens the job), how many of the batch finished and failed; JOB_FAILED once any of them failed.
 */
export async function notifyJobEnded(
  db: Db,
  realtime: Pick<Realtime, 'emitToUser' | 'isViewing'>,
  job: { id: string; ownerId: string; modelId: string; status: string; source: string },
): Promise<Notification | null> {
  if ((job.status !== 'FINISHED' && job.status !== 'FAILED') || job.source === 'SANDBOX') return null;
  if (await realtime.isViewing(job.ownerId, job.modelId)) return null;
  const batch = await repo.jobBatch(db, job.id);
  if (!batch)
    return notify(db, realtime, job.ownerId, job.status === 'FINISHED' ? JOB_FINISHED_NOTIFICATION : JOB_FAILED_NOTIFICATION, {
      jobId: job.id,
      modelId: job.modelId,
    });
  const type = batch.failed > 0 ? JOB_FAILED_NOTIFICATION : JOB_FINISHED_NOTIFICATION;
  const payload = {
    jobId: job.id,
    modelId: job.modelId,
    jobStatus: job.status,
    imageName: batch.imageName,
    batch: batch.batch,
    total: batch.total,
    finished: batch.finished,
    failed: batch.failed,
  };
  const shown = presentNotification(await repo.upsertBatchNotification(db, { userId: job.ownerId, type, batch: batch.batch, payload }));
  realtime.emitToUser(job.ownerId, NOTIFICATION_EVENT, shown);
  return shown;
}

export async function markAllSeen(db: Db, userId: string): Promise<NotificationsUpdated> {
  return { updated: await repo.markSeen(db, userId) };
}

export async function markSeen(db: Db, userId: string, id: string): Promise<NotificationsUpdated> {
  if (!(await repo.markSeen(db, userId, id))) throw notFound('notification');
  return { updated: 1 };
}

export async function removeAll(db: Db, userId: string): Promise<NotificationsDeleted> {
  return { deleted: await repo.remove(db, userId) };
}

export async function remove(db: Db, userId: string, id: string): Promise<NotificationsDeleted> {
  if (!(await repo.remove(db, userId, id))) throw notFound('notification');
  return { deleted: 1 };
}
