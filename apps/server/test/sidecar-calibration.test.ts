import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Job } from '@lamella/contracts';
import { images } from '../src/platform/db/schema/index.ts';
import { computedJob, modelIdOf, startTestApp, type TestApp } from './test-app.ts';
import { poresImage } from './synthetic.ts';

/**
 * Issue 23 item 2 over real HTTP and a real launcher: an instrument's sidecar text uploaded with its image (same
 * stem) calibrates the image's jobs, and the result names what was read; the same pixels without the sidecar are
 * another image to the result cache and stay uncalibrated.
 */
let t: TestApp;
let porosity: string;
beforeAll(async () => {
  t = await startTestApp({ launchers: 1 });
  await t.launchersReady();
  porosity = await modelIdOf(t, 'porosity');
}, 180_000);
afterAll(() => t?.close());

type Client = ReturnType<TestApp['client']>;

/** JEOL's sidecar: a 200 px marker bar for 10 µm, so 0.05 µm/px. */
const JEOL_TXT = '$CM_FORMAT JEOL/EO\n$$SM_MICRON_BAR 200\n$$SM_MICRON_MARKER 10um\n$CM_MAG 5000\n';

async function upload(client: Client, files: [string, Uint8Array, string][]) {
  const form = new FormData();
  for (const [name, bytes, type] of files) form.append('files', new Blob([bytes], { type }), name);
  return client.request('POST', '/api/images', { form });
}

const porosityJob = (client: Client, imageId: string) => computedJob<Job>(client, imageId, porosity);

describe('sidecar calibration through the upload (issue 23)', () => {
  it('a JEOL .txt uploaded with its image calibrates the job and is named as the source', async () => {
    const u = await t.signupVerified();
    const { png } = await poresImage({ width: 640, height: 480, count: 20, r: 12 });
    const up = await upload(u.client, [
      ['S1_001.png', new Uint8Array(png), 'image/png'],
      ['S1_001.txt', new TextEncoder().encode(JEOL_TXT), 'text/plain'],
    ]);
    expect(up.status).toBe(200);
    // the text is the image's sidecar, not an image of its own
    expect(up.body).toHaveLength(1);
    expect(await t.db.select().from(images).where(eq(images.ownerId, u.id))).toHaveLength(1);

    const job = await porosityJob(u.client, up.body[0].id);
    expect(job.status).toBe('FINISHED');
    expect(job.result!.measurements).toMatchObject({ calibrationSource: 'metadata' });
    expect(Number(job.result!.measurements.pixelSizeUm)).toBeCloseTo(0.05, 6);
    expect(JSON.stringify(job.result!.results)).toContain('JEOL SEM');

    // the same pixels without the sidecar: not the cached result of the first, and no lengths
    const plain = await upload(u.client, [['S1_002.png', new Uint8Array(png), 'image/png']]);
    const job2 = await porosityJob(u.client, plain.body[0].id);
    expect(job2.status).toBe('FINISHED');
    expect(job2.result!.measurements).toMatchObject({ calibrationSource: 'none' });
  }, 240_000);

  it('a text without an image of the same stem is refused as an image, and nothing is stored', async () => {
    const u = await t.signupVerified();
    const res = await upload(u.client, [['notes.txt', new TextEncoder().encode(JEOL_TXT), 'text/plain']]);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(typeof res.body.code).toBe('string');
    expect(await t.db.select().from(images).where(eq(images.ownerId, u.id))).toHaveLength(0);
  }, 60_000);
});
