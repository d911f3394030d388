import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../test-app.ts';
import { adminFeedback, auditLog, computeModels, images, jobs, masks, privileges, userFeedback, users } from '../../src/platform/db/schema/index.ts';
import { and, eq } from 'drizzle-orm';
import type { HttpClient } from '../http-client.ts';

let t: TestApp;
let admin: HttpClient;
let owner: { id: string; client: HttpClient };
let other: { id: string; client: HttpClient };
let modelId = '';
const jobIds: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.signin(ADMIN.email, ADMIN.password)).client;
  owner = await t.signupVerified({ company: 'Steel Works GmbH' });
  other = await t.signupVerified({ company: 'Glass Inc' });
  const [m] = await t.db
    .insert(computeModels)
    .values({ internalName: 'jobs-test-model', routingPath: '/jt', storagePath: 'jt', displayName: 'Jobs Test', version: '2' })
    .returning();
  modelId = m.id;
  const img = async (ownerId: string, name: string, training = false) =>
    (
      await t.db
        .insert(images)
        .values({
          ownerId,
          orginalFilename: name,
          filename: `${name}.stored`,
          sha256: name,
          format: 'png',
          width: 640,
          height: 480,
          size: 1234,
          allowedTrainingUse: training,
        })
        .returning()
    )[0];
  const a = await img(owner.id, 'a.png', true);
  const b = await img(other.id, 'b.png');
  const base = Date.parse('2026-03-10T10:00:00Z');
  // 5 jobs, one per day from 2026-03-10; job 3 failed, job 4 deleted, job 5 from the other user.
  for (let k = 0; k < 5; k++) {
    const createdAt = new Date(base + k * 86_400_000);
    const [j] = await t.db
      .insert(jobs)
      .values({
        ownerId: k === 4 ? other.id : owner.id,
        imageId: k === 4 ? b.id : a.id,
        modelId,
        modelVersion: k === 0 ? '1' : '2',
        status: k === 2 ? 'FAILED' : 'FINISHED',
        source: k === 1 ? 'API' : 'WEB',
        error: k === 2 ? 'ANALYSIS_FAILED: no scale bar' : null,
        deleted: k === 3,
        createdAt,
        startedAt: new Date(createdAt.getTime() + 2000),
        finishedAt: new Date(createdAt.getTime() + 7000),
      })
      .returning();
    jobIds.push(j.id);
  }
  await t.db.insert(userFeedback).values({ jobId: jobIds[0], userId: owner.id, rating: 4, comment: 'fine' });
  await t.db.insert(masks).values([
    { ownerId: owner.id, jobId: jobIds[1], label: 'grain', filename: 'm1.png', storageKey: 'k1', isSubmitted: true },
    { ownerId: owner.id, jobId: jobIds[1], label: 'grain', filename: 'm2.png', storageKey: 'k2', isSubmitted: false },
  ]);
  // Written behind the API's back: the jobs-row aggregates those writes keep (jobs-aggregates.test.ts) set by hand.
  await t.db.update(jobs).set({ userRating: 4 }).where(eq(jobs.id, jobIds[0]));
  await t.db.update(jobs).set({ submittedMasks: 1 }).where(eq(jobs.id, jobIds[1]));
});
afterAll(async () => t?.close());

describe('admin jobs list', () => {
  it('lists newest first, hides deleted by default, pages with hasNextPage', async () => {
    const r = await admin.get('/api/admin/jobs?pageSize=2');
    expect(r.status).toBe(200);
    expect(r.body.page).toBe(1);
    expect(r.body.hasNextPage).toBe(true);
    expect(r.body.data.map((j: { id: string }) => j.id)).toEqual([jobIds[4], jobIds[2]]);
    const p2 = await admin.get('/api/admin/jobs?pageSize=2&page=2');
    expect(p2.body.data.map((j: { id: string }) => j.id)).toEqual([jobIds[1], jobIds[0]]);
    expect(p2.body.hasNextPage).toBe(false);
    const row = p2.body.data[1];
    expect(row).toMatchObject({
      status: 'FINISHED',
      source: 'WEB',
      modelVersion: '1',
      model: { id: modelId, displayName: 'Jobs Test' },
      owner: { id: owner.id, name: 'Ada', company: 'Steel Works GmbH' },
      company: 'Steel Works GmbH',
      userRating: 4,
      adminRating: { mean: null, count: 0 },
      durationMs: 5000,
      waitMs: 2000,
      deleted: false,
      image: { orginalFilename: 'a.png' },
    });
    expect(p2.body.data[0].submittedMasks).toBe(1);
  });
  it('filters', async () => {
    const ids = async (q: string) => (await admin.get(`/api/admin/jobs?${q}`)).body.data.map((j: { id: string }) => j.id);
    expect(await ids('deleted=DELETED')).toEqual([jobIds[3]]);
    expect((await ids('deleted=ALL')).length).toBe(5);
    expect(await ids('status=FAILED')).toEqual([jobIds[2]]);
    expect(await ids('source=API')).toEqual([jobIds[1]]);
    expect(await ids('company=glass')).toEqual([jobIds[4]]);
    expect(await ids(`userId=${other.id}`)).toEqual([jobIds[4]]);
    expect(await ids('startDate=2026-03-11&endDate=2026-03-12')).toEqual([jobIds[2], jobIds[1]]);
    expect(await ids('withUserFeedback=true')).toEqual([jobIds[0]]);
    expect(await ids('withSubmittedMasks=true')).toEqual([jobIds[1]]);
    expect(await ids(`modelId=${modelId}&sortKey=createdAt&sortOrder=asc`)).toEqual([jobIds[0], jobIds[1], jobIds[2], jobIds[4]]);
    expect(await ids('sortKey=company&sortOrder=asc')).toEqual([jobIds[4], jobIds[0], jobIds[1], jobIds[2]]);
    // a sort key that is no column, prototype names included, is a 400 naming the field (never a 500)
    for (const key of ['constructor', '__proto__', 'toString', 'nope']) {
      const r = await admin.get(`/api/admin/jobs?sortKey=${key}`);
      expect(r.status).toBe(400);
      expect(r.body.details[0].field).toBe('sortKey');
    }
    const bad = await admin.get('/api/admin/jobs?startDate=11/03/2026&status=DONE');
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { field: string }) => d.field)).toEqual(['startDate', 'status']);
  });
  it('admin feedback: the four ratings with the spec messages, then listed and averaged', async () => {
    const bad = await admin.post(`/api/admin/jobs/${jobIds[2]}/feedback`, { scaleNumber: 0, resin: 6, results: 2.5 });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { message: string }) => d.message)).toEqual([
      'Select the scale number rating',
      'Select the scale length rating',
      'Select the resin detection rating',
      'Select the analysis results rating',
    ]);
    const ok = await admin.post(`/api/admin/jobs/${jobIds[2]}/feedback`, { scaleNumber: 5, scaleLength: 4, resin: 3, results: 4, comment: 'ok' });
    expect(ok.body).toMatchObject({ rating: 4, comment: 'ok', user: { name: expect.any(String) } });
    await admin.post(`/api/admin/jobs/${jobIds[2]}/feedback`, { scaleNumber: 2, scaleLength: 2, resin: 2, results: 2 });
    const list = await admin.get('/api/admin/jobs?withAdminFeedback=true');
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0].adminRating).toEqual({ mean: 3, count: 2 });
    const detail = await admin.get(`/api/admin/jobs/${jobIds[2]}`);
    expect(detail.body.adminFeedback).toHaveLength(2);
    const del = await admin.delete(`/api/admin/feedback/admin/${ok.body.id}`);
    expect(del.status).toBe(200);
    expect((await t.db.select().from(adminFeedback).where(eq(adminFeedback.jobId, jobIds[2]))).length).toBe(1);
    expect((await admin.delete(`/api/admin/feedback/admin/${ok.body.id}`)).status).toBe(404);
  });
  it('job detail has every row of the page', async () => {
    const r = await admin.get(`/api/admin/jobs/${jobIds[2]}`);
    expect(r.body).toMatchObject({
      model: { displayName: 'Jobs Test', currentVersion: '2' },
      modelVersion: '2',
      status: 'FAILED',
      error: 'ANALYSIS_FAILED: no scale bar',
      startDelaySeconds: 2,
      durationSeconds: 5,
      image: { orginalFilename: 'a.png', filename: 'a.png.stored', width: 640, height: 480, format: 'png', size: 1234 },
      executor: null,
      masks: [],
      editedMasks: [],
      userFeedback: null,
    });
    const ok = await admin.get(`/api/admin/jobs/${jobIds[1]}`);
    expect(ok.body.error).toBeNull();
    expect(ok.body.masks).toHaveLength(2);
    expect((await admin.get('/api/admin/jobs/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
  it('streams the CSV reports with the same filters', async () => {
    const r = await admin.get('/api/admin/jobs/report?deleted=ALL');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/csv');
    const lines = r.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toContain('Job date (UTC)');
    expect(lines).toHaveLength(6);
    expect(lines[1]).toContain(jobIds[4]);
    const failed = await admin.get('/api/admin/jobs/report?status=FAILED');
    expect(failed.body.trim().split('\r\n')).toHaveLength(2);
    const mr = await admin.get('/api/admin/jobs/masks-report');
    const ml = mr.body.trim().split('\r\n');
    expect(ml).toHaveLength(3);
    expect(mr.body).toContain('m1.png');
  });
});

/** A signed-in POWER_USER holding `perms`. */
async function powerUser(perms: string[]) {
  const u = await t.signupVerified();
  await t.db.update(users).set({ role: 'POWER_USER' }).where(eq(users.id, u.id));
  for (const p of perms) {
    const [resource, action] = p.split('.');
    await t.db.insert(privileges).values({ userId: u.id, resource, action });
  }
  return { id: u.id, client: (await t.signin(u.email, u.password)).client };
}

describe('reading is not writing: administrator feedback needs JOB.WRITE', () => {
  const scores = { scaleNumber: 3, scaleLength: 3, resin: 3, results: 3 };
  it('JOB.READ alone reads jobs and reports but gets 403 on feedback writes (nothing written)', async () => {
    const reader = await powerUser(['JOB.READ']);
    expect((await reader.client.get('/api/admin/jobs')).status).toBe(200);
    expect((await reader.client.get(`/api/admin/jobs/${jobIds[0]}`)).status).toBe(200);
    expect((await reader.client.get('/api/admin/jobs/report')).status).toBe(200);
    const before = (await t.db.select().from(adminFeedback).where(eq(adminFeedback.jobId, jobIds[0]))).length;
    expect((await reader.client.post(`/api/admin/jobs/${jobIds[0]}/feedback`, scores)).status).toBe(403);
    const mine = await admin.post(`/api/admin/jobs/${jobIds[0]}/feedback`, scores);
    expect((await reader.client.delete(`/api/admin/feedback/admin/${mine.body.id}`)).status).toBe(403);
    expect((await t.db.select().from(adminFeedback).where(eq(adminFeedback.jobId, jobIds[0]))).length).toBe(before + 1);
    await admin.delete(`/api/admin/feedback/admin/${mine.body.id}`);
  });

  it('JOB.WRITE adds feedback and deletes its own (not an ADMIN one); each write is in the audit log', async () => {
    const writer = await powerUser(['JOB.READ', 'JOB.WRITE']);
    const added = await writer.client.post(`/api/admin/jobs/${jobIds[0]}/feedback`, scores);
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ rating: 3, userId: writer.id });
    const adminsOwn = await admin.post(`/api/admin/jobs/${jobIds[0]}/feedback`, scores);
    expect((await writer.client.delete(`/api/admin/feedback/admin/${adminsOwn.body.id}`)).status).toBe(403);
    expect((await writer.client.delete(`/api/admin/feedback/admin/${added.body.id}`)).status).toBe(200);
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, writer.id), eq(auditLog.targetId, jobIds[0])));
    expect(audit.map((a) => a.action).sort()).toEqual(['job.feedback.add', 'job.feedback.delete']);
    expect(audit.find((a) => a.action === 'job.feedback.add')!.details).toMatchObject({ feedbackId: added.body.id });
    await admin.delete(`/api/admin/feedback/admin/${adminsOwn.body.id}`);
  });
});

describe('job detail heartbeat', () => {
  it('answers heartbeatAt: the last sign of life of the launcher, null before any', async () => {
    expect((await admin.get(`/api/admin/jobs/${jobIds[1]}`)).body.heartbeatAt).toBeNull();
    const at = new Date('2026-03-11T10:00:04.500Z');
    await t.db.update(jobs).set({ heartbeatAt: at }).where(eq(jobs.id, jobIds[1]));
    expect((await admin.get(`/api/admin/jobs/${jobIds[1]}`)).body.heartbeatAt).toBe(at.toISOString());
  });
});

describe('CSV reports neutralise formula cells', () => {
  it('prefixes cells starting with =, +, -, @ with an apostrophe in the jobs and masks reports', async () => {
    const evil = await t.signupVerified({ company: '=HYPERLINK("http://x","y")' });
    const [img] = await t.db
      .insert(images)
      .values({ ownerId: evil.id, orginalFilename: '@SUM(A1)', filename: 'e.stored', sha256: 'evil', format: 'png', width: 1, height: 1, size: 1 })
      .returning();
    const [j] = await t.db
      .insert(jobs)
      .values({ ownerId: evil.id, imageId: img.id, modelId, modelVersion: '2', status: 'FINISHED', source: 'WEB' })
      .returning();
    await t.db.insert(masks).values({ ownerId: evil.id, jobId: j.id, label: '+cmd|calc', filename: '-2+3.png', storageKey: 'ke' });
    const report = (await admin.get(`/api/admin/jobs/report?userId=${evil.id}`)).body as string;
    const row = report.trim().split('\r\n')[1];
    expect(row).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(row).toContain("'@SUM(A1)");
    expect(row).not.toMatch(/[,;][=+@-]/);
    const masksCsv = (await admin.get(`/api/admin/jobs/masks-report?userId=${evil.id}`)).body as string;
    const maskRow = masksCsv.trim().split('\r\n')[1];
    expect(maskRow).toContain("'+cmd|calc");
    expect(maskRow).toContain("'-2+3.png");
    expect(maskRow).not.toMatch(/[,;][=+@-]/);
  });
});
