import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { executors, jobAttempts, nodes } from '../../platform/db/schema/index.ts';

/**
 * Every run of a job on a launcher (issue 26 item 2: the admin job detail lists each attempt, its launcher, start,
 * end and why it was abandoned). The dispatcher opens one when it claims a job and closes it when the run ends;
 * writing an attempt never fails the job (errors are logged by the caller).
 */
export type AttemptOutcome = 'FINISHED' | 'FAILED' | 'ABANDONED';

export async function startAttempt(db: Db, jobId: string, attempt: number, executorId: string): Promise<void> {
  const [where] = await db
    .select({ port: executors.port, node: nodes.name })
    .from(executors)
    .leftJoin(nodes, eq(nodes.id, executors.nodeId))
    .where(eq(executors.id, executorId));
  const launcher = where ? `${where.node ?? '?'} :${where.port}` : executorId;
  await db.insert(jobAttempts).values({ jobId, attempt, executorId, launcher });
}

/** Closes the job's running attempt(s): its outcome, and why (the error or the cause of the abandonment). */
export async function endAttempt(db: Db, jobIds: string | string[], outcome: AttemptOutcome, reason: string | null): Promise<void> {
  const ids = Array.isArray(jobIds) ? jobIds : [jobIds];
  if (!ids.length) return;
  await db
    .update(jobAttempts)
    .set({ outcome, reason, endedAt: sql`now()` })
    .where(and(inArray(jobAttempts.jobId, ids), eq(jobAttempts.outcome, 'RUNNING')));
}
