import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { notifications } from '../../platform/db/schema/index.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';

type Row = typeof notifications.$inferSelect;

/** user-app.md §3 Notification: {id, type, payload, isSeen, createdAt}. */
export const presentNotification = (n: Row) => ({
  id: n.id,
  type: n.type,
  payload: n.payload,
  isSeen: n.seenAt !== null,
  createdAt: n.createdAt.toISOString(),
});

export async function listNotifications(db: Db, userId: string) {
  const rows = await db.select().from(notifications).where(eq(notifications.userId, userId)).orderBy(desc(notifications.createdAt)).limit(200);
  return rows.map(presentNotification);
}

/** Stores a notification and pushes it to the user's open pages (socket.io event `notification`). */
export async function notify(db: Db, realtime: Realtime, userId: string, type: string, payload: Record<string, unknown>) {
  const [row] = await db.insert(notifications).values({ userId, type, payload }).returning();
  realtime.emitToUser(userId, 'notification', presentNotification(row));
  return row;
}

export const ownNotification = (userId: string, id: string) => and(eq(notifications.userId, userId), eq(notifications.id, id));
