import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { jobs } from '../src/platform/db/schema/index.ts';
import { modelIdOf, settledJob, startTestApp, type TestApp } from './test-app.ts';
import { poresImage } from './synthetic.ts';

/**
 * Issue 24 item 3: re-running with the model's own segmentation, unchanged, gives exactly the model's numbers (the
 * model segments again: the same result); a changed segmentation is measured as the user's mask.
 */
let t: TestApp;
let porosity: string;
beforeAll(async () => {
  t = await startTestApp({ launchers: 1 });
  await t.launchersReady();
  porosity = await modelIdOf(t, 'porosity');
}, 240_000);
afterAll(() => t?.close());

type Client = ReturnType<TestApp['client']>;
const settled = (client: Client, id: string) => settledJob(client, id, 150_000);
const maskForm = (png: Buffer, jobId: string) => {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'mask.png');
  form.append('jobId', jobId);
  form.append('label', 'correction');
  return form;
};

describe('re-running with a correction', () => {
  it('the unchanged segmentation gives exactly the model’s numbers; an edited one is the user’s mask', async () => {
    const u = await t.signupVerified();
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array((await poresImage({ width: 320, height: 240, count: 14, r: 9 })).png)]), 'pores.png');
    const up = await u.client.request('POST', '/api/images', { form });
    const [created] = (await u.client.post('/api/jobs', { imageIds: [up.body[0].id], modelIds: [porosity] })).body;
    const own = await settled(u.client, created.id);
    expect(own.status).toBe('FINISHED');
    const seg = await u.client.request('GET', `/api/jobs/results/${own.resultId}/segmentation.png`);
    expect(seg.status).toBe(200);
    // the correction tool saves the segmentation it started from, unchanged
    expect((await u.client.request('POST', '/api/masks', { form: maskForm(seg.buffer, own.id) })).status).toBe(200);
    const [again] = (await u.client.post('/api/jobs/rerun', { jobsIds: [own.id], withUserMasks: true })).body;
    const rerun = await settled(u.client, again.id);
    expect(rerun.result.measurements).toEqual(own.result.measurements);
    const [row] = await t.db.select().from(jobs).where(eq(jobs.id, again.id));
    expect(row.maskId).toBeNull();
    // the left half's objects deleted: a correction, measured as the user's mask
    const { data, info } = await sharp(seg.buffer).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    const edited = Buffer.from(data);
    for (let i = 0; i < edited.length; i++) if (i % info.width < info.width / 2) edited[i] = 0;
    const png = await sharp(edited, { raw: { width: info.width, height: info.height, channels: 1 } })
      .png()
      .toBuffer();
    const saved = await u.client.request('POST', '/api/masks', { form: maskForm(png, own.id) });
    expect(saved.status).toBe(200);
    const [third] = (await u.client.post('/api/jobs/rerun', { jobsIds: [own.id], withUserMasks: true })).body;
    const [row3] = await t.db.select().from(jobs).where(eq(jobs.id, third.id));
    expect(row3.maskId).toBe(saved.body.id);
    const corrected = await settled(u.client, third.id);
    expect(corrected.status).toBe('FINISHED');
    expect(corrected.result.measurements.poreCount).toBeLessThan(own.result.measurements.poreCount);
  }, 300_000);
});
