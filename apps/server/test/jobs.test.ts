import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { Job, jobsApi } from '@lamella/contracts';
import { computeModels, images, jobs, licenses, projects, results } from '../src/platform/db/schema/index.ts';
import { jobCacheKey } from '../src/modules/jobs/cache-key.ts';
import { factories } from './factories.ts';
import { startTestApp, type TestApp } from './test-app.ts';

let t: TestApp;
let models: Record<string, string>;
beforeAll(async () => {
  t = await startTestApp();
  const rows = await t.db.select().from(computeModels);
  models = Object.fromEntries(rows.map((m) => [m.internalName, m.id]));
});
afterAll(() => t.close());

async function uploadImages(client: ReturnType<TestApp['client']>, n: number, seed = 0): Promise<string[]> {
  const form = new FormData();
  for (let i = 0; i < n; i++) {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: (seed * 31 + i * 7) % 256, g: i % 256, b: 9 } } })
      .png()
      .toBuffer();
    form.append('files', new Blob([png]), `img-${i}.png`);
  }
  const res = await client.request('POST', '/api/images', { form });
  expect(res.status).toBe(200);
  return res.body.map((i: { id: string }) => i.id);
}

describe('POST /api/jobs', () => {
  it('creates one job per image × model, queued (NEW), source WEB; API with an access key', async () => {
    const u = await t.signupVerified();
    const imgs = await uploadImages(u.client, 2, 1);
    const res = await u.client.post('/api/jobs', { imageIds: imgs, modelIds: [models['grain-size'], models.porosity] });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(4);
    expect(res.body.every((j: { status: string; source: string }) => j.status === 'NEW' && j.source === 'WEB')).toBe(true);
    expect(res.body[0]).toMatchObject({ model: { name: 'grain-size' }, modelVersion: '20261209', outdated: false, result: null });
    const key = await u.client.post('/api/access-keys', { name: 'script' });
    const api = t.client({ authorization: `Bearer ${key.body.code}` });
    const viaKey = await api.post('/api/jobs', { imageIds: [imgs[0]], modelIds: [models.cracks] });
    expect(viaKey.body[0].source).toBe('API');
  });

  it('counts distinct images against the DEMO license, runs as many new images as remain and refuses when none remain', async () => {
    const u = await t.signupVerified();
    await t.db.update(licenses).set({ images: 3 }).where(eq(licenses.userId, u.id));
    const imgs = await uploadImages(u.client, 4, 2);
    expect((await u.client.post('/api/jobs', { imageIds: imgs.slice(0, 2), modelIds: [models['grain-size'], models.porosity] })).status).toBe(200);
    // the same images again with another model cost nothing
    expect((await u.client.post('/api/jobs', { imageIds: imgs.slice(0, 2), modelIds: [models.cracks] })).status).toBe(200);
    // two new images, one unit left: the first runs (issue 24 item 7), the second does not
    const part = await u.client.post('/api/jobs', { imageIds: imgs.slice(2, 4), modelIds: [models['grain-size']] });
    expect(part.status).toBe(200);
    expect(part.body.map((j: { imageId: string }) => j.imageId)).toEqual([imgs[2]]);
    const mine = await t.db.select().from(jobs).where(eq(jobs.ownerId, u.id));
    expect(mine).toHaveLength(7);
    const [license] = await t.db.select().from(licenses).where(eq(licenses.userId, u.id));
    expect(license.used).toBe(3);
    const over = await u.client.post('/api/jobs', { imageIds: [imgs[3]], modelIds: [models['grain-size']] });
    expect(over.status).toBe(403);
    expect(over.body.code).toBe('LICENSE_LIMIT_EXCEEDED');
    expect(await t.db.select().from(jobs).where(eq(jobs.imageId, imgs[3]))).toEqual([]);
    // an image already counted still runs
    expect((await u.client.post('/api/jobs', { imageIds: [imgs[2]], modelIds: [models.porosity] })).status).toBe(200);
  });

  it('a role change never changes the license limit: a USER made EDITOR stays limited (issue 24 item 3)', async () => {
    const u = await t.signupVerified();
    await t.db.update(licenses).set({ images: 1 }).where(eq(licenses.userId, u.id));
    const imgs = await uploadImages(u.client, 3, 7);
    expect((await u.client.post('/api/jobs', { imageIds: [imgs[0]], modelIds: [models['grain-size']] })).status).toBe(200);
    const { users } = await import('../src/platform/db/schema/index.ts');
    for (const role of ['EDITOR', 'POWER_USER', 'USER'] as const) {
      await t.db.update(users).set({ role }).where(eq(users.id, u.id));
      const again = await u.client.post('/api/jobs', { imageIds: [imgs[1]], modelIds: [models['grain-size']] });
      expect(again.status, role).toBe(403);
      expect(again.body.code).toBe('LICENSE_LIMIT_EXCEEDED');
    }
    // and an expired license stays expired for an EDITOR
    await t.db.update(users).set({ role: 'EDITOR' }).where(eq(users.id, u.id));
    await t.db
      .update(licenses)
      .set({ images: 10, finishAt: new Date(Date.now() - 1000) })
      .where(eq(licenses.userId, u.id));
    expect((await u.client.post('/api/jobs', { imageIds: [imgs[2]], modelIds: [models['grain-size']] })).status).toBe(403);
    expect(await t.db.select().from(jobs).where(eq(jobs.imageId, imgs[2]))).toEqual([]);
  });

  it('refuses an expired license', async () => {
    const u = await t.signupVerified();
    await t.db
      .update(licenses)
      .set({ finishAt: new Date(Date.now() - 1000) })
      .where(eq(licenses.userId, u.id));
    const imgs = await uploadImages(u.client, 1, 3);
    const res = await u.client.post('/api/jobs', { imageIds: imgs, modelIds: [models['grain-size']] });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/expired/);
  });

  it("answers 404 for another user's image and for a model the user cannot see; 400 for bad bodies", async () => {
    const a = await t.signupVerified();
    const b = await t.signupVerified();
    const imgs = await uploadImages(a.client, 1, 4);
    expect((await b.client.post('/api/jobs', { imageIds: imgs, modelIds: [models['grain-size']] })).status).toBe(404);
    const [priv] = await t.db
      .insert(computeModels)
      .values({ internalName: `p-${Date.now()}`, routingPath: '/p', storagePath: 'p', displayName: 'P', version: '1', accessType: 'PRIVATE' })
      .returning();
    expect((await a.client.post('/api/jobs', { imageIds: imgs, modelIds: [priv.id] })).status).toBe(404);
    const empty = await a.client.post('/api/jobs', { imageIds: [], modelIds: [models['grain-size']] });
    expect(empty.status).toBe(400);
    expect(empty.body.details[0].field).toMatch(/imageIds/);
    expect((await a.client.post('/api/jobs', { imageIds: ['x'], modelIds: [models['grain-size']] })).status).toBe(400);
    const [bProject] = await t.db.insert(projects).values({ ownerId: b.id, name: 'B only' }).returning();
    expect((await a.client.post('/api/jobs', { imageIds: imgs, modelIds: [models['grain-size']], projectId: bProject.id })).status).toBe(404);
    const [aProject] = await t.db.insert(projects).values({ ownerId: a.id, name: 'Mine' }).returning();
    expect((await a.client.post('/api/jobs', { imageIds: imgs, modelIds: [models['grain-size']], projectId: aProject.id })).status).toBe(200);
  });

  it('answers identical input from an earlier result (CACHED)', async () => {
    const u = await t.signupVerified();
    const imgs = await uploadImages(u.client, 1, 5);
    const [first] = (await u.client.post('/api/jobs', { imageIds: imgs, modelIds: [models.porosity] })).body;
    // finish the first job as a launcher would
    const { jobCacheKey } = await import('../src/modules/jobs/cache-key.ts');
    const [job] = await t.db.select().from(jobs).where(eq(jobs.id, first.id));
    const { images } = await import('../src/platform/db/schema/index.ts');
    const [img] = await t.db.select().from(images).where(eq(images.id, job.imageId));
    const [r] = await t.db
      .insert(results)
      .values({
        items: [{ type: 'message', title: 't', content: 'c', status: 'info' }],
        measurements: { areaFractionPercent: 12.5 },
        cacheKey: jobCacheKey({
          imageSha256: img.sha256,
          model: 'porosity',
          version: job.modelVersion,
          settings: job.settings,
          crop: null,
          maskSha256: null,
        }),
      })
      .returning();
    await t.db.update(jobs).set({ status: 'FINISHED', resultId: r.id }).where(eq(jobs.id, job.id));
    // the same bytes uploaded again as another image
    const again = await uploadImages(u.client, 1, 5);
    const [second] = (await u.client.post('/api/jobs', { imageIds: again, modelIds: [models.porosity] })).body;
    expect(second.status).toBe('CACHED');
    expect(second.result.measurements).toEqual({ areaFractionPercent: 12.5 });
    // another model: not cached
    const [third] = (await u.client.post('/api/jobs', { imageIds: again, modelIds: [models.cracks] })).body;
    expect(third.status).toBe('NEW');
  });
});

describe('GET /api/jobs and job actions', () => {
  it('pages with x-total-count and x-page-size, filters by model, sorts, and hides archived and deleted jobs', async () => {
    const u = await t.signupVerified();
    const imgs = await uploadImages(u.client, 3, 6);
    await u.client.post('/api/jobs', { imageIds: imgs, modelIds: [models['grain-size']] });
    await u.client.post('/api/jobs', { imageIds: imgs.slice(0, 1), modelIds: [models.cracks] });
    const page1 = await u.client.get(`/api/jobs?archived=false&modelId=${models['grain-size']}&page=1&pageSize=2&sortBy=createdAt&sortOrder=desc`);
    expect(page1.status).toBe(200);
    expect(page1.headers.get('x-total-count')).toBe('3');
    expect(page1.headers.get('x-page-size')).toBe('2');
    expect(page1.body).toHaveLength(2);
    const page2 = await u.client.get(`/api/jobs?modelId=${models['grain-size']}&page=2&pageSize=2`);
    expect(page2.body).toHaveLength(1);
    const all = await u.client.get('/api/jobs?pageSize=10');
    expect(all.headers.get('x-total-count')).toBe('4');
    const asc = await u.client.get('/api/jobs?sortOrder=asc');
    expect(asc.body[0].id).toBe(all.body[3].id);

    expect((await u.client.post('/api/jobs/archive', { jobsIds: [all.body[0].id] })).body).toEqual({ archived: 1 });
    expect((await u.client.get('/api/jobs')).headers.get('x-total-count')).toBe('3');
    expect((await u.client.get('/api/jobs?archived=true')).body.map((j: { id: string }) => j.id)).toEqual([all.body[0].id]);
    expect((await u.client.post('/api/jobs/delete', { jobsIds: [all.body[1].id] })).body).toEqual({ deleted: 1 });
    expect((await u.client.get('/api/jobs')).headers.get('x-total-count')).toBe('2');
    expect((await u.client.get(`/api/jobs/${all.body[1].id}`)).status).toBe(404);
    expect((await u.client.get('/api/jobs?pageSize=1000')).status).toBe(400);
  });

  it('lists rows with a brief of the result (id, feedback, scalar measurements), the full result by id (issue 30)', async () => {
    const u = await t.signupVerified();
    const [imageId] = await uploadImages(u.client, 1, 11);
    const [created] = (await u.client.post('/api/jobs', { imageIds: [imageId], modelIds: [models['grain-size']] })).body;
    const histogram = { type: 'histogram', label: 'Grain areas', data: Array.from({ length: 400 }, (_, i) => ({ x: i, y: i * 3 })) };
    const [r] = await t.db
      .insert(results)
      .values({
        items: [{ type: 'data-table', rows: [{ label: 'ASTM grain size G (planimetric)', value: 8.31, unit: '' }] }, histogram],
        measurements: { astmGPlanimetric: 8.31, grainCount: 120, calibrationSource: 'user', areas: Array.from({ length: 400 }, (_, i) => i) },
        feedback: [{ name: 'scaleBar', value: true, score: 1 }],
      })
      .returning();
    await t.db.update(jobs).set({ status: 'FINISHED', resultId: r.id, finishedAt: new Date() }).where(eq(jobs.id, created.id));

    const list = await u.client.call(jobsApi.list, { query: {} });
    expect(list.status).toBe(200);
    const [row] = list.body;
    expect(row.id).toBe(created.id);
    expect(row.resultId).toBe(r.id);
    // the brief: what the row shows (its key value, the feedback flags), not the items or list-valued measurements
    expect(row.result).toEqual({
      id: r.id,
      feedback: [{ name: 'scaleBar', value: true, score: 1 }],
      measurements: { astmGPlanimetric: 8.31, grainCount: 120, calibrationSource: 'user' },
    });
    expect(Object.keys(row).sort()).toEqual(Object.keys(Job.properties).sort());
    // the full result with the job by id, and by the result's id
    const full = await u.client.ok(jobsApi.get, { params: { id: created.id } });
    expect(full.result?.results).toHaveLength(2);
    expect(full.result?.measurements.areas).toHaveLength(400);
    expect((await u.client.ok(jobsApi.result, { params: { resultId: r.id } })).results).toHaveLength(2);
    // a page of 100 such rows stays small: the row is smaller than its full job
    expect(JSON.stringify(row).length).toBeLessThan(JSON.stringify(full).length / 4);
  });

  it("answers 404 for every address of another user's job, and refuses bulk actions on it", async () => {
    const a = await t.signupVerified();
    const b = await t.signupVerified();
    const imgs = await uploadImages(a.client, 1, 7);
    const [job] = (await a.client.post('/api/jobs', { imageIds: imgs, modelIds: [models['grain-size']] })).body;
    expect((await b.client.get(`/api/jobs/${job.id}`)).status).toBe(404);
    expect((await b.client.get(`/api/jobs/${job.id}/error`)).status).toBe(404);
    expect((await b.client.post('/api/jobs/rerun', { jobsIds: [job.id] })).status).toBe(404);
    expect((await b.client.post('/api/jobs/archive', { jobsIds: [job.id] })).status).toBe(404);
    expect((await b.client.post('/api/jobs/delete', { jobsIds: [job.id] })).status).toBe(404);
    expect((await b.client.post('/api/feedback', { jobId: job.id, rating: 4 })).status).toBe(404);
    expect((await b.client.post('/api/issue-reports', { jobId: job.id, details: 'x' })).status).toBe(404);
    expect((await b.client.get(`/api/jobs/export?jobsIds=${job.id}`)).status).toBe(404);
    expect((await a.client.get(`/api/jobs/${job.id}`)).status).toBe(200);
  });

  it('re-runs with a crop clamped to the image, or refuses crop with masks together', async () => {
    const u = await t.signupVerified();
    const imgs = await uploadImages(u.client, 1, 8);
    const [job] = (await u.client.post('/api/jobs', { imageIds: imgs, modelIds: [models['grain-size']] })).body;
    const rerun = await u.client.post('/api/jobs/rerun', { jobsIds: [job.id], withCrop: { x: 10, y: 20, width: 500, height: 30 } });
    expect(rerun.status).toBe(200);
    expect(rerun.body[0].crop).toEqual({ x: 10, y: 20, width: 54, height: 30 });
    const both = await u.client.post('/api/jobs/rerun', { jobsIds: [job.id], withCrop: { x: 0, y: 0, width: 5, height: 5 }, withUserMasks: true });
    expect(both.status).toBe(400);
    const noMask = await u.client.post('/api/jobs/rerun', { jobsIds: [job.id], withUserMasks: true });
    expect(noMask.body.code).toBe('NO_MASK');
  });

  it('keeps a rating per user and job (1 to 5) and takes issue reports', async () => {
    const u = await t.signupVerified();
    const imgs = await uploadImages(u.client, 1, 9);
    const [job] = (await u.client.post('/api/jobs', { imageIds: imgs, modelIds: [models['grain-size']] })).body;
    expect((await u.client.post('/api/feedback', { jobId: job.id, rating: 0 })).status).toBe(400);
    expect((await u.client.post('/api/feedback', { jobId: job.id, rating: 4, comment: 'good' })).status).toBe(200);
    expect((await u.client.post('/api/feedback', { jobId: job.id, rating: 5 })).status).toBe(200);
    expect((await u.client.get(`/api/jobs/${job.id}`)).body.userFeedback).toEqual({ rating: 5, comment: null });
    const blank = await u.client.post('/api/issue-reports', { jobId: job.id, details: '  ' });
    expect(blank.status).toBe(400);
    const ok = await u.client.post('/api/issue-reports', {
      jobId: job.id,
      calculationDate: job.createdAt,
      modelName: 'Grain size',
      modelVersion: job.modelVersion,
      details: 'The boundary at the top left is missed.',
    });
    expect(ok.body.status).toBe('OK');
  });

  it('exports selected results as CSV with the user decimal separator', async () => {
    const u = await t.signupVerified();
    const imgs = await uploadImages(u.client, 1, 10);
    const [job] = (await u.client.post('/api/jobs', { imageIds: imgs, modelIds: [models.porosity] })).body;
    const [r] = await t.db
      .insert(results)
      .values({ items: [], measurements: { areaFractionPercent: 12.5, poreCount: 7 } })
      .returning();
    await t.db.update(jobs).set({ status: 'FINISHED', resultId: r.id }).where(eq(jobs.id, job.id));
    const comma = await u.client.get(`/api/jobs/export?jobsIds=${job.id}`);
    expect(comma.headers.get('content-type')).toMatch(/text\/csv/);
    const lines = String(comma.body).replace('\uFEFF', '').trim().split('\r\n');
    // readable headers with units, the user's decimal comma (`;` between fields), counts as integers
    expect(lines[0]).toBe('Job;Image;Model;Model version;Status;Created;Area fraction (%);Pore count');
    expect(lines[1]).toMatch(/;12,5;7$/);
    await u.client.patch('/api/users/me', { csvDecimalSeparator: 'dot' });
    const dot = await u.client.get(`/api/jobs/export?jobsIds=${job.id}`);
    expect(String(dot.body).trim().split('\r\n')[1]).toMatch(/,12\.5,7$/);
  });
});

describe('sandbox', () => {
  it('runs models on one image as SANDBOX jobs, kept out of the results list and exports', async () => {
    const u = await t.signupVerified();
    const imgs = await uploadImages(u.client, 1, 11);
    const res = await u.client.post('/api/sandbox', { imageId: imgs[0], modelsIds: [models['grain-size'], models.porosity], source: 'SANDBOX' });
    expect(res.status).toBe(200);
    expect(res.body.map((j: { source: string }) => j.source)).toEqual(['SANDBOX', 'SANDBOX']);
    expect((await u.client.get('/api/sandbox')).body).toHaveLength(2);
    expect((await u.client.get('/api/jobs')).body).toHaveLength(0);
    expect((await u.client.get(`/api/jobs/export?jobsIds=${res.body[0].id}`)).status).toBe(404);
  });

  it('keeps params and versions for ADMIN, and makes every combination of the variables', async () => {
    const u = await t.signupVerified();
    const imgs = await uploadImages(u.client, 1, 12);
    const forbidden = await u.client.post('/api/sandbox', { imageId: imgs[0], modelsIds: [models['grain-size']], versions: ['20241025'] });
    expect(forbidden.status).toBe(403);
    const { client: admin } = await t.signin('admin@lamella.test', 'Admin-Password-1');
    const form = new FormData();
    form.append(
      'files',
      new Blob([
        await sharp({ create: { width: 32, height: 32, channels: 3, background: '#888' } })
          .png()
          .toBuffer(),
      ]),
      'a.png',
    );
    const [img] = (await admin.request('POST', '/api/images', { form })).body;
    const ident = await admin.post('/api/sandbox', {
      imageId: img.id,
      modelsIds: [models['layer-thickness']],
      params: {
        variables: [
          { key: 'layer.threshold', vals: ['0.4, 0.5 0.6'] },
          { key: 'layer.histogramBins', vals: ['10,20'] },
        ],
      },
    });
    expect(ident.status).toBe(200);
    expect(ident.body).toHaveLength(6);
    expect(ident.body[0].source).toBe('IDENTIFICATION');
    expect(ident.body.map((j: { customization: { config: { layer: unknown } } }) => j.customization.config.layer)).toContainEqual({
      threshold: 0.6,
      histogramBins: 20,
    });
    const versions = await admin.post('/api/sandbox', {
      imageId: img.id,
      modelsIds: [models['grain-size']],
      versions: ['20261125', '20261126', '20261127', '20261201', '20261202', '20261203', '20261204', '20261207', '20261208', '20261209'],
    });
    expect(versions.body.map((j: { modelVersion: string; outdated: boolean }) => [j.modelVersion, j.outdated])).toEqual([
      ['20261125', true],
      ['20261126', true],
      ['20261127', true],
      ['20261201', true],
      ['20261202', true],
      ['20261203', true],
      ['20261204', true],
      ['20261207', true],
      ['20261208', true],
      ['20261209', false],
    ]);
    // one more version than a run compares: refused, naming the field
    const tooMany = await admin.post('/api/sandbox', {
      imageId: img.id,
      modelsIds: [models['grain-size']],
      versions: ['20261123', '20261125', '20261126', '20261127', '20261201', '20261202', '20261203', '20261204', '20261207', '20261208', '20261209'],
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(tooMany.body.details)).toContain('versions');
    const noName = await admin.post('/api/sandbox', {
      imageId: img.id,
      modelsIds: [models['grain-size']],
      params: { variables: [{ key: ' ', vals: ['1'] }] },
    });
    expect(noName.status).toBe(400);
    expect(noName.body.details[0].message).toBe('Variable name is required');
  });
});

describe('hardening (issue 9 items 7 and 10)', () => {
  const f = () => factories(t);

  it('neutralises formula cells in the jobs CSV and keeps numbers as numbers', async () => {
    const u = await f().user();
    const image = await f().image(u, { filename: '=1+2;x.png', level: 13 });
    const job = await f().job(u, { image, model: 'porosity' });
    const [r] = await t.db
      .insert(results)
      .values({ items: [], measurements: { areaFractionPercent: -12.5, note: '+SUM(1,2)', at: '@cmd' } })
      .returning();
    await t.db.update(jobs).set({ status: 'FINISHED', resultId: r.id }).where(eq(jobs.id, job.id));
    const res = await u.client.call(jobsApi.export, { query: { jobsIds: [job.id] } });
    expect(res.status).toBe(200);
    const [header, line] = String(res.body).replace('\uFEFF', '').trim().split('\r\n');
    expect(header).toBe('Job;Image;Model;Model version;Status;Created;Area fraction (%);at;note');
    const cells = line.split(';');
    expect(cells[0]).toBe(job.id);
    expect(line).toContain(`;"'=1+2;x.png";`);
    // a negative number stays a number; text starting with + or @ is prefixed
    expect(cells.slice(-3)).toEqual(['-12,5', "'@cmd", "'+SUM(1,2)"]);
  });

  it('answers 4xx, never 500, for prototype member names as result file names or sort keys', async () => {
    const u = await f().user();
    const job = await f().job(u, { model: 'porosity' });
    const [r] = await t.db
      .insert(results)
      .values({ items: [], files: { 'overlay.png': 'nowhere' } })
      .returning();
    await t.db.update(jobs).set({ status: 'FINISHED', resultId: r.id }).where(eq(jobs.id, job.id));
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', '__defineGetter__']) {
      const res = await u.client.get(`/api/jobs/results/${r.id}/${name}`);
      expect(res.status, name).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    expect((await u.client.get(`/api/jobs/results/${r.id}/a%00b.png`)).status).toBe(400);
    for (const key of ['constructor', '__proto__', 'toString']) {
      const res = await u.client.get(`/api/jobs?sortBy=${key}`);
      expect(res.status, key).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    expect(await u.client.ok(jobsApi.result, { params: { resultId: r.id } })).toMatchObject({ id: r.id, files: ['overlay.png'] });
  });

  it("answers identical input from the owner's own results only (another user's result has their language)", async () => {
    const a = await f().user();
    const b = await f().user();
    await b.client.patch('/api/users/me', { language: 'de' });
    const imgA = await f().image(a, { level: 15 });
    const imgB = await f().image(b, { level: 15 });
    const first = await f().job(a, { image: imgA, model: 'porosity' });
    const [job] = await t.db.select().from(jobs).where(eq(jobs.id, first.id));
    const [img] = await t.db.select().from(images).where(eq(images.id, imgA.id));
    const [r] = await t.db
      .insert(results)
      .values({
        items: [{ type: 'message', title: 'Pores', content: 'English text', status: 'info' }],
        cacheKey: jobCacheKey({
          imageSha256: img.sha256,
          model: 'porosity',
          version: job.modelVersion,
          settings: job.settings,
          crop: null,
          maskSha256: null,
        }),
      })
      .returning();
    await t.db.update(jobs).set({ status: 'FINISHED', resultId: r.id }).where(eq(jobs.id, job.id));
    const forB = await f().job(b, { image: imgB, model: 'porosity' });
    expect(forB.status).toBe('NEW');
    expect(forB.result).toBeNull();
    const forA = await f().job(a, { image: imgA, model: 'porosity' });
    expect(forA.status).toBe('CACHED');
    expect(forA.result?.results[0]).toMatchObject({ type: 'message', content: 'English text' });
  });

  it('answers 401 to anonymous callers of every jobs and feedback call', async () => {
    const anon = t.client();
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [method, path] of [
      ['GET', '/api/jobs'],
      ['POST', '/api/jobs'],
      ['POST', '/api/jobs/rerun'],
      ['POST', '/api/jobs/archive'],
      ['POST', '/api/jobs/unarchive'],
      ['POST', '/api/jobs/delete'],
      ['GET', `/api/jobs/export?jobsIds=${id}`],
      ['GET', `/api/jobs/${id}`],
      ['GET', `/api/jobs/${id}/error`],
      ['GET', `/api/jobs/results/${id}`],
      ['GET', `/api/jobs/results/${id}/overlay.png`],
      ['POST', '/api/feedback'],
      ['POST', '/api/issue-reports'],
    ] as const) {
      expect((await anon.request(method, path, method === 'POST' ? { json: {} } : {})).status, `${method} ${path}`).toBe(401);
    }
  });

  it("lets ADMIN read any user's job, and answers the contract's shape", async () => {
    const u = await f().user();
    const job = await f().job(u, { model: 'porosity' });
    const { client: admin } = await f().admin();
    const read = await admin.ok(jobsApi.get, { params: { id: job.id } });
    expect(Object.keys(read).sort()).toEqual(Object.keys(Job.properties).sort());
    expect(await admin.ok(jobsApi.error, { params: { id: job.id } })).toEqual({ error: null });
  });
});
