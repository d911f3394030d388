import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { jobStatusCountChanges, jobs, licenses, npsResponses, users } from '../src/platform/db/schema/index.ts';
import { compactJobStatusCounts } from '../src/modules/admin-dashboard/repo.ts';
import { factories, type Factories, type TestUser } from './factories.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** The back-office dashboard (back-office.md §2 "Dashboard", §7): figures from data the test creates. */

let t: TestApp;
let f: Factories;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
  admin = await f.admin();
});
afterAll(() => t.close());

const DAY = 86_400_000;
const ago = (ms: number) => new Date(Date.now() - ms);
const get = async (path: string) => {
  const res = await admin.client.get(`/api/admin/dashboard${path}`);
  expect([path, res.status]).toEqual([path, 200]);
  return res.body;
};

const PATHS = [
  '/jobs/current',
  '/jobs/average-times',
  '/jobs/fails',
  '/jobs/success',
  '/users/active',
  '/users/average-nps',
  '/users/licenses',
  '/users/customers',
];

describe('dashboard figures', () => {
  it('counts current, failed (by cause) and successful jobs and averages the times of finished jobs only', async () => {
    const before = { current: await get('/jobs/current'), fails: await get('/jobs/fails'), success: await get('/jobs/success') };
    const owner = await f.user();
    const image = await f.image(owner);
    const created = await Promise.all(Array.from({ length: 9 }, () => f.job(owner, { image })));
    const ids = created.map((j) => j.id);
    const set = (id: string, values: Partial<typeof jobs.$inferInsert>) => t.db.update(jobs).set(values).where(eq(jobs.id, id));
    // ids[0] stays NEW (waiting); ids[1] runs; ids[2] failed 10 days ago (no launcher left); ids[3] failed 40 days
    // ago (model refusal); ids[4] finished now (2 s run, 1 s wait); ids[5] cached 3 days ago (0 s: not averaged);
    // ids[6], ids[7] failed now in milliseconds (BLANK_IMAGE refusals: not averaged); ids[8] failed now, lease expired.
    const now = new Date();
    await set(ids[1], { status: 'PENDING', startedAt: now });
    await set(ids[2], {
      status: 'FAILED',
      createdAt: ago(10 * DAY),
      error: 'LAUNCHER_UNAVAILABLE: the job could not be completed after 3 attempts (x)',
    });
    await set(ids[3], { status: 'FAILED', createdAt: ago(40 * DAY), error: 'NO_GRAINS: no grain boundary found' });
    await set(ids[4], { status: 'FINISHED', startedAt: ago(2000), finishedAt: now, durationMs: 2000, waitMs: 1000 });
    await set(ids[5], { status: 'CACHED', createdAt: ago(3 * DAY), finishedAt: now, durationMs: 0, waitMs: 0 });
    for (const i of [6, 7])
      await set(ids[i], { status: 'FAILED', finishedAt: now, durationMs: 3, waitMs: 1, error: 'BLANK_IMAGE: the image is blank' });
    await set(ids[8], {
      status: 'FAILED',
      finishedAt: now,
      durationMs: 1,
      waitMs: 0,
      error: 'LAUNCHER_UNAVAILABLE: the job was interrupted too often',
    });

    const current = await get('/jobs/current');
    expect(current).toEqual({ waiting: before.current.waiting + 1, active: before.current.active + 1 });
    const fails = await get('/jobs/fails');
    const b = before.fails.byCause;
    expect(fails).toEqual({
      total: before.fails.total + 5,
      last7Days: before.fails.last7Days + 3,
      last30Days: before.fails.last30Days + 4,
      byCause: {
        modelRefusal: { total: b.modelRefusal.total + 3, last7Days: b.modelRefusal.last7Days + 2, last30Days: b.modelRefusal.last30Days + 2 },
        infrastructure: {
          total: b.infrastructure.total + 2,
          last7Days: b.infrastructure.last7Days + 1,
          last30Days: b.infrastructure.last30Days + 2,
        },
      },
    });
    // the causes add up to the failed jobs
    for (const p of ['total', 'last7Days', 'last30Days'] as const)
      expect(fails.byCause.modelRefusal[p] + fails.byCause.infrastructure[p]).toBe(fails[p]);
    const success = await get('/jobs/success');
    expect(success).toEqual({
      total: before.success.total + 2,
      last7Days: before.success.last7Days + 2,
      last30Days: before.success.last30Days + 2,
    });
    // only ids[4] is a job FINISHED by a launcher: failed and cached jobs do not pull the mean towards 0
    expect(await get('/jobs/average-times')).toEqual({ calculationTime: 2000, waitingTime: 1000 });
    await t.db.delete(jobs).where(inArray(jobs.id, ids));
  });

  it('computes the NPS per period from the users ratings', async () => {
    await t.db.delete(npsResponses);
    expect(await get('/users/average-nps')).toEqual({ total: null, last7Days: null, last30Days: null });
    const u = await f.user();
    await t.db.insert(npsResponses).values([
      { userId: u.id, score: 10, createdAt: ago(1 * DAY) }, // promoter, this week
      { userId: u.id, score: 3, createdAt: ago(2 * DAY) }, // detractor, this week
      { userId: u.id, score: 9, createdAt: ago(10 * DAY) }, // promoter, this month
      { userId: u.id, score: 8, createdAt: ago(20 * DAY) }, // passive, this month
      { userId: u.id, score: 0, createdAt: ago(100 * DAY) }, // detractor, older
    ]);
    // total: (2 - 2) / 5 = 0; 7 days: (1 - 1) / 2 = 0; 30 days: (2 - 1) / 4 = 25
    expect(await get('/users/average-nps')).toEqual({ total: 0, last7Days: 0, last30Days: 25 });
    await t.db.insert(npsResponses).values({ userId: u.id, score: 10 });
    // total: 3 promoters, 2 detractors of 6 → 16.7; 7 days: 2 - 1 of 3 → 33.3; 30 days: 3 - 1 of 5 → 40
    expect(await get('/users/average-nps')).toEqual({ total: 16.7, last7Days: 33.3, last30Days: 40 });
  });

  it('counts active users by last sign-in, active limited licenses and customers with the previous window', async () => {
    const active0 = await get('/users/active');
    const lic0 = await get('/users/licenses');
    const cust0 = await get('/users/customers');
    const a = await f.user();
    const b = await f.user();
    const c = await f.user();
    await t.db
      .update(users)
      .set({ lastLoginAt: ago(10 * DAY), createdAt: ago(10 * DAY) })
      .where(eq(users.id, b.id));
    await t.db
      .update(users)
      .set({ lastLoginAt: ago(400 * DAY), createdAt: ago(45 * DAY) })
      .where(eq(users.id, c.id));
    await t.db
      .update(users)
      .set({ lastLoginAt: ago(600_000) })
      .where(eq(users.id, a.id));
    const active = await get('/users/active');
    expect(active).toEqual({
      lastHour: active0.lastHour + 1,
      last7days: active0.last7days + 1,
      last30days: active0.last30days + 2,
      last365days: active0.last365days + 2,
    });
    // licenses: a gets IMAGES_LIMITED, b TIME_LIMITED, c a TIME_LIMITED one that has ended
    await admin.client.post('/api/admin/licenses', { type: 'IMAGES_LIMITED', images: 20, userId: a.id });
    await admin.client.post('/api/admin/licenses', { type: 'TIME_LIMITED', days: 30, userId: b.id });
    await admin.client.post('/api/admin/licenses', { type: 'TIME_LIMITED', days: 30, userId: c.id });
    await t.db
      .update(licenses)
      .set({ finishAt: ago(DAY) })
      .where(eq(licenses.userId, c.id));
    expect(await get('/users/licenses')).toEqual({ imagesLimited: lic0.imagesLimited + 1, timeLimited: lic0.timeLimited + 1 });
    // customers: three new USERs; b joined 10 days ago (previous 7-day window), c 45 days ago (previous 30-day window)
    const cust = await get('/users/customers');
    expect(cust).toEqual({
      total: cust0.total + 3,
      last7Days: cust0.last7Days + 1,
      last30Days: cust0.last30Days + 2,
      previous7Days: cust0.previous7Days + 1,
      previous30Days: cust0.previous30Days + 1,
    });
    // staff are not customers
    await admin.client.patch(`/api/users/${a.id}`, { role: 'EDITOR' });
    expect((await get('/users/customers')).total).toBe(cust0.total + 2);
  });
});

describe('job counts kept by the triggers on jobs (job_status_counts + job_status_count_changes)', () => {
  type Status = (typeof jobs.$inferSelect)['status'];
  const rowsOf = async <T>(q: ReturnType<typeof sql>) => ((await t.db.execute(q)) as unknown as { rows: T[] }).rows;
  /** The dashboard's figures counted directly from jobs, as the query before job_status_counts did. */
  const direct = async (statuses: Status[]) => {
    const now = Date.now();
    const [r] = await rowsOf<Record<string, string | number>>(sql`
      select count(*) as total,
        count(*) filter (where created_at >= ${new Date(now - 7 * DAY)}) as "last7Days",
        count(*) filter (where created_at >= ${new Date(now - 30 * DAY)}) as "last30Days"
      from jobs where status in (${sql.join(
        statuses.map((x) => sql`${x}::job_status`),
        sql`, `,
      )})`);
    return { total: Number(r.total), last7Days: Number(r.last7Days), last30Days: Number(r.last30Days) };
  };
  /** Counts and pending changes per (status, UTC day) against a GROUP BY over jobs: equal, row for row. */
  const perDay = async () => {
    const kept = await rowsOf<{ status: string; day: string; n: string | number }>(sql`
      select status::text, day::text, sum(n) as n from (
        select status, day, n from job_status_counts union all select status, day, n from job_status_count_changes
      ) c group by 1, 2 having sum(n) <> 0 order by 1, 2`);
    const counted = await rowsOf<{ status: string; day: string; n: string | number }>(sql`
      select status::text, (created_at at time zone 'UTC')::date::text as day, count(*) as n from jobs group by 1, 2 order by 1, 2`);
    const norm = (rs: typeof kept) => rs.map((r) => `${r.status} ${r.day} ${Number(r.n)}`);
    return { kept: norm(kept), counted: norm(counted) };
  };
  const check = async (step: string) => {
    const { byCause: _causes, ...fails } = await get('/jobs/fails');
    const got = { step, fails, success: await get('/jobs/success') };
    expect(got).toEqual({ step, fails: await direct(['FAILED']), success: await direct(['FINISHED', 'CACHED']) });
    const days = await perDay();
    expect({ step, kept: days.kept }).toEqual({ step, kept: days.counted });
  };
  const pending = async () => (await t.db.select({ n: jobStatusCountChanges.n }).from(jobStatusCountChanges)).length;

  it('stay exact through inserts, status and creation-time changes, deletes (also cascading), concurrent updates and folds', async () => {
    await check('start');
    const owner = await f.user();
    const image = await f.image(owner);
    const seedJob = await f.job(owner, { image });
    const [base] = await t.db.select().from(jobs).where(eq(jobs.id, seedJob.id));
    // Jobs on both sides of each window start (±10 minutes: the partial first day is read from jobs) and
    // whole days inside and outside the windows, in every status, in one multi-row insert.
    const offsets = [
      0,
      0.5 * DAY,
      3 * DAY,
      7 * DAY - 600_000,
      7 * DAY + 600_000,
      20 * DAY,
      30 * DAY - 600_000,
      30 * DAY + 600_000,
      45 * DAY,
      400 * DAY,
    ];
    const statuses: Status[] = ['NEW', 'PENDING', 'FINISHED', 'FAILED', 'CACHED'];
    const values = offsets.flatMap((o) =>
      statuses.map((status) => ({
        ownerId: base.ownerId,
        imageId: base.imageId,
        modelId: base.modelId,
        modelVersion: base.modelVersion,
        status,
        createdAt: ago(o),
      })),
    );
    const inserted = await t.db.insert(jobs).values(values).returning({ id: jobs.id, status: jobs.status });
    expect(await pending()).toBeGreaterThan(0);
    await check('after a multi-row insert');
    expect(await compactJobStatusCounts(t.db)).toBeGreaterThan(0);
    expect(await pending()).toBe(0);
    await check('after a fold');

    // Status changes (one row and many rows), creation times moved across the window starts, updates that
    // change neither (progress), all before and after folds.
    const ids = inserted.map((j) => j.id);
    await t.db.update(jobs).set({ status: 'FINISHED' }).where(eq(jobs.id, ids[0]));
    await t.db
      .update(jobs)
      .set({ status: 'FAILED' })
      .where(inArray(jobs.id, ids.slice(1, 12)));
    await t.db
      .update(jobs)
      .set({ createdAt: ago(8 * DAY) })
      .where(inArray(jobs.id, ids.slice(12, 20)));
    await t.db
      .update(jobs)
      .set({ createdAt: ago(6 * DAY), status: 'CACHED' })
      .where(inArray(jobs.id, ids.slice(40, 46)));
    await t.db
      .update(jobs)
      .set({ progress: 0.5 })
      .where(inArray(jobs.id, ids.slice(20, 30)));
    await check('after updates');
    await compactJobStatusCounts(t.db);
    await check('after updates and a fold');

    // Concurrent single-row status changes (several connections on PostgreSQL) interleaved with folds.
    const cycle: Status[] = ['PENDING', 'FINISHED', 'FAILED', 'CACHED', 'NEW'];
    await Promise.all([
      ...ids.map((id, i) =>
        t.db
          .update(jobs)
          .set({ status: cycle[i % cycle.length] })
          .where(eq(jobs.id, id)),
      ),
      ...Array.from({ length: 4 }, () => compactJobStatusCounts(t.db)),
      ...ids.slice(0, 20).map((id, i) =>
        t.db
          .update(jobs)
          .set({ status: cycle[(i + 2) % cycle.length] })
          .where(eq(jobs.id, id)),
      ),
    ]);
    await check('after concurrent updates and folds');

    // Deletes: some rows, then the owner (its jobs go by ON DELETE CASCADE).
    await t.db.delete(jobs).where(inArray(jobs.id, ids.slice(0, 15)));
    await check('after a delete');
    await t.db.delete(users).where(eq(users.id, owner.id));
    await check('after the owner was deleted');
    await compactJobStatusCounts(t.db);
    expect(await pending()).toBe(0);
    await check('at the end');
  });
});

describe('dashboard authorization (back-office.md §6: no privilege of its own, so ADMIN only)', () => {
  it('answers 401 anonymous, 403 to USER, EDITOR and POWER_USER even with every privilege, 200 to ADMIN', async () => {
    const plain = await f.user();
    const editor = await f.withRole('EDITOR');
    const power = await f.powerUser(['USER.READ', 'USER.WRITE', 'JOB.READ']);
    for (const path of PATHS) {
      const url = `/api/admin/dashboard${path}`;
      const got = [
        (await t.client().get(url)).status,
        (await plain.client.get(url)).status,
        (await editor.client.get(url)).status,
        (await power.client.get(url)).status,
        (await admin.client.get(url)).status,
      ];
      expect([path, got]).toEqual([path, [401, 403, 403, 403, 200]]);
    }
  });
});
