import ExcelJS from 'exceljs';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobsApi, projectsApi, type Image, type Job } from '@lamella/contracts';
import { jobs, results } from '../src/platform/db/schema/index.ts';
import { factories, type Factories, type TestUser } from './factories.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * Issue 24 items 2 and 5 over HTTP: the chosen fields of a project (accepted jobs locked, jobs outside the project
 * never count) and the review of a shared project (members read the project's jobs, results, overlays and job
 * reports; ratings and writes stay the owner's), with the authorization matrix owner, EDITOR, VIEWER, stranger.
 * Jobs are finished by writing their result as a launcher would (no launcher runs here).
 */
let t: TestApp;
let f: Factories;
beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
});
afterAll(() => t.close());

let overlayKey = '';
/** Finishes a queued job with these measurements and an overlay image, as a launcher's result would. */
async function finish(job: Job, measurements: Record<string, unknown>, at = new Date()): Promise<void> {
  if (!overlayKey) {
    overlayKey = 'test/overlay.png';
    await t.storage.put(
      overlayKey,
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#ff0000' } })
        .png()
        .toBuffer(),
    );
  }
  const [r] = await t.db
    .insert(results)
    .values({
      items: [
        { type: 'image', filename: 'overlay.png', title: 'Grain boundaries' },
        { type: 'data-table', title: 'Results', rows: [{ label: 'G', value: 7, unit: '' }] },
      ],
      measurements,
      files: { 'overlay.png': overlayKey },
    })
    .returning();
  await t.db.update(jobs).set({ status: 'FINISHED', resultId: r.id, startedAt: at, finishedAt: at, createdAt: at }).where(eq(jobs.id, job.id));
}

const grain = (nA: number, lUm: number) => ({
  grainsPerMm2: nA,
  meanInterceptUm: lUm,
  astmGPlanimetric: 3.321928 * Math.log10(nA) - 2.954,
  astmGIntercept: -6.643856 * Math.log10(lUm / 1000) - 3.288,
  pixelSizeUm: 0.5,
  calibrationSource: 'user',
});

async function run(u: TestUser, image: Image, model: string, projectId: string | null): Promise<Job> {
  const [job] = await u.client.ok(jobsApi.create, { body: { imageIds: [image.id], modelIds: [await f.modelId(model)], projectId } });
  return job;
}

async function setup() {
  const [owner, editor, viewer, stranger] = await Promise.all([f.user(), f.user(), f.user(), f.user()]);
  const project = await owner.client.ok(projectsApi.create, { body: { name: 'Specimen 24' } });
  await owner.client.ok(projectsApi.share, { params: { id: project.id }, body: { email: editor.email, role: 'EDITOR' } });
  await owner.client.ok(projectsApi.share, { params: { id: project.id }, body: { email: viewer.email, role: 'VIEWER' } });
  // a share is an invitation until the invitee accepts (issue 28 item 4)
  for (const u of [editor, viewer])
    for (const i of await u.client.ok(projectsApi.myInvitations)) await u.client.ok(projectsApi.acceptInvitation, { params: { id: i.id } });
  const images = [];
  for (const level of [60, 90, 120]) images.push(await f.image(owner, { filename: `field-${level}.png`, level }));
  await owner.client.ok(projectsApi.addImages, { params: { id: project.id }, body: { imageIds: images.map((i) => i.id) } });
  return { owner, editor, viewer, stranger, project, images };
}

const workbook = async (data: Buffer) => {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(data as unknown as ArrayBuffer);
  return wb;
};
const rowsOf = (ws: ExcelJS.Worksheet) => {
  const rows: unknown[][] = [];
  ws.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
  return rows;
};

describe('review in a shared project', () => {
  it('owner, EDITOR and VIEWER read the project’s job, result, overlay, job report and image; a stranger gets 404 on each', async () => {
    const { owner, editor, viewer, stranger, project, images } = await setup();
    const job = await run(owner, images[0], 'grain-size', project.id);
    await finish(job, grain(1200, 22));
    const full = await owner.client.ok(jobsApi.get, { params: { id: job.id } });
    const resultId = full.resultId!;
    const paths = [
      `/api/jobs/${job.id}`,
      `/api/jobs/${job.id}/error`,
      `/api/jobs/results/${resultId}`,
      `/api/jobs/results/${resultId}/overlay.png`,
      `/api/jobs/${job.id}/report?format=pdf`,
      `/api/jobs/${job.id}/report?format=xlsx`,
      `/api/projects/${project.id}/images/${images[0].id}/display`,
      `/api/projects/${project.id}/fields`,
      `/api/projects/${project.id}/report?format=xlsx`,
    ];
    for (const path of paths) {
      for (const [who, u] of [
        ['owner', owner],
        ['editor', editor],
        ['viewer', viewer],
      ] as const)
        expect([who, path, (await u.client.request('GET', path)).status]).toEqual([who, path, 200]);
      expect(['stranger', path, (await stranger.client.request('GET', path)).status]).toEqual(['stranger', path, 404]);
      expect((await t.client().request('GET', path)).status).toBe(401);
    }
    const seen = await viewer.client.ok(jobsApi.get, { params: { id: job.id } });
    expect(seen).toMatchObject({ id: job.id, status: 'FINISHED', result: { measurements: { grainsPerMm2: 1200 } } });
  });

  it('read-only: members cannot rate, re-run, archive or delete the owner’s job; the rating stays the owner’s', async () => {
    const { owner, editor, viewer, project, images } = await setup();
    const job = await run(owner, images[0], 'grain-size', project.id);
    await finish(job, grain(1200, 22));
    for (const u of [editor, viewer]) {
      expect((await u.client.request('POST', '/api/feedback', { json: { jobId: job.id, rating: 1 } })).status).toBe(404);
      expect((await u.client.request('POST', '/api/jobs/rerun', { json: { jobsIds: [job.id] } })).status).toBe(404);
      expect((await u.client.request('POST', '/api/jobs/archive', { json: { jobsIds: [job.id] } })).status).toBe(404);
      expect((await u.client.request('POST', '/api/jobs/delete', { json: { jobsIds: [job.id] } })).status).toBe(404);
    }
    expect((await owner.client.request('POST', '/api/feedback', { json: { jobId: job.id, rating: 5 } })).status).toBe(200);
    expect((await viewer.client.ok(jobsApi.get, { params: { id: job.id } })).userFeedback).toMatchObject({ rating: 5 });
    expect((await owner.client.ok(jobsApi.get, { params: { id: job.id } })).archived).toBe(false);
  });

  it('jobs outside the project stay private: a run of the same image elsewhere is 404 to members and not among the fields', async () => {
    const { owner, editor, viewer, project, images } = await setup();
    const inside = await run(owner, images[0], 'grain-size', project.id);
    await finish(inside, grain(1200, 22));
    const outside = await run(owner, images[0], 'cracks', null);
    await finish(outside, { crackCount: 3, totalLengthUm: 120 });
    for (const u of [editor, viewer]) expect((await u.client.call(jobsApi.get, { params: { id: outside.id } })).status).toBe(404);
    const fields = await viewer.client.ok(projectsApi.fields, { params: { id: project.id } });
    expect(fields.map((x) => x.orginalFilename)).toEqual(['field-60.png', 'field-90.png', 'field-120.png']);
    expect(fields[0].models.map((m) => [m.modelName, m.job?.id])).toEqual([['grain-size', inside.id]]);
    const [held] = (await viewer.client.ok(projectsApi.images, { params: { id: project.id } })).filter((i) => i.id === images[0].id);
    expect(held.jobs.map((j) => j.id)).toEqual([inside.id]);
    // an image taken out of the project takes its jobs out of the members' reach
    await owner.client.ok(projectsApi.removeImage, { params: { id: project.id, imageId: images[0].id } });
    expect((await viewer.client.call(jobsApi.get, { params: { id: inside.id } })).status).toBe(404);
  });
});

describe('chosen fields', () => {
  it('by default the newest finished job of the project; an accepted job is locked until another is accepted or it is released', async () => {
    const { owner, editor, viewer, stranger, project, images } = await setup();
    const model = await f.modelId('grain-size');
    const first = await run(owner, images[0], 'grain-size', project.id);
    await finish(first, grain(1200, 22), new Date(Date.now() - 60_000));
    const second = await run(owner, images[0], 'grain-size', project.id);
    await finish(second, grain(1300, 21), new Date(Date.now() - 30_000));
    const queued = await run(owner, images[0], 'grain-size', project.id);
    const ofImage = async (u: TestUser) => (await u.client.ok(projectsApi.fields, { params: { id: project.id } }))[0].models[0];
    expect(await ofImage(viewer)).toMatchObject({ job: { id: second.id, values: { grainsPerMm2: 1300 } }, accepted: false, newer: null });
    expect((await ofImage(viewer)).jobs.map((j) => j.id)).toEqual([queued.id, second.id, first.id]);

    const params = { id: project.id, imageId: images[0].id, modelId: model };
    // VIEWER 403, stranger 404, an unfinished job 400, a job of another image or outside the project 404
    const denied = await viewer.client.call(projectsApi.acceptField, { params, body: { jobId: first.id } });
    expect([denied.status, (denied.body as unknown as { code: string }).code]).toEqual([403, 'PROJECT_READ_ONLY']);
    expect((await stranger.client.call(projectsApi.acceptField, { params, body: { jobId: first.id } })).status).toBe(404);
    const unfinished = await owner.client.call(projectsApi.acceptField, { params, body: { jobId: queued.id } });
    expect([unfinished.status, (unfinished.body as unknown as { details: Array<{ field: string }> }).details[0].field]).toEqual([400, 'jobId']);
    const elsewhere = await run(owner, images[0], 'grain-size', null);
    await finish(elsewhere, grain(9000, 5));
    expect((await owner.client.call(projectsApi.acceptField, { params, body: { jobId: elsewhere.id } })).status).toBe(404);

    // the EDITOR accepts the first job: it stays the field while a later run finishes
    const accepted = await editor.client.ok(projectsApi.acceptField, { params, body: { jobId: first.id } });
    expect(accepted[0].models[0]).toMatchObject({ job: { id: first.id }, accepted: true, newer: { id: second.id } });
    await finish(queued, grain(1400, 20));
    expect(await ofImage(owner)).toMatchObject({ job: { id: first.id }, accepted: true, newer: { id: queued.id } });

    // the specimen report takes the accepted job and says so
    const wb = await workbook((await viewer.client.request('GET', `/api/projects/${project.id}/report?format=xlsx`)).buffer);
    const rows = rowsOf(wb.worksheets[1]);
    expect(rows[0].slice(0, 8)).toEqual([
      'Field',
      'Image',
      'Job ID',
      'Model version',
      'Calibration (µm/px)',
      'Source of the calibration',
      'Mask',
      'Chosen',
    ]);
    expect([...rows[1].slice(0, 5), ...rows[1].slice(6, 8)]).toEqual([1, 'field-60.png', first.id, first.modelVersion, 0.5, 'no', 'accepted']);
    expect(String(rows[1][5])).toContain('0.5000 µm/px');

    // VIEWER cannot release; the EDITOR releases and the newest finished job is the field again
    expect((await viewer.client.call(projectsApi.releaseField, { params })).status).toBe(403);
    const released = await editor.client.ok(projectsApi.releaseField, { params });
    expect(released[0].models[0]).toMatchObject({ job: { id: queued.id }, accepted: false });
    expect((await editor.client.call(projectsApi.releaseField, { params })).status).toBe(404);
  });

  it('the specimen report: statistics on N_A and L̄ of the fields, G of the mean, measure more fields; no Cracks run from outside', async () => {
    const { owner, viewer, project, images } = await setup();
    const fieldsNA = [1200, 1500, 1050];
    const fieldsL = [22.0, 18.5, 27.0];
    for (let i = 0; i < 3; i++) await finish(await run(owner, images[i], 'grain-size', project.id), grain(fieldsNA[i], fieldsL[i]));
    await finish(await run(owner, images[1], 'cracks', null), { crackCount: 3, totalLengthUm: 120 });
    const res = await viewer.client.request('GET', `/api/projects/${project.id}/report?format=xlsx`);
    expect(res.status).toBe(200);
    const wb = await workbook(res.buffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Summary', 'Grain size (ASTM E112)', 'Field statistics']);
    const stats = rowsOf(wb.worksheets[2]);
    expect(stats[0]).toEqual([
      'Model',
      'Method and standard',
      'Statistics on',
      'n',
      'Mean',
      's',
      '95 % CI',
      '%RA',
      'Quantity',
      'G of the mean',
      'Minimum',
      'Maximum',
      'Statistics computed on',
      'Note',
    ]);
    // by hand (report-statistics.test.ts): N_A mean 1250, s 229.1288, CI 569.2334, %RA 45.54, G 7.3337
    const nA = stats.find((r) => r[2] === 'Grains per mm² (1/mm²)')!;
    expect(nA[3]).toBe(3);
    expect(nA[4]).toBeCloseTo(1250, 8);
    expect(nA[5]).toBeCloseTo(229.1288, 4);
    expect(nA[6]).toBeCloseTo(569.2334, 4);
    expect(nA[7]).toBeCloseTo(45.5387, 4);
    expect(nA[8]).toBe('ASTM grain size G (planimetric)');
    expect(nA[9]).toBeCloseTo(7.3337, 4);
    expect(String(nA[12])).toContain('N_A');
    expect(String(nA[13])).toContain('Measure more fields');
    expect(String(nA[13])).toContain('at least 5 fields');
    const l = stats.find((r) => r[2] === 'Mean lineal intercept (µm)')!;
    expect(l[7]).toBeCloseTo(47.1693, 4);
    expect(l[9]).toBeCloseTo(7.6599, 4);
    const pdf = await viewer.client.request('GET', `/api/projects/${project.id}/report?format=pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.buffer.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
