import type {
  DashboardActiveUsers,
  DashboardAverageTimes,
  DashboardCurrentJobs,
  DashboardCustomers,
  DashboardFails,
  DashboardJobCounts,
  DashboardLicenses,
  DashboardNps,
} from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import * as repo from './repo.ts';

/** Figures of the back-office dashboard (back-office.md §2 "Dashboard", §3 "Dashboard data"). */

export const currentJobs = (db: Db): Promise<DashboardCurrentJobs> => repo.currentJobs(db);
export const averageTimes = (db: Db): Promise<DashboardAverageTimes> => repo.averageTimes(db);
/** Failed jobs, and the same split by cause (model refusal / infrastructure). */
export async function fails(db: Db): Promise<DashboardFails> {
  const [counts, byCause] = await Promise.all([repo.jobCounts(db, ['FAILED']), repo.failsByCause(db)]);
  return { ...counts, byCause };
}
/** Successful: finished by a launcher or answered from the cache. */
export const success = (db: Db): Promise<DashboardJobCounts> => repo.jobCounts(db, ['FINISHED', 'CACHED']);

/** How often each server folds the appended job count changes into job_status_counts. */
export const COMPACT_INTERVAL_MS = 60_000;

/**
 * Folds job_status_count_changes into job_status_counts every `intervalMs` (each replica does; concurrent folds
 * are safe), so that the changes the dashboard sums stay a few minutes' worth. The figures are exact whether or
 * not a fold has run.
 */
export function startJobCountsCompaction(db: Db, log: (msg: string) => void, intervalMs = COMPACT_INTERVAL_MS): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = repo
      .compactJobStatusCounts(db)
      .catch((err: unknown) => log(`job status counts fold failed: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => (running = null));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

export const activeUsers = (db: Db): Promise<DashboardActiveUsers> => repo.activeUsers(db);
export const licenses = (db: Db): Promise<DashboardLicenses> => repo.activeLicenses(db);
export const customers = (db: Db): Promise<DashboardCustomers> => repo.customers(db);

/** NPS = % promoters − % detractors, rounded to one decimal; null without answers. */
export function npsOf(c: { all: number; promoters: number; detractors: number }): number | null {
  if (c.all === 0) return null;
  return Math.round(((c.promoters - c.detractors) * 1000) / c.all) / 10;
}

export async function averageNps(db: Db): Promise<DashboardNps> {
  const [total, last7Days, last30Days] = await Promise.all([
    repo.npsCounts(db),
    repo.npsCounts(db, new Date(Date.now() - 7 * repo.DAY)),
    repo.npsCounts(db, new Date(Date.now() - 30 * repo.DAY)),
  ]);
  return { total: npsOf(total), last7Days: npsOf(last7Days), last30Days: npsOf(last30Days) };
}
