import { Type, type Static } from 'typebox';
import { endpoint } from './endpoint.ts';

/**
 * Back-office dashboard (back-office.md §2 "Dashboard", §3 "Dashboard data", §7 "Dashboard"). Every figure is
 * computed from the database at request time; periods are rolling windows ending now.
 */

const N = Type.Integer({ minimum: 0 });
/** A mean in milliseconds, or null when no job qualifies. */
const Ms = Type.Union([Type.Number(), Type.Null()]);
/** A Net Promoter Score (-100..100), or null when nobody answered in the period. */
const Nps = Type.Union([Type.Number(), Type.Null()]);

/** Jobs waiting in the queue (NEW) and running on a launcher (PENDING). */
export const DashboardCurrentJobs = Type.Object({ waiting: N, active: N }, { $id: 'DashboardCurrentJobs' });
export type DashboardCurrentJobs = Static<typeof DashboardCurrentJobs>;

/** Users who signed in within the last hour / 7 / 30 / 365 days. */
export const DashboardActiveUsers = Type.Object({ lastHour: N, last7days: N, last30days: N, last365days: N }, { $id: 'DashboardActiveUsers' });
export type DashboardActiveUsers = Static<typeof DashboardActiveUsers>;

/** Mean calculation time (started → finished) and waiting time (created → started) of the jobs FINISHED by a launcher in the last 30 days (failed and cached jobs left out). */
export const DashboardAverageTimes = Type.Object({ calculationTime: Ms, waitingTime: Ms }, { $id: 'DashboardAverageTimes' });
export type DashboardAverageTimes = Static<typeof DashboardAverageTimes>;

/** Job counts (by creation date): all time, last 7 days, last 30 days. */
export const DashboardJobCounts = Type.Object({ total: N, last7Days: N, last30Days: N }, { $id: 'DashboardJobCounts' });
export type DashboardJobCounts = Static<typeof DashboardJobCounts>;

const Counts = Type.Object({ total: N, last7Days: N, last30Days: N });
/**
 * Failed jobs (by creation date), and the same split by cause: the model refused the input (e.g. BLANK_IMAGE)
 * or the infrastructure failed it (LAUNCHER_UNAVAILABLE: no attempt left).
 */
export const DashboardFails = Type.Object(
  { total: N, last7Days: N, last30Days: N, byCause: Type.Object({ modelRefusal: Counts, infrastructure: Counts }) },
  { $id: 'DashboardFails' },
);
export type DashboardFails = Static<typeof DashboardFails>;

/** NPS from the users' ratings (0–10): % promoters (9–10) minus % detractors (0–6). */
export const DashboardNps = Type.Object({ total: Nps, last7Days: Nps, last30Days: Nps }, { $id: 'DashboardNps' });
export type DashboardNps = Static<typeof DashboardNps>;

/** Active, unexpired licenses per creatable limited type. */
export const DashboardLicenses = Type.Object({ imagesLimited: N, timeLimited: N }, { $id: 'DashboardLicenses' });
export type DashboardLicenses = Static<typeof DashboardLicenses>;

/**
 * Customers (role USER): all, joined in the last 7 / 30 days, and joined in the 7 / 30 days before those
 * (the change badge compares the two windows).
 */
export const DashboardCustomers = Type.Object(
  { total: N, last7Days: N, last30Days: N, previous7Days: N, previous30Days: N },
  { $id: 'DashboardCustomers' },
);
export type DashboardCustomers = Static<typeof DashboardCustomers>;

const tags = ['admin-dashboard'] as const;
export const adminDashboardApi = {
  currentJobs: endpoint({
    method: 'GET',
    path: '/admin/dashboard/jobs/current',
    operationId: 'getDashboardCurrentJobs',
    tags,
    response: { 200: DashboardCurrentJobs },
  }),
  averageTimes: endpoint({
    method: 'GET',
    path: '/admin/dashboard/jobs/average-times',
    operationId: 'getDashboardAverageTimes',
    tags,
    response: { 200: DashboardAverageTimes },
  }),
  fails: endpoint({
    method: 'GET',
    path: '/admin/dashboard/jobs/fails',
    operationId: 'getDashboardFails',
    tags,
    response: { 200: DashboardFails },
  }),
  success: endpoint({
    method: 'GET',
    path: '/admin/dashboard/jobs/success',
    operationId: 'getDashboardSuccess',
    tags,
    response: { 200: DashboardJobCounts },
  }),
  activeUsers: endpoint({
    method: 'GET',
    path: '/admin/dashboard/users/active',
    operationId: 'getDashboardActiveUsers',
    tags,
    response: { 200: DashboardActiveUsers },
  }),
  averageNps: endpoint({
    method: 'GET',
    path: '/admin/dashboard/users/average-nps',
    operationId: 'getDashboardNps',
    tags,
    response: { 200: DashboardNps },
  }),
  licenses: endpoint({
    method: 'GET',
    path: '/admin/dashboard/users/licenses',
    operationId: 'getDashboardLicenses',
    tags,
    response: { 200: DashboardLicenses },
  }),
  customers: endpoint({
    method: 'GET',
    path: '/admin/dashboard/users/customers',
    operationId: 'getDashboardCustomers',
    tags,
    response: { 200: DashboardCustomers },
  }),
};
