import { and, count, eq, gt, gte, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { jobStatusCountChanges, jobStatusCounts, jobs, licenses, npsResponses, users } from '../../platform/db/schema/index.ts';

/**
 * All SQL of the back-office dashboard. It reports over other domains' tables (jobs, users, licenses, NPS
 * answers) and never writes them: each query is one aggregate answered from an index or from job_status_counts
 * (bench/admin/run.ts times them on 1,000,000 jobs). Its only write folds job_status_count_changes into
 * job_status_counts (compactJobStatusCounts).
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

type CountedStatus = 'FAILED' | 'FINISHED' | 'CACHED';

/** The UTC day of `t` (job_status_counts.day) and the instant that day ends. */
function utcDay(t: Date): { day: string; end: Date } {
  const start = Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate());
  return { day: new Date(start).toISOString().slice(0, 10), end: new Date(start + DAY) };
}

/**
 * Counts of jobs in these statuses: all time, created in the last 7 and 30 days. Exact, in one statement (one
 * snapshot): totals and whole days from job_status_counts plus the changes not yet folded in (a few thousand
 * rows, not a count over ~1,000,000 jobs); the part of each window's first day from jobs_status_idx (index only,
 * at most one day of jobs).
 */
export async function jobCounts(db: Db, statuses: CountedStatus[]) {
  const now = Date.now();
  const d7 = new Date(now - 7 * DAY);
  const d30 = new Date(now - 30 * DAY);
  const w7 = utcDay(d7);
  const w30 = utcDay(d30);
  const list = sql.join(
    statuses.map((s) => sql`${s}::job_status`),
    sql`, `,
  );
  const firstDay = (since: Date, end: Date) =>
    sql`(select count(*) from ${jobs} where ${jobs.status} in (${list}) and ${jobs.createdAt} >= ${since} and ${jobs.createdAt} < ${end})`;
  const result = (await db.execute(sql`
    with c as (
      select day, n from ${jobStatusCounts} where status in (${list})
      union all
      select day, n from ${jobStatusCountChanges} where status in (${list})
    )
    select
      coalesce(sum(n), 0)::bigint as "total",
      coalesce(sum(n) filter (where day > ${w7.day}::date), 0)::bigint + ${firstDay(d7, w7.end)} as "last7Days",
      coalesce(sum(n) filter (where day > ${w30.day}::date), 0)::bigint + ${firstDay(d30, w30.end)} as "last30Days"
    from c`)) as unknown as { rows: Array<Record<'total' | 'last7Days' | 'last30Days', string | number>> };
  const [row] = result.rows;
  return { total: Number(row.total), last7Days: Number(row.last7Days), last30Days: Number(row.last30Days) };
}

/**
 * Folds the appended job_status_count_changes into job_status_counts, in one statement: a change is either
 * still in the changes or already in the counts for every reader, so the figures stay exact. Two concurrent
 * folds never take the same change (the second skips the rows the first deleted) and upsert in (status, day)
 * order, so they cannot deadlock; job writers never touch job_status_counts. Returns the changes folded.
 */
export async function compactJobStatusCounts(db: Db): Promise<number> {
  const result = (await db.execute(sql`
    with moved as (delete from ${jobStatusCountChanges} returning status, day, n),
    summed as (select status, day, sum(n)::bigint as n, count(*)::int as changes from moved group by status, day),
    merged as (
      insert into ${jobStatusCounts} (status, day, n)
      select status, day, n from summed where n <> 0 order by status, day
      on conflict (status, day) do update set n = ${jobStatusCounts.n} + excluded.n
    )
    select coalesce(sum(changes), 0)::int as "changes" from summed`)) as unknown as { rows: Array<{ changes: number | string }> };
  return Number(result.rows[0]?.changes ?? 0);
}

/**
 * Mean duration and wait of the jobs FINISHED by a launcher in the last 30 days (jobs_finished_times_idx). Failed
 * jobs (a BLANK_IMAGE refusal ends in milliseconds) and cached answers (no run at all) would pull the mean towards
 * zero, so they are left out.
 */
export async function averageTimes(db: Db): Promise<{ calculationTime: number | null; waitingTime: number | null }> {
  const [row] = await db
    .select({
      calc: sql<string | null>`avg(${jobs.durationMs})`,
      wait: sql<string | null>`avg(${jobs.waitMs})`,
    })
    .from(jobs)
    .where(and(gte(jobs.finishedAt, ago(30 * DAY)), eq(jobs.status, 'FINISHED')));
  const num = (v: string | null) => (v === null ? null : Math.round(Number(v)));
  return { calculationTime: num(row.calc), waitingTime: num(row.wait) };
}

/** A failure the infrastructure caused (no attempt left on any launcher); any other error is the model's refusal. */
export const INFRASTRUCTURE_FAILURE = sql`(${jobs.error} is null or ${jobs.error} like 'LAUNCHER_UNAVAILABLE%')`;

/** Failed jobs by cause (model refusal / infrastructure): all time, created in the last 7 and 30 days (jobs_status_idx). */
export async function failsByCause(db: Db) {
  const d7 = ago(7 * DAY);
  const d30 = ago(30 * DAY);
  const f = (cond: ReturnType<typeof sql>) => sql<number>`count(*) filter (where ${cond})`.mapWith(Number);
  const infra = INFRASTRUCTURE_FAILURE;
  const model = sql`not ${INFRASTRUCTURE_FAILURE}`;
  const [row] = await db
    .select({
      infraTotal: f(infra),
      infra7: f(sql`${infra} and ${jobs.createdAt} >= ${d7}`),
      infra30: f(sql`${infra} and ${jobs.createdAt} >= ${d30}`),
      modelTotal: f(model),
      model7: f(sql`${model} and ${jobs.createdAt} >= ${d7}`),
      model30: f(sql`${model} and ${jobs.createdAt} >= ${d30}`),
    })
    .from(jobs)
    .where(eq(jobs.status, 'FAILED'));
  return {
    modelRefusal: { total: row.modelTotal, last7Days: row.model7, last30Days: row.model30 },
    infrastructure: { total: row.infraTotal, last7Days: row.infra7, last30Days: row.infra30 },
  };
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
