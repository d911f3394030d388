import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { io as connect } from 'socket.io-client';
import sharp from 'sharp';
import { computeModels } from '../src/platform/db/schema/index.ts';
import { startTestApp, waitFor, type TestApp } from './test-app.ts';
import { poresImage } from './synthetic.ts';

/** Issue 24 item 7: job notifications name the image, are one per batch (updated as its jobs end) and carry the job. */
let t: TestApp;
let porosity: string;
let cracks: string;
beforeAll(async () => {
  t = await startTestApp({ launchers: 1 });
  await t.launchersReady();
  [{ id: porosity }] = await t.db.select({ id: computeModels.id }).from(computeModels).where(eq(computeModels.internalName, 'porosity'));
  [{ id: cracks }] = await t.db.select({ id: computeModels.id }).from(computeModels).where(eq(computeModels.internalName, 'cracks'));
}, 180_000);
afterAll(() => t?.close());

describe('job notifications per batch', () => {
  it('a batch of three images gives one notification, updated as each job ends, naming the latest image and the counts', async () => {
    const u = await t.signupVerified();
    const socket = connect(t.baseUrl, {
      path: '/socket.io',
      transports: ['websocket'],
      extraHeaders: { cookie: `lamella_session=${u.client.cookies.get('lamella_session')}` },
    });
    const pushed: Array<{ id: string; type: string; payload: Record<string, unknown> }> = [];
    socket.on('notification', (n) => pushed.push(n));
    try {
      await waitFor(async () => socket.connected, 5000);
      const form = new FormData();
      const names = ['weld-a.png', 'weld-b.png', 'blank-c.png'];
      form.append('files', new Blob([(await poresImage({ width: 240, height: 180, count: 12, r: 9 })).png]), names[0]);
      form.append('files', new Blob([(await poresImage({ width: 240, height: 180, count: 8, r: 8, seed: 3 })).png]), names[1]);
      const blank = await sharp({ create: { width: 240, height: 180, channels: 3, background: '#777777' } })
        .png()
        .toBuffer();
      form.append('files', new Blob([blank]), names[2]);
      const up = await u.client.request('POST', '/api/images', { form });
      expect(up.status).toBe(200);
      const created = (await u.client.post('/api/jobs', { imageIds: up.body.map((i: { id: string }) => i.id), modelIds: [porosity] })).body as Array<{
        id: string;
      }>;
      expect(created).toHaveLength(3);
      const ended = await waitFor(async () => {
        const list = (await u.client.get('/api/notifications')).body as Array<{ id: string; type: string; payload: Record<string, unknown> }>;
        return list.length === 1 && Number(list[0].payload.finished) + Number(list[0].payload.failed) === 3 ? list : null;
      }, 120_000);
      const [n] = ended;
      expect(n.payload).toMatchObject({ total: 3, finished: 2, failed: 1, modelId: porosity });
      expect(names).toContain(n.payload.imageName);
      expect(created.map((j) => j.id)).toContain(n.payload.jobId);
      expect(n.type).toBe('JOB_FAILED'); // one of the batch failed (the blank image)
      // every push was the same notification, updated
      await waitFor(async () => pushed.length >= 3, 5000);
      expect(new Set(pushed.map((p) => p.id))).toEqual(new Set([n.id]));
      expect(pushed.map((p) => Number(p.payload.finished) + Number(p.payload.failed))).toEqual([1, 2, 3]);
      // a second batch (another model: the same one would answer from the cache) gets its own notification
      const again = (await u.client.post('/api/jobs', { imageIds: [up.body[0].id], modelIds: [cracks] })).body;
      const two = await waitFor(async () => {
        const list = (await u.client.get('/api/notifications')).body as Array<{ payload: Record<string, unknown> }>;
        return list.length === 2 ? list : null;
      }, 60_000);
      expect(two[0].payload).toMatchObject({ jobId: again[0].id, total: 1, imageName: names[0] });
    } finally {
      socket.close();
    }
  }, 240_000);
});
