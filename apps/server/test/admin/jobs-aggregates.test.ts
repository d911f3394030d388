/**
 * The child aggregates kept on the jobs row (user_rating, admin_rating_mean, submitted_masks) follow every
 * write of their children through the HTTP API (rating, admin feedback added and deleted, masks saved), and
 * the admin jobs list sorts on them: key in the requested direction (none first ascending, last descending),
 * then created_at and id in the same direction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { ADMIN, startTestApp, type TestApp } from '../test-app.ts';
import { computeModels, images, jobs } from '../../src/platform/db/schema/index.ts';
import type { HttpClient } from '../http-client.ts';

let t: TestApp;
let admin: HttpClient;
let owner: { id: string; client: HttpClient };
/** Jobs A, B, C, D of one owner, created a day apart (A oldest). */
let A = '';
let B = '';
let C = '';
let D = '';

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.signin(ADMIN.email, ADMIN.password)).client;
  owner = await t.signupVerified({ company: 'Aggregates GmbH' });
  const [m] = await t.db
    .insert(computeModels)
    .values({ internalName: 'agg-test-model', routingPath: '/agg', storagePath: 'agg', displayName: 'Agg Test', version: '1' })
    .returning();
  const [img] = await t.db
    .insert(images)
    .values({
      ownerId: owner.id,
      orginalFilename: 'agg.png',
      filename: 'agg.png.stored',
      sha256: 'agg',
      format: 'png',
      width: 120,
      height: 80,
      size: 100,
    })
    .returning();
  const base = Date.parse('2026-04-01T10:00:00Z');
  const ids: string[] = [];
  for (let k = 0; k < 4; k++) {
    const [j] = await t.db
      .insert(jobs)
      .values({
        ownerId: owner.id,
        imageId: img.id,
        modelId: m.id,
        modelVersion: '1',
        status: 'FINISHED',
        createdAt: new Date(base + k * 86_400_000),
      })
      .returning();
    ids.push(j.id);
  }
  [A, B, C, D] = ids;
});
afterAll(async () => t?.close());

const name = (id: string) => ({ [A]: 'A', [B]: 'B', [C]: 'C', [D]: 'D' })[id] ?? id;
async function order(sortKey: string, sortOrder: 'asc' | 'desc'): Promise<string[]> {
  const r = await admin.get(`/api/admin/jobs?userId=${owner.id}&sortKey=${sortKey}&sortOrder=${sortOrder}`);
  expect(r.status).toBe(200);
  return r.body.data.map((j: { id: string }) => name(j.id));
}
async function columns() {
  const r = await t.db
    .select({ id: jobs.id, userRating: jobs.userRating, adminRatingMean: jobs.adminRatingMean, submittedMasks: jobs.submittedMasks })
    .from(jobs)
    .where(inArray(jobs.id, [A, B, C, D]));
  return Object.fromEntries(
    r.map((x) => [name(x.id), { user: x.userRating, admin: x.adminRatingMean === null ? null : Number(x.adminRatingMean), masks: x.submittedMasks }]),
  );
}

describe('jobs-row aggregates of the admin jobs list', () => {
  it('start empty: every sort by them is the Job Date order', async () => {
    expect(await columns()).toEqual({
      A: { user: null, admin: null, masks: 0 },
      B: { user: null, admin: null, masks: 0 },
      C: { user: null, admin: null, masks: 0 },
      D: { user: null, admin: null, masks: 0 },
    });
    for (const k of ['userRating', 'adminRating', 'submittedMasks']) {
      expect(await order(k, 'desc')).toEqual(['D', 'C', 'B', 'A']);
      expect(await order(k, 'asc')).toEqual(['A', 'B', 'C', 'D']);
    }
  });

  it('user rating: set by POST /feedback (and replaced on re-rating), sorted on', async () => {
    expect((await owner.client.post('/api/feedback', { jobId: A, rating: 5 })).status).toBe(200);
    expect((await owner.client.post('/api/feedback', { jobId: B, rating: 2, comment: 'meh' })).status).toBe(200);
    expect((await owner.client.post('/api/feedback', { jobId: B, rating: 4 })).status).toBe(200);
    const c = await columns();
    expect([c.A.user, c.B.user, c.C.user, c.D.user]).toEqual([5, 4, null, null]);
    expect(await order('userRating', 'desc')).toEqual(['A', 'B', 'D', 'C']);
    expect(await order('userRating', 'asc')).toEqual(['C', 'D', 'B', 'A']);
    const rows = (await admin.get(`/api/admin/jobs?userId=${owner.id}&sortKey=userRating&sortOrder=desc`)).body.data;
    expect(rows.map((r: { userRating: number | null }) => r.userRating)).toEqual([5, 4, null, null]);
  });

  it('admin rating: follows admin feedback added then deleted, sorted on', async () => {
    const f1 = await admin.post(`/api/admin/jobs/${C}/feedback`, { scaleNumber: 5, scaleLength: 5, resin: 5, results: 5 });
    const f2 = await admin.post(`/api/admin/jobs/${C}/feedback`, { scaleNumber: 1, scaleLength: 1, resin: 1, results: 1 });
    const f3 = await admin.post(`/api/admin/jobs/${D}/feedback`, { scaleNumber: 4, scaleLength: 4, resin: 4, results: 2 });
    expect([f1.status, f2.status, f3.status]).toEqual([200, 200, 200]);
    let c = await columns();
    expect([c.A.admin, c.B.admin, c.C.admin, c.D.admin]).toEqual([null, null, 3, 3.5]);
    expect(await order('adminRating', 'desc')).toEqual(['D', 'C', 'B', 'A']);
    expect(await order('adminRating', 'asc')).toEqual(['A', 'B', 'C', 'D']);

    expect((await admin.delete(`/api/admin/feedback/admin/${f2.body.id}`)).status).toBe(200);
    c = await columns();
    expect(c.C.admin).toBe(5);
    expect(await order('adminRating', 'desc')).toEqual(['C', 'D', 'B', 'A']);
    expect(await order('adminRating', 'asc')).toEqual(['A', 'B', 'D', 'C']);

    expect((await admin.delete(`/api/admin/feedback/admin/${f1.body.id}`)).status).toBe(200);
    c = await columns();
    expect(c.C.admin).toBeNull();
    expect(await order('adminRating', 'desc')).toEqual(['D', 'C', 'B', 'A']);
    expect(await order('adminRating', 'asc')).toEqual(['A', 'B', 'C', 'D']);
    // A refused write changes nothing.
    expect((await admin.post(`/api/admin/jobs/${C}/feedback`, { scaleNumber: 9, scaleLength: 1, resin: 1, results: 1 })).status).toBe(400);
    expect((await columns()).C.admin).toBeNull();
  });

  it('submitted masks: counted when a mask is saved, sorted on (0 plays the part of none)', async () => {
    const mask = await sharp(Buffer.alloc(120 * 80, 1), { raw: { width: 120, height: 80, channels: 1 } })
      .png()
      .toBuffer();
    const save = async (jobId: string) => {
      const form = new FormData();
      form.append('files', new Blob([mask]), 'mask.png');
      form.append('jobId', jobId);
      form.append('label', 'grains');
      const r = await owner.client.request('POST', '/api/masks', { form });
      expect(r.status).toBe(200);
      expect(r.body.isSubmitted).toBe(true);
    };
    await save(B);
    await save(B);
    await save(A);
    const c = await columns();
    expect([c.A.masks, c.B.masks, c.C.masks, c.D.masks]).toEqual([1, 2, 0, 0]);
    expect(await order('submittedMasks', 'desc')).toEqual(['B', 'A', 'D', 'C']);
    expect(await order('submittedMasks', 'asc')).toEqual(['C', 'D', 'A', 'B']);
    const rows = (await admin.get(`/api/admin/jobs?userId=${owner.id}&sortKey=submittedMasks&sortOrder=desc`)).body.data;
    expect(rows.map((r: { submittedMasks: number }) => r.submittedMasks)).toEqual([2, 1, 0, 0]);
  });
});
