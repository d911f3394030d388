import { and, count, eq, gt, gte, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { jobs, licenses, npsResponses, users } from '../../platform/db/schema/index.ts';

/**
 * All SQL of the back-office dashboard. It is a read-only report over other domains' tables (jobs, users,
 * licenses, NPS answers): it never writes, and each query is one aggregate answered from an index
 * (bench/admin/run.ts times them on 1,000,000 jobs).
 */

const ago = (ms: number) => new Date(Date.now() - ms);
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** NEW and PENDING counts (jobs_status_idx). */
export async function currentJobs(db: Db): Promise<{ waiting: number; active: number }> {
  const rows = await db
    .select({ status: jobs.status, n: count() })
    .from(jobs)
    .where(inArray(jobs.status, ['NEW', 'PENDING']))
    .groupBy(jobs.status);
  const of = (s: string) => Number(rows.find((r) => r.status === s)?.n ?? 0);
  return { waiting: of('NEW'), active: of('PENDING') };
}

/** Counts of jobs in these statuses: all time, created in the last 7 and 30 days (jobs_status_idx, index only). */
export async function jobCounts(db: Db, statuses: Array<'FAILED' | 'FINISHED' | 'CACHED'>) {
  const d7 = ago(7 * DAY);
  const d30 = ago(30 * DAY);
  const [row] = await db
    .select({
      total: count(),
      last7Days: sql<number>`count(*) filter (where ${jobs.createdAt} >= ${d7})`.mapWith(Number),
      last30Days: sql<number>`count(*) filter (where ${jobs.createdAt} >= ${d30})`.mapWith(Number),
    })
    .from(jobs)
    .where(inArray(jobs.status, statuses));
  return { total: Number(row.total), last7Days: row.last7Days, last30Days: row.last30Days };
}

/** Mean duration and wait of the jobs finished in the last 30 days (jobs_finished_times_idx, index only). */
export async function averageTimes(db: Db): Promise<{ calculationTime: number | null; waitingTime: number | null }> {
  const [row] = await db
    .select({
      calc: sql<string | null>`avg(${jobs.durationMs})`,
      wait: sql<string | null>`avg(${jobs.waitMs})`,
    })
    .from(jobs)
    .where(gte(jobs.finishedAt, ago(30 * DAY)));
  const num = (v: string | null) => (v === null ? null : Math.round(Number(v)));
  return { calculationTime: num(row.calc), waitingTime: num(row.wait) };
}

/** Users whose last sign-in is within each window. */
export async function activeUsers(db: Db) {
  const f = (since: Date) => sql<number>`count(*) filter (where ${users.lastLoginAt} >= ${since})`.mapWith(Number);
  const [row] = await db
    .select({ lastHour: f(ago(HOUR)), last7days: f(ago(7 * DAY)), last30days: f(ago(30 * DAY)), last365days: f(ago(365 * DAY)) })
    .from(users)
    .where(gte(users.lastLoginAt, ago(365 * DAY)));
  return row;
}

/** Promoters (9–10), detractors (0–6) and all answers, per window (nps_created_idx). */
export async function npsCounts(db: Db, since?: Date): Promise<{ all: number; promoters: number; detractors: number }> {
  const [row] = await db
    .select({
      all: count(),
      promoters: sql<number>`count(*) filter (where ${npsResponses.score} >= 9)`.mapWith(Number),
      detractors: sql<number>`count(*) filter (where ${npsResponses.score} <= 6)`.mapWith(Number),
    })
    .from(npsResponses)
    .where(since ? gte(npsResponses.createdAt, since) : undefined);
  return { all: Number(row.all), promoters: row.promoters, detractors: row.detractors };
}

/** Active licenses of users that have not ended, per type. */
export async function activeLicenses(db: Db): Promise<{ imagesLimited: number; timeLimited: number }> {
  const now = new Date();
  const rows = await db
    .select({ type: licenses.type, n: count() })
    .from(licenses)
    .where(
      and(
        eq(licenses.active, true),
        inArray(licenses.type, ['IMAGES_LIMITED', 'TIME_LIMITED']),
        or(isNull(licenses.finishAt), gt(licenses.finishAt, now)),
      ),
    )
    .groupBy(licenses.type);
  const of = (t: string) => Number(rows.find((r) => r.type === t)?.n ?? 0);
  return { imagesLimited: of('IMAGES_LIMITED'), timeLimited: of('TIME_LIMITED') };
}

/** Customers (role USER): all, and joined in [now-7d, now), [now-30d, now), [now-14d, now-7d), [now-60d, now-30d). */
export async function customers(db: Db) {
  const between = (from: Date, to: Date) =>
    sql<number>`count(*) filter (where ${users.createdAt} >= ${from} and ${users.createdAt} < ${to})`.mapWith(Number);
  const now = new Date();
  const [row] = await db
    .select({
      total: count(),
      last7Days: between(ago(7 * DAY), now),
      last30Days: between(ago(30 * DAY), now),
      previous7Days: between(ago(14 * DAY), ago(7 * DAY)),
      previous30Days: between(ago(60 * DAY), ago(30 * DAY)),
    })
    .from(users)
    .where(eq(users.role, 'USER'));
  return { ...row, total: Number(row.total) };
}
