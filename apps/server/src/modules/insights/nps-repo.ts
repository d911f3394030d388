import { and, count, desc, eq, gte, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { jobs, npsDismissals, npsResponses } from '../../platform/db/schema/index.ts';

/** SQL of the NPS prompt: the user's successful jobs (jobs_owner_created_idx), last answer and last dismissal. */

/** Successful jobs of the user (FINISHED or answered from the cache), counted up to `atLeast`. */
export async function successfulJobs(db: Db, userId: string, atLeast: number): Promise<number> {
  const some = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.ownerId, userId), inArray(jobs.status, ['FINISHED', 'CACHED'])))
    .limit(atLeast)
    .as('some');
  const [row] = await db.select({ n: count() }).from(some);
  return Number(row?.n ?? 0);
}

export async function lastAnswer(db: Db, userId: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: npsResponses.createdAt })
    .from(npsResponses)
    .where(eq(npsResponses.userId, userId))
    .orderBy(desc(npsResponses.createdAt))
    .limit(1);
  return row?.at ?? null;
}

export async function lastDismissal(db: Db, userId: string): Promise<Date | null> {
  const [row] = await db.select({ at: npsDismissals.dismissedAt }).from(npsDismissals).where(eq(npsDismissals.userId, userId));
  return row?.at ?? null;
}

/** Answers of the user since `since` (locked with the user's answer: one per period). */
export async function answersSince(db: Db, userId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(npsResponses)
    .where(and(eq(npsResponses.userId, userId), gte(npsResponses.createdAt, since)));
  return Number(row?.n ?? 0);
}

export async function insertAnswer(db: Db, userId: string, score: number, comment: string | null) {
  const [row] = await db.insert(npsResponses).values({ userId, score, comment }).returning();
  return row;
}

export async function dismiss(db: Db, userId: string, at: Date): Promise<void> {
  await db
    .insert(npsDismissals)
    .values({ userId, dismissedAt: at })
    .onConflictDoUpdate({ target: npsDismissals.userId, set: { dismissedAt: at } });
}
