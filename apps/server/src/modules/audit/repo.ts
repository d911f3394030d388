import type { Db } from '../../platform/db/client.ts';
import { auditLog } from '../../platform/db/schema/index.ts';

export type AuditRow = typeof auditLog.$inferSelect;
export type NewAuditRow = typeof auditLog.$inferInsert;

export async function insert(db: Db, row: NewAuditRow): Promise<void> {
  await db.insert(auditLog).values(row);
}
