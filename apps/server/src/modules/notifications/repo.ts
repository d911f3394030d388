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

/** Raw SQL rows (PGlite and node-postgres both answer `{rows}`). */
async function rowsOf<T>(db: Pick<Db, 'execute'>, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** The batch of a job: the jobs its owner created in the same request (one insert: the same created_at). */
export interface JobBatch {
  batch: string;
  imageName: string;
  total: number;
  finished: number;
  failed: number;
}

/** The job's image name and its batch's counts (sandbox and deleted jobs left out). */
export async function jobBatch(db: Db, jobId: string): Promise<JobBatch | null> {
  const [row] = await rowsOf<{ batch: string; image_name: string; total: string; finished: string; failed: string }>(
    db,
    sql`select ${isoText(sql`j.created_at`)} as batch, i.orginal_filename as image_name,
        count(b.id) as total,
        count(b.id) filter (where b.status in ('FINISHED', 'CACHED')) as finished,
        count(b.id) filter (where b.status = 'FAILED') as failed
      from jobs j join images i on i.id = j.image_id
      join jobs b on b.owner_id = j.owner_id and b.created_at = j.created_at and b.source <> 'SANDBOX' and not b.deleted
      where j.id = ${jobId}::uuid
      group by j.created_at, i.orginal_filename`,
  );
  return row
    ? { batch: row.batch, imageName: row.image_name, total: Number(row.total), finished: Number(row.finished), failed: Number(row.failed) }
    : null;
}

/**
 * One notification per batch (issue 24 item 7): the user's notification of the batch is updated (type, payload,
 * unseen again, moved to the top), or inserted when there is none. An advisory lock on user and batch keeps two
 * jobs of a batch that end together from inserting two.
 */
export async function upsertBatchNotification(
  db: Db,
  values: { userId: string; type: string; batch: string; payload: Record<string, unknown> },
): Promise<NotificationRow> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${values.userId + '|' + values.batch}))`);
    const [existing] = await tx
      .select({ id: notifications.id })
      .from(notifications)
      .where(and(eq(notifications.userId, values.userId), sql`${notifications.payload}->>'batch' = ${values.batch}`))
      .limit(1);
    if (existing) {
      const [row] = await tx
        .update(notifications)
        .set({ type: values.type, payload: values.payload, seenAt: null, createdAt: new Date() })
        .where(eq(notifications.id, existing.id))
        .returning();
      return row;
    }
    const [row] = await tx.insert(notifications).values({ userId: values.userId, type: values.type, payload: values.payload }).returning();
    return row;
  });
}
