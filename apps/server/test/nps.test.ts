import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { NPS_AFTER_JOBS, npsApi } from '@lamella/contracts';
import { jobs, npsDismissals, npsResponses } from '../src/platform/db/schema/index.ts';
import { factories, type Factories, type TestUser } from './factories.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * The NPS question (issue 26 item 3): due after NPS_AFTER_JOBS successful jobs, one answer per period, a dismissal
 * keeps it away for the period, answers stored and counted by the back-office dashboard's NPS card.
 */

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

/** `n` successful jobs of `u` (created through the API, then marked FINISHED / CACHED as a launcher would). */
async function succeed(u: TestUser, n: number) {
  const image = await f.image(u);
  for (let i = 0; i < n; i++) {
    const j = await f.job(u, { image });
    await t.db
      .update(jobs)
      .set({ status: i % 2 ? 'CACHED' : 'FINISHED', finishedAt: new Date() })
      .where(eq(jobs.id, j.id));
  }
}

describe('NPS prompt and answers', () => {
  it('is due only after enough successful jobs, takes one answer per period and fills the dashboard card', async () => {
    const u = await f.user();
    const before = await admin.client.get('/api/admin/dashboard/users/average-nps');
    expect((await u.client.ok(npsApi.prompt)).due).toBe(false);
    await succeed(u, NPS_AFTER_JOBS - 1);
    // a failed job does not count
    const failed = await f.job(u);
    await t.db.update(jobs).set({ status: 'FAILED' }).where(eq(jobs.id, failed.id));
    expect(await u.client.ok(npsApi.prompt)).toEqual({ due: false, afterJobs: NPS_AFTER_JOBS, periodDays: 90, lastAnsweredAt: null });
    await succeed(u, 1);
    expect((await u.client.ok(npsApi.prompt)).due).toBe(true);

    const answered = await u.client.call(npsApi.answer, { body: { score: 10, comment: '  Fast and clear.  ' } });
    expect(answered.status).toBe(200);
    expect(answered.body.message).toBe('Thank you for your answer!');
    const [stored] = await t.db.select().from(npsResponses).where(eq(npsResponses.userId, u.id));
    expect(stored).toMatchObject({ score: 10, comment: 'Fast and clear.' });
    const after = await u.client.ok(npsApi.prompt);
    expect(after.due).toBe(false);
    expect(after.lastAnsweredAt).toBe(stored.createdAt.toISOString());

    // one answer per period: the second is refused and changes nothing
    const again = await u.client.call(npsApi.answer, { body: { score: 0 } });
    expect(again.status).toBe(409);
    expect((again.body as unknown as { code: string }).code).toBe('NPS_ALREADY_ANSWERED');
    expect(again.body.message).toContain('90 days');
    expect(await t.db.select().from(npsResponses).where(eq(npsResponses.userId, u.id))).toHaveLength(1);

    // the dashboard's card counts the answer (a promoter)
    const nps = await admin.client.get('/api/admin/dashboard/users/average-nps');
    expect(nps.status).toBe(200);
    expect(nps.body.total).not.toBeNull();
    if (before.body.total === null) expect(nps.body).toEqual({ total: 100, last7Days: 100, last30Days: 100 });

    // a period later the question is due again
    await t.db
      .update(npsResponses)
      .set({ createdAt: new Date(Date.now() - 91 * DAY) })
      .where(eq(npsResponses.userId, u.id));
    expect((await u.client.ok(npsApi.prompt)).due).toBe(true);
    expect((await u.client.call(npsApi.answer, { body: { score: 7 } })).status).toBe(200);
  });

  it('two answers sent at once: exactly one is stored', async () => {
    const u = await f.user();
    await succeed(u, NPS_AFTER_JOBS);
    const answers = await Promise.all([0, 1, 2].map((i) => u.client.call(npsApi.answer, { body: { score: 8 + i } })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    expect(await t.db.select().from(npsResponses).where(eq(npsResponses.userId, u.id))).toHaveLength(1);
  });

  it('closing the prompt keeps it away for the period, without an answer', async () => {
    const u = await f.user();
    await succeed(u, NPS_AFTER_JOBS);
    expect((await u.client.ok(npsApi.prompt)).due).toBe(true);
    const closed = await u.client.ok(npsApi.dismiss);
    expect(closed.due).toBe(false);
    expect((await u.client.ok(npsApi.prompt)).due).toBe(false);
    expect(await t.db.select().from(npsResponses).where(eq(npsResponses.userId, u.id))).toHaveLength(0);
    await t.db
      .update(npsDismissals)
      .set({ dismissedAt: new Date(Date.now() - 91 * DAY) })
      .where(eq(npsDismissals.userId, u.id));
    expect((await u.client.ok(npsApi.prompt)).due).toBe(true);
  });

  it('refuses bad scores naming the field, and changes nothing', async () => {
    const u = await f.user();
    for (const body of [{ score: 11 }, { score: -1 }, { score: 4.5 }, {}, { score: 'ten' }, { score: 5, comment: 'x'.repeat(2001) }]) {
      const res = await u.client.post('/api/nps', body);
      expect([JSON.stringify(body), res.status, res.body.code]).toEqual([JSON.stringify(body), 400, 'VALIDATION_FAILED']);
      expect(JSON.stringify(res.body)).toMatch(/score|comment/);
    }
    expect(await t.db.select().from(npsResponses).where(eq(npsResponses.userId, u.id))).toHaveLength(0);
  });

  it('authorization: 401 anonymous; staff are never asked and cannot answer (403); customers can', async () => {
    const editor = await f.withRole('EDITOR');
    const power = await f.powerUser(['JOB.READ']);
    const anon = t.client();
    for (const [method, path] of [
      ['get', '/api/nps'],
      ['post', '/api/nps'],
      ['post', '/api/nps/dismiss'],
    ] as const)
      expect([path, (await (method === 'get' ? anon.get(path) : anon.post(path, { score: 9 }))).status]).toEqual([path, 401]);
    for (const staff of [admin, editor, power]) {
      expect((await staff.client.ok(npsApi.prompt)).due).toBe(false);
      const res = await staff.client.call(npsApi.answer, { body: { score: 9 } });
      expect([staff.me.role, res.status, (res.body as unknown as { code: string }).code]).toEqual([staff.me.role, 403, 'NPS_CUSTOMERS_ONLY']);
    }
  });
});
