/**
 * User masks (user-app.md §4 mask editor, §7 POST /masks and GET /masks/{id}/image): saved by the job's owner or
 * JOB.WRITE holders, PNG or JPEG by content at the image's size, served only to those who may edit them; re-run
 * with masks uses the latest one. Every refusal leaves nothing behind (no row, no file).
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { computeModels, jobs, masks, privileges, users } from '../src/platform/db/schema/index.ts';
import { startTestApp, type TestApp } from './test-app.ts';
import type { HttpClient } from './http-client.ts';

let t: TestApp;
let grain: string;
beforeAll(async () => {
  t = await startTestApp();
  [{ id: grain }] = await t.db.select({ id: computeModels.id }).from(computeModels).where(eq(computeModels.internalName, 'grain-size'));
});
afterAll(() => t.close());

/** A one-channel label image, every pixel `fill`. */
const png = (width: number, height: number, fill = 0) =>
  sharp(Buffer.alloc(width * height, fill), { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();

async function jobOf(client: HttpClient) {
  const form = new FormData();
  form.append(
    'files',
    new Blob([
      await sharp({ create: { width: 120, height: 80, channels: 3, background: { r: 90, g: 90, b: 90 } } })
        .png()
        .toBuffer(),
    ]),
    'm.png',
  );
  const img = await client.request('POST', '/api/images', { form });
  const [job] = (await client.post('/api/jobs', { imageIds: [img.body[0].id], modelIds: [grain] })).body;
  return job as { id: string };
}

function maskForm(file: Buffer | null, fields: Record<string, string>) {
  const form = new FormData();
  if (file) form.append('files', new Blob([file]), 'mask.png');
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
}

async function maskFiles(): Promise<number> {
  const dir = join(t.dataDir, 'files', 'masks');
  const owners = await readdir(dir).catch(() => [] as string[]);
  let n = 0;
  for (const o of owners) n += (await readdir(join(dir, o))).length;
  return n;
}

describe('masks', () => {
  it('saves a PNG or JPEG mask of the image size and serves it back as PNG', async () => {
    const u = await t.signupVerified();
    const job = await jobOf(u.client);
    const res = await u.client.request('POST', '/api/masks', { form: maskForm(await png(120, 80, 1), { jobId: job.id, label: 'grains' }) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ label: 'grains', jobId: job.id, isSubmitted: true, parentId: null });
    const image = await u.client.get(`/api/masks/${res.body.id}/image`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toContain('image/png');
    expect((await sharp(image.buffer).metadata()).width).toBe(120);
    const jpeg = await sharp({ create: { width: 120, height: 80, channels: 3, background: { r: 0, g: 0, b: 0 } } })
      .jpeg()
      .toBuffer();
    const second = await u.client.request('POST', '/api/masks', { form: maskForm(jpeg, { jobId: job.id, parentId: res.body.id }) });
    expect(second.status).toBe(200);
    expect(second.body.parentId).toBe(res.body.id);
    // re-run with masks takes the latest mask
    const [rerun] = (await u.client.post('/api/jobs/rerun', { jobsIds: [job.id], withUserMasks: true })).body;
    const [row] = await t.db.select().from(jobs).where(eq(jobs.id, rerun.id));
    expect(row.maskId).toBe(second.body.id);
  });

  it('refuses bad masks with a field-named error and stores nothing', async () => {
    const u = await t.signupVerified();
    const job = await jobOf(u.client);
    const before = { rows: (await t.db.select().from(masks)).length, files: await maskFiles() };
    const missing = await u.client.request('POST', '/api/masks', { form: maskForm(null, {}) });
    expect(missing.status).toBe(400);
    expect(missing.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['files', 'jobId']);
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'binary');
    const unsupported = await u.client.request('POST', '/api/masks', { form: maskForm(gif, { jobId: job.id }) });
    expect(unsupported.status).toBe(415);
    expect(unsupported.body.details[0].field).toBe('files');
    const wrongSize = await u.client.request('POST', '/api/masks', { form: maskForm(await png(60, 40), { jobId: job.id }) });
    expect(wrongSize.status).toBe(400);
    expect(wrongSize.body.code).toBe('MASK_INVALID');
    const truncated = (await png(120, 80)).subarray(0, 40);
    expect((await u.client.request('POST', '/api/masks', { form: maskForm(truncated, { jobId: job.id }) })).status).toBe(400);
    expect({ rows: (await t.db.select().from(masks)).length, files: await maskFiles() }).toEqual(before);
    // re-run with masks when there is none, and crop together with masks
    const none = await u.client.post('/api/jobs/rerun', { jobsIds: [job.id], withUserMasks: true });
    expect(none.status).toBe(400);
    expect(none.body.code).toBe('NO_MASK');
    const both = await u.client.post('/api/jobs/rerun', { jobsIds: [job.id], withUserMasks: true, withCrop: { x: 0, y: 0, width: 60, height: 60 } });
    expect(both.status).toBe(400);
    expect(both.body.details[0].field).toBe('withUserMasks');
  });

  it("answers 404 to another user for the job's masks and the mask image; access follows job access (JOB.READ reads, JOB.WRITE saves)", async () => {
    const owner = await t.signupVerified();
    const job = await jobOf(owner.client);
    const saved = await owner.client.request('POST', '/api/masks', { form: maskForm(await png(120, 80, 1), { jobId: job.id }) });
    const other = await t.signupVerified();
    expect((await other.client.get(`/api/masks/${saved.body.id}/image`)).status).toBe(404);
    expect((await other.client.request('POST', '/api/masks', { form: maskForm(await png(120, 80, 1), { jobId: job.id }) })).status).toBe(404);
    expect((await t.client().get(`/api/masks/${saved.body.id}/image`)).status).toBe(401);
    /** A user with `role` and `grants` (privileges), signed in again so both apply. */
    const staff = async (role: 'EDITOR' | 'POWER_USER' | 'ADMIN', grants: Array<'JOB.READ' | 'JOB.WRITE'> = []) => {
      const u = await t.signupVerified();
      await t.db.update(users).set({ role }).where(eq(users.id, u.id));
      for (const g of grants) {
        const [resource, action] = g.split('.');
        await t.db.insert(privileges).values({ userId: u.id, resource: resource!, action: action! });
      }
      return (await t.signin(u.email, u.password)).client;
    };
    const tryAll = async (c: HttpClient) => [
      (await c.get(`/api/masks/${saved.body.id}/image`)).status,
      (await c.request('POST', '/api/masks', { form: maskForm(await png(120, 80, 1), { jobId: job.id, parentId: saved.body.id }) })).status,
    ];
    // issue 28 item 9: no job access, no masks of others (a POWER_USER without privileges); an EDITOR edits masks
    // (back-office.md: the mask editor is for ADMIN, POWER_USER and EDITOR; issue 26 item 2)
    expect(await tryAll(await staff('EDITOR'))).toEqual([200, 200]);
    expect(await tryAll(await staff('POWER_USER'))).toEqual([404, 404]);
    expect(await tryAll(await staff('POWER_USER', ['JOB.READ']))).toEqual([200, 404]);
    expect(await tryAll(await staff('POWER_USER', ['JOB.READ', 'JOB.WRITE']))).toEqual([200, 200]);
    // ADMIN corrects the owner's segmentation in the mask editor; the mask belongs to the job's owner
    const admin = await staff('ADMIN');
    const byAdmin = await admin.request('POST', '/api/masks', { form: maskForm(await png(120, 80, 1), { jobId: job.id, parentId: saved.body.id }) });
    expect(byAdmin.status).toBe(200);
    const [row] = await t.db.select().from(masks).where(eq(masks.id, byAdmin.body.id));
    expect(row.ownerId).toBe(owner.id);
  });

  it('refuses a control character in a field (400, not 500) and an over-large mask file (413), leaving nothing', async () => {
    const u = await t.signupVerified();
    const job = await jobOf(u.client);
    const before = { rows: (await t.db.select().from(masks)).length, files: await maskFiles() };
    const nul = await u.client.request('POST', '/api/masks', { form: maskForm(await png(120, 80, 1), { jobId: job.id, label: 'bad\u0000label' }) });
    expect(nul.status).toBe(400);
    expect(nul.body).toMatchObject({ code: 'INVALID_FIELD', details: [{ field: 'label' }] });
    const limit = t.config.maxUploadMb;
    t.config.maxUploadMb = 0.001;
    try {
      const big = await u.client.request('POST', '/api/masks', { form: maskForm(Buffer.alloc(4096, 7), { jobId: job.id }) });
      expect(big.status).toBe(413);
      expect(big.body.code).toBe('FILE_TOO_LARGE');
    } finally {
      t.config.maxUploadMb = limit;
    }
    expect({ rows: (await t.db.select().from(masks)).length, files: await maskFiles() }).toEqual(before);
    expect(await readdir(join(t.dataDir, 'tmp', 'uploads'))).toEqual([]);
  });
});
