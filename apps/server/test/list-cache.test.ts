import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { adminJobsApi, jobsApi } from '@lamella/contracts';
import { computeModels, images, jobs, userFeedback, users } from '../src/platform/db/schema/index.ts';
import { factories, type Factories, type TestUser } from './factories.ts';
import { CACHES_ON, soon, startTestApp, type TestApp } from './test-app.ts';

/**
 * Issue 15: the answered job lists (GET /jobs per user and query, GET /admin/jobs per query) are kept
 * (platform/db/change-cache.ts, LIST_CACHE_SECONDS) and dropped when what they show changes — through this server's
 * API at once, and straight in the database (another replica, a job, an SQL console) by migration 0018's triggers.
 * On PGlite the notification arrives with the statement; on PostgreSQL within moments (waitFor, 5 s at most).
 */
let t: TestApp;
let f: Factories;
beforeAll(async () => {
  t = await startTestApp({ env: CACHES_ON });
  f = factories(t);
});
afterAll(() => t?.close());

/** The user's session cookie with the `lng` cookie (the language a request is answered in). */
const cookieOf = (u: TestUser) => `lamella_session=${u.client.cookies.get('lamella_session')}`;

/** Runs `change` with the jobs triggers off: a change the cache is not told about. */
async function unnotified(change: () => Promise<unknown>) {
  await t.db.execute(sql`alter table jobs disable trigger jobs_list_update`);
  try {
    await change();
  } finally {
    await t.db.execute(sql`alter table jobs enable trigger jobs_list_update`);
  }
}

describe('GET /jobs', () => {
  it('is answered from the cache until a change of the jobs is notified, with the same paging headers', async () => {
    const u = await f.user();
    const job = await f.job(u);
    const first = await u.client.call(jobsApi.list, { query: {} });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-total-count')).toBe('1');
    await unnotified(() => t.db.update(jobs).set({ progress: 42 }).where(eq(jobs.id, job.id)));
    const kept = await u.client.call(jobsApi.list, { query: {} });
    expect(kept.body).toEqual(first.body); // the database was not read
    expect(kept.headers.get('x-total-count')).toBe('1');
    expect(kept.headers.get('content-type')).toMatch(/^application\/json/);
    // a notified change of the same job
    await t.db.update(jobs).set({ progress: 43 }).where(eq(jobs.id, job.id));
    await soon(async () => (await u.client.ok(jobsApi.list, { query: {} }))[0].progress === 43);
  });

  it("keeps each query and language apart, and one user's change leaves another user's lists kept", async () => {
    const a = await f.user();
    const b = await f.user();
    const ja = await f.job(a);
    await f.job(b);
    expect(await a.client.ok(jobsApi.list, { query: { archived: true } })).toEqual([]);
    const english = await a.client.ok(jobsApi.list, { query: {} });
    expect(english.map((j) => j.id)).toEqual([ja.id]);
    const german = await t.client({ cookie: `${cookieOf(a)}; lng=de` }).ok(jobsApi.list, { query: {} });
    expect(english[0].model.displayName).toBe('Grain size (ASTM E112)');
    expect(german[0].model.displayName).toBe('Korngröße (ASTM E112)');
    // a's list is kept (an unnotified change does not show); b's notified change does not drop it
    await unnotified(() => t.db.update(jobs).set({ progress: 5 }).where(eq(jobs.id, ja.id)));
    await t.db.update(jobs).set({ progress: 7 }).where(eq(jobs.ownerId, b.id));
    await soon(async () => (await b.client.ok(jobsApi.list, { query: {} }))[0].progress === 7);
    expect((await a.client.ok(jobsApi.list, { query: {} }))[0].progress).toBeNull();
    expect((await t.client({ cookie: `${cookieOf(a)}; lng=de` }).ok(jobsApi.list, { query: {} }))[0].model.displayName).toBe('Korngröße (ASTM E112)');
  });

  it("follows what the list shows besides the job: the image's name, the model's name, the owner's rating", async () => {
    const u = await f.user();
    const job = await f.job(u);
    expect((await u.client.ok(jobsApi.list, { query: {} }))[0].image.orginalFilename).toBe('sample.png');
    await t.db.update(images).set({ orginalFilename: 'renamed.png' }).where(eq(images.id, job.imageId));
    await soon(async () => (await u.client.ok(jobsApi.list, { query: {} }))[0].image.orginalFilename === 'renamed.png');

    const [model] = await t.db.select().from(computeModels).where(eq(computeModels.id, job.modelId));
    try {
      await t.db.update(computeModels).set({ displayName: 'Grains (renamed)' }).where(eq(computeModels.id, model.id));
      await soon(async () => (await u.client.ok(jobsApi.list, { query: {} }))[0].model.displayName === 'Grains (renamed)');
    } finally {
      await t.db.update(computeModels).set({ displayName: model.displayName }).where(eq(computeModels.id, model.id));
    }

    await t.db.insert(userFeedback).values({ jobId: job.id, userId: u.id, rating: 4, comment: 'ok' });
    await soon(async () => (await u.client.ok(jobsApi.list, { query: {} }))[0].userFeedback?.rating === 4);
  });

  it("this server's own write is seen by the very next request (a new job)", async () => {
    const u = await f.user();
    const image = await f.image(u);
    expect(await u.client.ok(jobsApi.list, { query: {} })).toEqual([]);
    await f.job(u, { image });
    expect(await u.client.ok(jobsApi.list, { query: {} })).toHaveLength(1);
  });
});

describe('GET /admin/jobs', () => {
  it("is kept per query and dropped by any job's or owner's change", async () => {
    const { client: admin } = await f.admin();
    const u = await f.user();
    const job = await f.job(u);
    const row = async () => (await admin.ok(adminJobsApi.list, { query: { pageSize: 100 } })).data.find((r) => r.id === job.id);
    expect((await row())?.owner.email).toBe(u.email);
    await t.db
      .update(users)
      .set({ email: `changed-${u.email}` })
      .where(eq(users.id, u.id));
    await soon(async () => (await row())?.owner.email === `changed-${u.email}`);
    await t.db.update(jobs).set({ status: 'FAILED', error: 'boom' }).where(eq(jobs.id, job.id));
    await soon(async () => (await row())?.status === 'FAILED');
  });

  it('a refused query (unknown sort key) is a 400 and keeps nothing', async () => {
    const { client: admin } = await f.admin();
    const cache = t.app.ctx.listCaches!.admin;
    cache.clear();
    const res = await admin.call(adminJobsApi.list, { query: { sortKey: 'constructor' } });
    expect(res.status).toBe(400);
    expect(cache.size).toBe(0);
  });
});
