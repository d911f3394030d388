import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Notification } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { isoText, preparedStatement } from '../../platform/db/prepared.ts';
import { notifications } from '../../platform/db/schema/index.ts';

/** All SQL of the notifications module. */
export type NotificationRow = typeof notifications.$inferSelect;

const own = (userId: string, id: string) => and(eq(notifications.userId, userId), eq(notifications.id, id));

export function listForUser(db: Db, userId: string, limit: number): Promise<NotificationRow[]> {
  return db.select().from(notifications).where(eq(notifications.userId, userId)).orderBy(desc(notifications.createdAt)).limit(limit);
}

/**
 * The panel's list in one prepared statement: the newest `limit` notifications of the user in the wire shape
 * (on notifications_user_idx), and whether invitations to projects wait for the user's address (a read of the
 * projects domain's table; routes.ts then lets the projects module turn them into shares before answering).
 */
const panel = preparedStatement<{ list: Notification[]; invited: boolean }>(
  'lamella_notifications_panel',
  () => sql`select
      coalesce((select json_agg(json_build_object('id', n.id, 'type', n.type, 'payload', n.payload, 'isSeen', n.seen_at is not null,
          'createdAt', ${isoText(sql`n.created_at`)}) order by n.created_at desc, n.id desc)
        from (select * from notifications where user_id = ${sql.placeholder('userId')}::uuid order by created_at desc limit ${sql.placeholder('limit')}::int) n),
        '[]'::json) as list,
      exists(select 1 from project_invitations i where i.email = ${sql.placeholder('email')}::text) as invited`,
);

export async function panelForUser(db: Db, userId: string, email: string, limit: number): Promise<{ list: Notification[]; invited: boolean }> {
  const [row] = await panel(db, { userId, email, limit });
  return row;
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
