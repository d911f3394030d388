import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { notifications } from '../../platform/db/schema/index.ts';

/** All SQL of the notifications module. */
export type NotificationRow = typeof notifications.$inferSelect;

const own = (userId: string, id: string) => and(eq(notifications.userId, userId), eq(notifications.id, id));

export function listForUser(db: Db, userId: string, limit: number): Promise<NotificationRow[]> {
  return db.select().from(notifications).where(eq(notifications.userId, userId)).orderBy(desc(notifications.createdAt)).limit(limit);
}

export async function insert(db: Db, values: { userId: string; type: string; payload: Record<string, unknown> }): Promise<NotificationRow> {
  const [row] = await db.insert(notifications).values(values).returning();
  return row;
}

/** Marks the user's unseen notifications (or one of them) seen; answers how many changed. */
export async function markSeen(db: Db, userId: string, id?: string): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ seenAt: new Date() })
    .where(id ? own(userId, id) : and(eq(notifications.userId, userId), isNull(notifications.seenAt)))
    .returning({ id: notifications.id });
  return rows.length;
}

export async function remove(db: Db, userId: string, id?: string): Promise<number> {
  const rows = await db
    .delete(notifications)
    .where(id ? own(userId, id) : eq(notifications.userId, userId))
    .returning({ id: notifications.id });
  return rows.length;
}
