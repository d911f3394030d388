import { NOTIFICATION_EVENT, type Notification, type NotificationsDeleted, type NotificationsUpdated } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { notFound } from '../../platform/http/errors.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
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
