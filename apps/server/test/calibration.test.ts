import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { calibrations, images, jobs, results } from '../src/platform/db/schema/index.ts';
import { jobCacheKey } from '../src/modules/jobs/cache-key.ts';
import { factories } from './factories.ts';
import { fields } from './http-client.ts';
import { startTestApp, type TestApp } from './test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
const f = () => factories(t);

const png = (level = 80) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: { r: level, g: level, b: level } } })
    .png()
    .toBuffer();
const upload = async (client: ReturnType<TestApp['client']>, fields: Record<string, string>, level = 80, count = 1) => {
  const form = new FormData();
  for (let i = 0; i < count; i++) form.append('files', new Blob([new Uint8Array(await png(level + i))]), `m${i}.png`);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return client.request('POST', '/api/images', { form });
};
async function storedFiles(): Promise<number> {
  try {
    const entries = await readdir(join(t.dataDir, 'files', 'images'), { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).length;
  } catch {
    return 0;
  }
}
/** A signed-in user whose e-mail is not verified yet (the `user` guard answers 403). */
async function unverified() {
  const c = t.client();
  const res = await c.post(
    '/api/auth/signup',
    fields({ email: `unverified-${Date.now()}@example.com`, password: f().password, name: 'Ada', surname: 'Lovelace', company: 'Metals AG' }),
  );
  expect(res.status).toBe(200);
  return c;
}

describe('image calibration (issue 13 item 1)', () => {
  it('stores the pixelSizeUm form field for every file of the upload and answers it', async () => {
    const u = await f().user();
    const res = await upload(u.client, { pixelSizeUm: '0,25' }, 80, 2);
    expect(res.status).toBe(200);
    expect(res.body.map((i: { pixelSizeUm: number }) => i.pixelSizeUm)).toEqual([0.25, 0.25]);
    const [row] = await t.db.select().from(images).where(eq(images.id, res.body[1].id));
    expect(row.pixelSizeUm).toBe(0.25);
    const plain = await upload(u.client, {}, 120);
    expect(plain.body[0].pixelSizeUm).toBeNull();
    const list = await u.client.get('/api/image');
    expect(list.body.find((i: { id: string }) => i.id === res.body[0].id).pixelSizeUm).toBe(0.25);
  });

  it('refuses a bad pixelSizeUm on upload with 400 naming the field, and stores nothing', async () => {
    const u = await f().user();
    const before = await storedFiles();
    for (const bad of ['abc', '0', '-1', '1e9', 'Infinity', '1.2.3']) {
      const res = await upload(u.client, { pixelSizeUm: bad }, 30);
      expect(res.status, bad).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.details[0].field).toBe('pixelSizeUm');
      expect(res.body.details[0].message).toMatch(/Pixel size/);
    }
    expect(await t.db.select().from(images).where(eq(images.ownerId, u.id))).toHaveLength(0);
    expect(await storedFiles()).toBe(before);
  });

  it('PATCH /images/{id} sets and clears the calibration: owner only (401, 403, 404, 200)', async () => {
    const a = await f().user();
    const b = await f().user();
    const img = await f().image(a);
    const path = `/api/images/${img.id}`;
    expect((await t.client().patch(path, { pixelSizeUm: 0.5 })).status).toBe(401);
    expect((await (await unverified()).patch(path, { pixelSizeUm: 0.5 })).status).toBe(403);
    expect((await b.client.patch(path, { pixelSizeUm: 0.5 })).status).toBe(404);
    // ADMIN may read any image but does not change another user's calibration
    expect((await (await f().admin()).client.patch(path, { pixelSizeUm: 0.5 })).status).toBe(404);
    expect((await a.client.patch('/api/images/00000000-0000-4000-8000-000000000000', { pixelSizeUm: 0.5 })).status).toBe(404);
    const [untouched] = await t.db.select().from(images).where(eq(images.id, img.id));
    expect(untouched.pixelSizeUm).toBeNull();

    const set = await a.client.patch(path, { pixelSizeUm: 0.5 });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ id: img.id, pixelSizeUm: 0.5 });
    for (const bad of [0, -2, 5000, 'x']) {
      const res = await a.client.patch(path, { pixelSizeUm: bad });
      expect(res.status, String(bad)).toBe(400);
      expect(res.body.details[0].field).toMatch(/pixelSizeUm/);
    }
    expect((await a.client.patch(path, {})).status).toBe(400);
    const [kept] = await t.db.select().from(images).where(eq(images.id, img.id));
    expect(kept.pixelSizeUm).toBe(0.5);
    const cleared = await a.client.patch(path, { pixelSizeUm: null });
    expect(cleared.body.pixelSizeUm).toBeNull();
  });

  it('a calibrated image is not answered from the result of the uncalibrated run (cache key includes it)', async () => {
    const u = await f().user();
    const img = await f().image(u, { level: 77 });
    const first = await f().job(u, { image: img, model: 'porosity' });
    const [job] = await t.db.select().from(jobs).where(eq(jobs.id, first.id));
    const [row] = await t.db.select().from(images).where(eq(images.id, img.id));
    const key = (pixelSizeUm: number | null) =>
      jobCacheKey({
        imageSha256: row.sha256,
        pixelSizeUm,
        model: 'porosity',
        version: job.modelVersion,
        settings: job.settings,
        crop: null,
        maskSha256: null,
      });
    // no calibration: the key is the one it was before calibrations existed
    expect(key(null)).toBe(
      jobCacheKey({ imageSha256: row.sha256, model: 'porosity', version: job.modelVersion, settings: job.settings, crop: null, maskSha256: null }),
    );
    expect(key(0.5)).not.toBe(key(null));
    expect(key(0.5)).not.toBe(key(0.25));
    const [r] = await t.db
      .insert(results)
      .values({ items: [{ type: 'message', title: 't', content: 'c', status: 'info' }], measurements: {}, cacheKey: key(null) })
      .returning();
    await t.db.update(jobs).set({ status: 'FINISHED', resultId: r.id }).where(eq(jobs.id, job.id));
    expect((await f().job(u, { image: img, model: 'porosity' })).status).toBe('CACHED');

    await u.client.patch(`/api/images/${img.id}`, { pixelSizeUm: 0.5 });
    const rerun = await u.client.post('/api/jobs/rerun', { jobsIds: [job.id] });
    expect(rerun.status).toBe(200);
    expect(rerun.body[0].status).toBe('NEW');
    expect((await f().job(u, { image: img, model: 'porosity' })).status).toBe('NEW');
  });
});

describe('named calibrations /api/calibrations', () => {
  it('creates, lists (by name), renames, changes and deletes the own calibrations', async () => {
    const u = await f().user();
    const created = await u.client.post('/api/calibrations', { name: '  GX53 50× ', pixelSizeUm: 0.137 });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'GX53 50×', pixelSizeUm: 0.137 });
    await u.client.post('/api/calibrations', { name: 'A 10×', pixelSizeUm: 0.69 });
    const list = await u.client.get('/api/calibrations');
    expect(list.body.map((c: { name: string }) => c.name)).toEqual(['A 10×', 'GX53 50×']);
    const changed = await u.client.patch(`/api/calibrations/${created.body.id}`, { name: 'GX53 50x', pixelSizeUm: 0.14 });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ name: 'GX53 50x', pixelSizeUm: 0.14 });
    expect((await u.client.delete(`/api/calibrations/${created.body.id}`)).status).toBe(204);
    expect((await u.client.get('/api/calibrations')).body).toHaveLength(1);
  });

  it('authorization: anonymous 401, unverified 403, another user 404 (and sees none of them)', async () => {
    const a = await f().user();
    const b = await f().user();
    const { body: cal } = await a.client.post('/api/calibrations', { name: 'Mine', pixelSizeUm: 1.5 });
    const anon = t.client();
    expect((await anon.get('/api/calibrations')).status).toBe(401);
    expect((await anon.post('/api/calibrations', { name: 'x', pixelSizeUm: 1 })).status).toBe(401);
    expect((await anon.patch(`/api/calibrations/${cal.id}`, { name: 'x' })).status).toBe(401);
    expect((await anon.delete(`/api/calibrations/${cal.id}`)).status).toBe(401);
    const pending = await unverified();
    expect((await pending.get('/api/calibrations')).status).toBe(403);
    expect((await pending.post('/api/calibrations', { name: 'x', pixelSizeUm: 1 })).status).toBe(403);
    expect((await b.client.get('/api/calibrations')).body).toEqual([]);
    expect((await b.client.patch(`/api/calibrations/${cal.id}`, { name: 'stolen' })).status).toBe(404);
    expect((await b.client.delete(`/api/calibrations/${cal.id}`)).status).toBe(404);
    const [row] = await t.db.select().from(calibrations).where(eq(calibrations.id, cal.id));
    expect(row).toMatchObject({ name: 'Mine', pixelSizeUm: 1.5 });
  });

  it('refuses bad input with 400 naming each field, and changes nothing', async () => {
    const u = await f().user();
    const blank = await u.client.post('/api/calibrations', { name: '  ', pixelSizeUm: -1 });
    expect(blank.status).toBe(400);
    expect(blank.body.details.map((d: { field: string }) => d.field)).toEqual(['name', 'pixelSizeUm']);
    const missing = await u.client.post('/api/calibrations', { name: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body.details[0].field).toMatch(/pixelSizeUm/);
    expect((await u.client.post('/api/calibrations', { name: 'x'.repeat(101), pixelSizeUm: 1 })).status).toBe(400);
    expect((await u.client.post('/api/calibrations', { name: 'x', pixelSizeUm: 1, extra: 1 })).status).toBe(400);
    const { body: cal } = await u.client.post('/api/calibrations', { name: 'ok', pixelSizeUm: 2 });
    const bad = await u.client.patch(`/api/calibrations/${cal.id}`, { pixelSizeUm: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe('pixelSizeUm');
    expect((await u.client.patch('/api/calibrations/not-a-uuid', { name: 'x' })).status).toBe(400);
    const rows = await t.db.select().from(calibrations).where(eq(calibrations.ownerId, u.id));
    expect(rows.map((r) => [r.name, r.pixelSizeUm])).toEqual([['ok', 2]]);
  });
});
