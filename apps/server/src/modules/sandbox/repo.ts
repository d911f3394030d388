import { and, desc, eq, gt, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { jobs } from '../../platform/db/schema/index.ts';

export type SandboxJobRow = typeof jobs.$inferSelect;

/**
 * The owner's sandbox jobs (sources SANDBOX and IDENTIFICATION) created since `since`, newest first. The
 * sandbox has no table of its own: its jobs are rows of the jobs table that the user's job list leaves out.
 */
export async function listRecentSandboxJobs(db: Db, ownerId: string, since: Date, limit: number): Promise<SandboxJobRow[]> {
  return db
    .select()
    .from(jobs)
    .where(and(eq(jobs.ownerId, ownerId), inArray(jobs.source, ['SANDBOX', 'IDENTIFICATION']), eq(jobs.deleted, false), gt(jobs.createdAt, since)))
    .orderBy(desc(jobs.createdAt))
    .limit(limit);
}
