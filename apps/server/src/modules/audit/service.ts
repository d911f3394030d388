import type { Db } from '../../platform/db/client.ts';
import * as repo from './repo.ts';

export interface AuditEntry {
  /** The staff member who acted (the impersonating admin when impersonating). */
  actorId: string;
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
