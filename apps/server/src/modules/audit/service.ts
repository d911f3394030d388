import { AUDIT_PAGE_SIZE, type AuditLogEntry, type AuditLogPage, type AuditLogQuery } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import * as repo from './repo.ts';

export interface AuditEntry {
  /** The staff member who acted (the impersonating admin when impersonating); null: the system (a scheduled purge whose admin is gone). */
  actorId: string | null;
  /** Stable action code, e.g. `user.role.set`, `license.assign`, `job.feedback.add`, `launcher.create`. */
  action: string;
  targetType: string;
  targetId: string | null;
  /** What changed (new values); never secrets. */
  details?: Record<string, unknown>;
}

/**
 * Records one privileged write. Call it inside the same transaction as the write when there is one
 * (pass the transaction as `db`), so a failed write leaves no audit row and a recorded write always has one.
 */
export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  await repo.insert(db, { ...entry, details: entry.details ?? {} });
}

/** One page of the audit log, newest first, filtered by actor, target and action. */
export async function listAudit(db: Db, query: AuditLogQuery): Promise<AuditLogPage> {
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? AUDIT_PAGE_SIZE;
  const { rows, total } = await repo.listPage(
    db,
    { actorId: query.actorId, targetType: query.targetType, targetId: query.targetId, action: query.action?.trim() || undefined },
    { offset: (page - 1) * pageSize, limit: pageSize },
  );
  const items = rows.map((r): AuditLogEntry => ({
    id: r.row.id,
    createdAt: r.row.createdAt.toISOString(),
    actor:
      r.row.actorId && r.actorEmail !== null
        ? { id: r.row.actorId, fullName: `${r.actorName ?? ''} ${r.actorSurname ?? ''}`.trim(), email: r.actorEmail }
        : null,
    action: r.row.action,
    targetType: r.row.targetType,
    targetId: r.row.targetId,
    targetName: r.targetName ?? null,
    details: r.row.details,
  }));
  return { items, total, page, pageSize };
}
