import { and, count, desc, eq, like, sql, type SQL } from 'drizzle-orm';
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
 * What the target is called, read for display only (like the actor's name): the target row's current name where
 * its table has one (a deleted user: the e-mail their deletion recorded), else what the entry recorded (an e-mail,
 * a name), else null. A public image's id is its file name. Each is one lookup by primary key or audit_log_target_idx.
 */
const targetName = sql<string | null>`case ${auditLog.targetType}
  when 'user' then coalesce(
    (select coalesce(nullif(trim(coalesce(u.name, '') || ' ' || coalesce(u.surname, '')), ''), u.email) from users u where u.id::text = ${auditLog.targetId}),
    (select d.details->>'email' from audit_log d where d.target_type = 'user' and d.target_id = ${auditLog.targetId} and d.action = 'user.delete' limit 1))
  when 'model' then (select coalesce(m.display_name, m.internal_name) from compute_models m where m.id::text = ${auditLog.targetId})
  when 'node' then (select n.name from nodes n where n.id::text = ${auditLog.targetId})
  when 'launcher' then (select n.name || ':' || e.port from executors e join nodes n on n.id = e.node_id where e.id::text = ${auditLog.targetId})
  when 'group' then (select g.name from groups g where g.id::text = ${auditLog.targetId})
  when 'customization_group' then (select c.name_en from customization_groups c where c.id::text = ${auditLog.targetId})
  when 'settings_template' then (select t.name from project_settings_templates t where t.id::text = ${auditLog.targetId})
  when 'insight' then (select i.title_en from insights i where i.id::text = ${auditLog.targetId})
  when 'news' then (select n.title_en from model_news n where n.id::text = ${auditLog.targetId})
  when 'voucher' then (select v.key from vouchers v where v.id::text = ${auditLog.targetId})
  when 'job' then (select i.orginal_filename from jobs j join images i on i.id = j.image_id where j.id::text = ${auditLog.targetId})
  when 'public_image' then ${auditLog.targetId}
  end`;
const recordedName = sql<
  string | null
>`coalesce(${auditLog.details}->>'email', ${auditLog.details}->>'name', ${auditLog.details}->>'nameEn', ${auditLog.details}->>'titleEn', ${auditLog.details}->>'title')`;

/**
 * One page of the log, newest first, with the actor's name and the target's. (The actor's name and e-mail are read from the
 * users table for display only: the log stores just the actor id, which stays valid as the account changes.)
 */
export async function listPage(db: Db, filter: AuditFilter, page: { offset: number; limit: number }) {
  const [rows, [total]] = await Promise.all([
    db
      .select({
        row: auditLog,
        actorName: users.name,
        actorSurname: users.surname,
        actorEmail: users.email,
        targetName: sql<string | null>`coalesce(${targetName}, ${recordedName})`,
      })
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
