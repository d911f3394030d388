/**
 * The sandbox (user-app.md §4): one image, models; its jobs are listed for 24 hours under /sandbox and not with
 * the user's results. Params and versions are for ADMIN only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { Job } from '@lamella/contracts';
import { computeModels, jobs } from '../src/platform/db/schema/index.ts';
import { ADMIN, startTestApp, type TestApp } from './test-app.ts';
import type { HttpClient } from './http-client.ts';

let t: TestApp;
let model: string;
beforeAll(async () => {
  t = await startTestApp();
  [{ id: model }] = await t.db.select({ id: computeModels.id }).from(computeModels).where(eq(computeModels.internalName, 'grain-size'));
});
afterAll(() => t.close());

async function imageOf(client: HttpClient): Promise<string> {
  const form = new FormData();
  form.append(
    'files',
    new Blob([
      await sharp({ create: { width: 64, height: 48, channels: 3, background: '#777' } })
        .png()
        .toBuffer(),
    ]),
    's.png',
  );
  return (await client.request('POST', '/api/images', { form })).body[0].id;
}

describe('sandbox', () => {
  it('runs models on one image; lists its jobs for the owner only; keeps them out of the results list', async () => {
    const u = await t.signupVerified();
    const imageId = await imageOf(u.client);
    const run = await u.client.post<Job[]>('/api/sandbox', { imageId, modelsIds: [model] });
    expect(run.status).toBe(200);
    expect(run.body).toHaveLength(1);
    expect(run.body[0]).toMatchObject({ source: 'SANDBOX', imageId, modelId: model });
    const list = await u.client.get<Job[]>('/api/sandbox');
    expect(list.status).toBe(200);
    expect(list.body.map((j) => j.id)).toEqual([run.body[0].id]);
    expect((await u.client.get<Job[]>('/api/jobs')).body.map((j) => j.id)).not.toContain(run.body[0].id);

    const other = await t.signupVerified();
    expect((await other.client.get<Job[]>('/api/sandbox')).body).toEqual([]);
    expect((await other.client.post('/api/sandbox', { imageId, modelsIds: [model] })).status).toBe(404);
    expect((await t.client().get('/api/sandbox')).status).toBe(401);
    expect((await t.client().post('/api/sandbox', { imageId, modelsIds: [model] })).status).toBe(401);
  });

  it('params and versions are for ADMIN only; bad input is a 400 naming the field and creates no job', async () => {
    const u = await t.signupVerified();
    const imageId = await imageOf(u.client);
    const params = { variables: [{ key: 'segmentation.minScore', vals: ['0.3, 0.4'] }] };
    expect((await u.client.post('/api/sandbox', { imageId, modelsIds: [model], params })).status).toBe(403);
    expect((await u.client.post('/api/sandbox', { imageId, modelsIds: [model], versions: ['20241025'] })).status).toBe(403);
    const missing = await u.client.post('/api/sandbox', { imageId, modelsIds: [] });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('VALIDATION_FAILED');

    const admin = (await t.signin(ADMIN.email, ADMIN.password)).client;
    const adminImage = await imageOf(admin);
    const noKey = await admin.post('/api/sandbox', { imageId: adminImage, modelsIds: [model], params: { variables: [{ key: ' ', vals: ['1'] }] } });
    expect(noKey.status).toBe(400);
    expect(noKey.body.details[0].field).toBe('params.variables.0.key');
    const identified = await admin.post<Job[]>('/api/sandbox', { imageId: adminImage, modelsIds: [model], params });
    expect(identified.status).toBe(200);
    expect(identified.body.map((j) => j.source)).toEqual(['IDENTIFICATION', 'IDENTIFICATION']);
    expect((await t.db.select().from(jobs).where(eq(jobs.ownerId, u.id))).length).toBe(0);
  });
});
