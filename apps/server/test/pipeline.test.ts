import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { io as connect } from 'socket.io-client';
import sharp from 'sharp';
import { computeModels, executors, jobs } from '../src/platform/db/schema/index.ts';
import { ADMIN, startTestApp, waitFor, type TestApp } from './test-app.ts';
import { poresImage } from './synthetic.ts';

/**
 * The whole path on real launcher processes (apps/launcher running packages/analysis): upload → job →
 * queue → launcher → result files → realtime event; and the faults: a launcher killed mid-job, a launcher
 * that keeps dying, a server restarted with jobs in the queue.
 */
let t: TestApp;
let porosity: string;
beforeAll(async () => {
  t = await startTestApp({ launchers: 2 });
  await t.launchersReady();
  [{ id: porosity }] = await t.db.select({ id: computeModels.id }).from(computeModels).where(eq(computeModels.internalName, 'porosity'));
}, 180_000);
afterAll(() => t?.close());

async function upload(client: ReturnType<TestApp['client']>, png: Buffer, name = 'pores.png'): Promise<string> {
  const form = new FormData();
  form.append('files', new Blob([png]), name);
  const res = await client.request('POST', '/api/images', { form });
  expect(res.status).toBe(200);
  return res.body[0].id;
}

const settled = (client: ReturnType<TestApp['client']>, id: string) =>
  waitFor(async () => {
    const res = await client.get(`/api/jobs/${id}`);
    return ['FINISHED', 'FAILED', 'CACHED'].includes(res.body.status) ? res.body : null;
  });

describe('pipeline on real launchers', () => {
  it('a model refusal (a blank image) tells the owner why, in their language; staff keep the error', async () => {
    const u = await t.signupVerified();
    expect((await u.client.patch('/api/users/me', { language: 'de' })).status).toBe(200);
    const blank = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#808080' } })
      .png()
      .toBuffer();
    const imageId = await upload(u.client, blank, 'blank.png');
    const [job] = (await u.client.post('/api/jobs', { imageIds: [imageId], modelIds: [porosity] })).body;
    const done = await settled(u.client, job.id);
    expect(done.status).toBe('FAILED');
    expect(done.failureReason.code).toBe('BLANK_IMAGE');
    expect(done.failureReason.message).toMatch(/leer oder nahezu gleichförmig/);
    // the refused image used no licence unit
    expect((await u.client.get('/api/users/me/account')).body.license.used).toBe(0);
    // a launcher fault is no refusal: nothing of it is shown to the user
    await t.db.update(jobs).set({ error: 'LAUNCHER_UNAVAILABLE: the job could not be completed' }).where(eq(jobs.id, job.id));
    expect((await u.client.get(`/api/jobs/${job.id}`)).body.failureReason).toBeNull();
  }, 120_000);

  it('runs a job to its result and tells the owner over socket.io', async () => {
    const u = await t.signupVerified();
    const socket = connect(t.baseUrl, {
      path: '/socket.io',
      transports: ['websocket'],
      extraHeaders: { cookie: `lamella_session=${u.client.cookies.get('lamella_session')}` },
    });
    const events: Array<{ id: string; status: string }> = [];
    socket.on('job', (e) => events.push(e));
    await waitFor(async () => socket.connected);
    const { png, truth } = await poresImage({ width: 800, height: 600, count: 24, r: 14 });
    const imageId = await upload(u.client, png);
    const [job] = (await u.client.post('/api/jobs', { imageIds: [imageId], modelIds: [porosity] })).body;
    const done = await settled(u.client, job.id);
    expect(done.status).toBe('FINISHED');
    expect(done.result.measurements.poreCount).toBe(truth.poreCount);
    expect(Math.abs(done.result.measurements.areaFractionPercent - truth.areaFractionPercent)).toBeLessThan(0.5);
    const types = done.result.results.map((i: { type: string }) => i.type);
    expect(types).toContain('image');
    const image = done.result.results.find((i: { type: string }) => i.type === 'image');
    const file = await u.client.get(`/api/jobs/results/${done.resultId}/${image.filename}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    const other = await t.signupVerified();
    expect((await other.client.get(`/api/jobs/results/${done.resultId}/${image.filename}`)).status).toBe(404);
    expect((await other.client.get(`/api/jobs/results/${done.resultId}`)).status).toBe(404);
    await waitFor(async () => events.some((e) => e.id === job.id && e.status === 'FINISHED'), 10_000);
    socket.close();
    // the same input again is answered from the result
    const [again] = (await u.client.post('/api/jobs', { imageIds: [imageId], modelIds: [porosity] })).body;
    expect(again.status).toBe('CACHED');
    expect(again.result.measurements.poreCount).toBe(truth.poreCount);
  });

  it('re-runs with the user mask: the model measures from the mask, not its own segmentation', async () => {
    const u = await t.signupVerified();
    const { png } = await poresImage({ width: 800, height: 600, count: 24, r: 14, seed: 7 });
    const imageId = await upload(u.client, png, 'masked.png');
    const [job] = (await u.client.post('/api/jobs', { imageIds: [imageId], modelIds: [porosity] })).body;
    const first = await settled(u.client, job.id);
    expect(first.result.measurements.poreCount).toBe(24);
    // The corrected segmentation: exactly three 40×40 "pores", nothing else.
    const label = Buffer.alloc(800 * 600);
    for (const [x0, y0] of [
      [100, 100],
      [400, 200],
      [600, 350],
    ])
      for (let y = y0; y < y0 + 40; y++) label.fill(1, y * 800 + x0, y * 800 + x0 + 40);
    const maskPng = await sharp(label, { raw: { width: 800, height: 600, channels: 1 } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('files', new Blob([maskPng]), 'mask.png');
    form.append('jobId', job.id);
    form.append('label', 'three pores');
    const saved = await u.client.request('POST', '/api/masks', { form });
    expect(saved.status).toBe(200);
    const [rerun] = (await u.client.post('/api/jobs/rerun', { jobsIds: [job.id], withUserMasks: true })).body;
    expect(rerun.id).not.toBe(job.id);
    const done = await settled(u.client, rerun.id);
    expect(done.status).toBe('FINISHED');
    expect(done.result.measurements.poreCount).toBe(3);
    // 4 800 px of 480 000 (a little more of the analysed area when a scale-bar strip is excluded)
    expect(done.result.measurements.areaFractionPercent).toBeGreaterThanOrEqual(1);
    expect(done.result.measurements.areaFractionPercent).toBeLessThan(1.3);
    const [row] = await t.db.select().from(jobs).where(eq(jobs.id, rerun.id));
    expect(row.maskId).toBe(saved.body.id);
  });

  it('refuses a socket.io connection without a session', async () => {
    const socket = connect(t.baseUrl, { path: '/socket.io', transports: ['websocket'], reconnection: false });
    const error = await new Promise<Error>((resolve) => socket.on('connect_error', resolve));
    expect(error.message).toBe('UNAUTHENTICATED');
    socket.close();
  });

  it('finishes a job on another launcher when its launcher is killed mid-job', async () => {
    const u = await t.signupVerified();
    const { png, truth } = await poresImage({ width: 4000, height: 3000, count: 300, r: 30 });
    const imageId = await upload(u.client, png, 'big.png');
    const [job] = (await u.client.post('/api/jobs', { imageIds: [imageId], modelIds: [porosity] })).body;
    const running = await waitFor(async () => {
      const [row] = await t.db.select().from(jobs).where(eq(jobs.id, job.id));
      return row.status === 'PENDING' && row.executorId ? row : null;
    });
    const pid = t.supervisor.pid(running.executorId!);
    expect(pid).toBeTruthy();
    process.kill(pid!, 'SIGKILL');
    const done = await settled(u.client, job.id);
    expect(done.status).toBe('FINISHED');
    expect(done.result.measurements.poreCount).toBe(truth.poreCount);
    const [row] = await t.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(row.attempts).toBe(2);
    expect(row.executorId).not.toBe(running.executorId);
    await t.launchersReady();
  });

  it('fails cleanly after the retry limit, keeping the error for the admin', async () => {
    const u = await t.signupVerified();
    const { png } = await poresImage({ width: 4000, height: 3000, count: 200, r: 25, seed: 2 });
    const imageId = await upload(u.client, png, 'doomed.png');
    const [job] = (await u.client.post('/api/jobs', { imageIds: [imageId], modelIds: [porosity] })).body;
    const killed = new Set<number>();
    const final = await waitFor(async () => {
      const [row] = await t.db.select().from(jobs).where(eq(jobs.id, job.id));
      if (row.status === 'FAILED' || row.status === 'FINISHED') return row;
      if (row.status === 'PENDING' && row.executorId) {
        const pid = t.supervisor.pid(row.executorId);
        if (pid && !killed.has(pid)) {
          killed.add(pid);
          process.kill(pid, 'SIGKILL');
        }
      }
      return null;
    }, 150_000);
    expect(final.status).toBe('FAILED');
    expect(final.attempts).toBe(3);
    const { client: admin } = await t.signin(ADMIN.email, ADMIN.password);
    const err = await admin.get(`/api/jobs/${job.id}/error`);
    expect(err.body.error).toMatch(/LAUNCHER_UNAVAILABLE/);
    await t.launchersReady();
  });
});

describe('job notifications', () => {
  it('a job ending while no page shows its model notifies the owner (JOB_FINISHED, JOB_FAILED); on the model page it does not', async () => {
    const u = await t.signupVerified();
    const socket = connect(t.baseUrl, {
      path: '/socket.io',
      transports: ['websocket'],
      extraHeaders: { cookie: `lamella_session=${u.client.cookies.get('lamella_session')}` },
    });
    const pushed: Array<{ type: string; payload: Record<string, string> }> = [];
    socket.on('notification', (n) => pushed.push(n));
    await waitFor(async () => socket.connected, 5000);
    const run = async (png: Buffer) => {
      const imageId = await upload(u.client, png);
      const [job] = (await u.client.post('/api/jobs', { imageIds: [imageId], modelIds: [porosity] })).body;
      return settled(u.client, job.id);
    };
    try {
      const done = await run((await poresImage({ width: 240, height: 180, count: 12, r: 9 })).png);
      expect(done.status).toBe('FINISHED');
      const finished = await waitFor(async () => pushed.find((n) => n.payload.jobId === done.id), 5000);
      expect(finished).toMatchObject({ type: 'JOB_FINISHED', payload: { jobId: done.id, modelId: porosity } });

      const blank = await sharp({ create: { width: 240, height: 180, channels: 3, background: '#777777' } })
        .png()
        .toBuffer();
      const failed = await run(blank);
      expect(failed.status).toBe('FAILED');
      expect(await waitFor(async () => pushed.find((n) => n.payload.jobId === failed.id), 5000)).toMatchObject({ type: 'JOB_FAILED' });

      // The results page of the model is open: the job is seen there, the bell stays quiet.
      socket.emit('viewing', { modelId: porosity });
      await socket.emitWithAck('notifications'); // events of one socket are handled in order: the page is registered
      const watched = await run((await poresImage({ width: 240, height: 180, count: 10, r: 9 })).png);
      expect(watched.status).toBe('FINISHED');
      await new Promise((r) => setTimeout(r, 300));
      expect(pushed.some((n) => n.payload.jobId === watched.id)).toBe(false);
      const stored = (await u.client.get('/api/notifications')).body as Array<{ payload: { jobId?: string } }>;
      expect(stored.map((n) => n.payload.jobId).sort()).toEqual([done.id, failed.id].sort());
    } finally {
      socket.close();
    }
  }, 120_000);
});

describe('server restart', () => {
  it('loses no queued or running job', async () => {
    const first = await startTestApp({ keepData: true });
    const u = await first.signupVerified();
    const { png, truth } = await poresImage({ width: 600, height: 400, count: 12, r: 10 });
    const imageId = await upload(u.client, png);
    const [{ id: modelId }] = await first.db.select({ id: computeModels.id }).from(computeModels).where(eq(computeModels.internalName, 'porosity'));
    const created = (await u.client.post('/api/jobs', { imageIds: [imageId], modelIds: [modelId] })).body;
    const created2 = (await u.client.post('/api/sandbox', { imageId, modelsIds: [modelId] })).body;
    // one job was running when the server died: PENDING with a lease about to run out
    await first.db
      .update(jobs)
      .set({ status: 'PENDING', leaseUntil: new Date(Date.now() + 1000) })
      .where(eq(jobs.id, created2[0].id));
    const session = u.client.cookies.get('lamella_session')!;
    await first.close();

    const second = await startTestApp({ dataDir: first.dataDir, launchers: 1 });
    try {
      await second.launchersReady();
      const c = second.client();
      c.cookies.set('lamella_session', session);
      for (const id of [created[0].id, created2[0].id]) {
        const done = await settled(c, id);
        expect(done.status).toBe('FINISHED');
        expect(done.result.measurements.poreCount).toBe(truth.poreCount);
      }
      const leftovers = await second.db.select().from(executors);
      expect(leftovers.every((e) => e.busyJobId === null)).toBe(true);
    } finally {
      await second.close();
    }
  });
});
