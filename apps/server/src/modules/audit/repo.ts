import { and, count, desc, eq, like, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { auditLog, users } from '../../platform/db/schema/index.ts';

export type AuditRow = typeof auditLog.$inferSelect;
export type NewAuditRow = typeof auditLog.$inferInsert;

export async function insert(db: Db, row: NewAuditRow): Promise<void> {
  await db.insert(auditLog).values(row);
}

export interface AuditFilter {
  actorId?: string;
  targetType?: string;
  targetId?: string;
  /** Exact action, or a prefix when it ends with a dot. */
  action?: string;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function where(f: AuditFilter): SQL | undefined {
  const parts: SQL[] = [];
  if (f.actorId) parts.push(eq(auditLog.actorId, f.actorId));
  if (f.targetType) parts.push(eq(auditLog.targetType, f.targetType));
  if (f.targetId) parts.push(eq(auditLog.targetId, f.targetId));
  if (f.action) parts.push(f.action.endsWith('.') ? like(auditLog.action, `${escapeLike(f.action)}%`) : eq(auditLog.action, f.action));
  return parts.length ? and(...parts) : undefined;
}

/**
 * One page of the log, newest first, with the actor's name. (The actor's name and e-mail are read from the
 * users table for display only: the log stores just the actor id, which stays valid as the account changes.)
 */
export async function listPage(db: Db, filter: AuditFilter, page: { offset: number; limit: number }) {
  const [rows, [total]] = await Promise.all([
    db
      .select({ row: auditLog, actorName: users.name, actorSurname: users.surname, actorEmail: users.email })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorId))
      .where(where(filter))
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .offset(page.offset)
      .limit(page.limit),
    db.select({ n: count() }).from(auditLog).where(where(filter)),
  ]);
  return { rows, total: Number(total.n) };
}
