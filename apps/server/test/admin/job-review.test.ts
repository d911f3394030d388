/**
 * Review in one place (issue 26 item 2), through HTTP with the authorization matrix: the admin job detail (owner,
 * attempts, parent), "Re-run for the customer" (JOB.WRITE, no licence unit, audited), the rating queue's "Next job",
 * job images and answers for POWER_USER (JOB.READ) and EDITOR, and the model filter fed by an endpoint they may call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { adminJobsApi } from '@lamella/contracts';
import { auditLog, jobs, licenses } from '../../src/platform/db/schema/index.ts';
import { factories, type Factories, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../test-app.ts';

let t: TestApp;
let f: Factories;
let admin: TestUser;
let owner: TestUser;
let reader: TestUser;
let writer: TestUser;
let editor: TestUser;
let other: TestUser;
let plainPower: TestUser;
let jobId: string;
let imageId: string;

beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
  admin = await f.admin();
  owner = await f.user({ fields: { company: 'Acme Steel' } });
  reader = await f.powerUser(['JOB.READ']);
  writer = await f.powerUser(['JOB.READ', 'JOB.WRITE']);
  plainPower = await f.powerUser(['USER.READ']);
  editor = await f.withRole('EDITOR');
  other = await f.user();
  const image = await f.image(owner);
  imageId = image.id;
  jobId = (await f.job(owner, { image })).id;
  await t.db
    .update(jobs)
    .set({ status: 'FAILED', error: 'LAUNCHER_UNAVAILABLE: the job was interrupted too often', finishedAt: new Date() })
    .where(eq(jobs.id, jobId));
});
afterAll(() => t.close());

describe('job detail', () => {
  it('names the owner and company, lists attempts (none yet) and no parent', async () => {
    const d = await admin.client.ok(adminJobsApi.get, { params: { id: jobId } });
    expect(d.owner).toMatchObject({ id: owner.id, email: owner.email });
    expect(d.company ?? d.owner.company).toBe('Acme Steel');
    expect(d.attempts).toEqual([]);
    expect(d.parentJobId).toBeNull();
    expect(d.error).toMatch(/^LAUNCHER_UNAVAILABLE/);
  });
});

describe('Re-run for the customer', () => {
  it('authorization: 401 anonymous, 403 USER / EDITOR / POWER_USER without JOB.WRITE; nothing is created', async () => {
    const before = await t.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.parentJobId, jobId));
    const path = `/api/admin/jobs/${jobId}/rerun`;
    const got = [
      (await t.client().post(path, {})).status,
      (await owner.client.post(path, {})).status,
      (await editor.client.post(path, {})).status,
      (await reader.client.post(path, {})).status,
      (await plainPower.client.post(path, {})).status,
    ];
    expect(got).toEqual([401, 403, 403, 403, 403]);
    expect(await t.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.parentJobId, jobId))).toEqual(before);
  });

  it('JOB.WRITE queues a new job of the owner with the same input, charges no licence unit, and is audited', async () => {
    const [lic] = await t.db.select().from(licenses).where(eq(licenses.userId, owner.id));
    const r = await writer.client.call(adminJobsApi.rerun, { params: { id: jobId } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ parentJobId: jobId, message: 'The job was queued again for the customer.' });
    const [original] = await t.db.select().from(jobs).where(eq(jobs.id, jobId));
    const [created] = await t.db.select().from(jobs).where(eq(jobs.id, r.body.id));
    expect(created).toMatchObject({
      ownerId: owner.id,
      imageId,
      modelId: original.modelId,
      parentJobId: jobId,
      settings: original.settings,
      crop: original.crop,
      maskId: original.maskId,
    });
    expect(['NEW', 'PENDING', 'FINISHED', 'FAILED']).toContain(created.status);
    const [licAfter] = await t.db.select().from(licenses).where(eq(licenses.userId, owner.id));
    expect(licAfter?.used ?? null).toBe(lic?.used ?? null);
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'job.rerun'), eq(auditLog.targetId, jobId)));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorId: writer.id, details: expect.objectContaining({ newJobId: r.body.id, ownerId: owner.id }) });
    // the new job's detail points back to the original; ADMIN may re-run too
    expect((await admin.client.ok(adminJobsApi.get, { params: { id: r.body.id } })).parentJobId).toBe(jobId);
    expect((await admin.client.call(adminJobsApi.rerun, { params: { id: jobId } })).status).toBe(200);
  });

  it('a deleted job cannot be re-run (409), an unknown one is 404, a malformed id 400', async () => {
    const j = await f.job(owner);
    await t.db.update(jobs).set({ deleted: true }).where(eq(jobs.id, j.id));
    const gone = await admin.client.call(adminJobsApi.rerun, { params: { id: j.id } });
    expect([gone.status, (gone.body as unknown as { code: string }).code]).toEqual([409, 'JOB_NOT_RERUNNABLE']);
    expect(await t.db.select().from(jobs).where(eq(jobs.parentJobId, j.id))).toHaveLength(0);
    expect((await admin.client.post('/api/admin/jobs/00000000-0000-4000-8000-000000000000/rerun', {})).status).toBe(404);
    expect((await admin.client.post('/api/admin/jobs/nope/rerun', {})).status).toBe(400);
  });
});

describe('Next job (rating queue)', () => {
  it('walks the finished jobs without an administrator rating, newest first; JOB.READ may call it', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const j = await f.job(owner);
      await t.db
        .update(jobs)
        .set({ status: 'FINISHED', finishedAt: new Date(), createdAt: new Date(Date.now() + (i + 1) * 60_000) })
        .where(eq(jobs.id, j.id));
      ids.push(j.id);
    }
    // the middle one is rated already
    await t.db.update(jobs).set({ adminRatingMean: '4' }).where(eq(jobs.id, ids[1]));
    const first = await reader.client.ok(adminJobsApi.nextToRate, { query: {} });
    expect(first.id).toBe(ids[2]);
    const second = await reader.client.ok(adminJobsApi.nextToRate, { query: { after: ids[2] } });
    expect(second.id).toBe(ids[0]);
    const path = '/api/admin/jobs/next-to-rate';
    expect([(await t.client().get(path)).status, (await other.client.get(path)).status, (await plainPower.client.get(path)).status]).toEqual([
      401, 403, 403,
    ]);
  });
});

describe('staff read job images and answers (POWER_USER with JOB.READ, EDITOR)', () => {
  it('image display, the job answer and the model short list', async () => {
    const display = `/api/image/${imageId}/display`;
    const job = `/api/jobs/${jobId}`;
    const statuses = async (path: string) => [
      (await owner.client.get(path)).status,
      (await admin.client.get(path)).status,
      (await reader.client.get(path)).status,
      (await editor.client.get(path)).status,
      (await plainPower.client.get(path)).status,
      (await other.client.get(path)).status,
    ];
    expect(await statuses(display)).toEqual([200, 200, 200, 200, 404, 404]);
    expect(await statuses(job)).toEqual([200, 200, 200, 200, 404, 404]);
    // the Jobs page's Model filter: every staff role may read the short list, customers may not
    const short = '/api/admin/compute-models/list';
    expect([
      (await reader.client.get(short)).status,
      (await editor.client.get(short)).status,
      (await plainPower.client.get(short)).status,
      (await other.client.get(short)).status,
    ]).toEqual([200, 200, 200, 403]);
  });
});
