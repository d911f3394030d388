/**
 * Issue 25, the whole loop on a real launcher (apps/launcher, POST /train running training/train.py through
 * packages/analysis/src/training): corrected masks submitted on consented images → a run of a few steps on CPU →
 * a CANDIDATE version with its network, card and validation → promote → a new job runs with the new version (its
 * launcher fetches the network from the server's signed address) → rollback. Progress comes over the socket and in
 * GET run. A cancelled run is aborted on the launcher. Skipped only where python3 with torch is missing
 * (trainingAvailable() of the orchestrator is false).
 */
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TRAINING_RUN_EVENT,
  computeModelsApi,
  imagesApi,
  jobsApi,
  trainingApi,
  type Image,
  type Job,
  type TrainingRun,
  type TrainingRunProgress,
  usersApi,
} from '@lamella/contracts';
import { tintGrainImage } from '../../../packages/analysis/src/synth/tint.ts';
import { trainingAvailable } from '../../../packages/analysis/src/training/finetune.ts';
import { TrainingDispatcher } from '../src/modules/training-runs/dispatcher.ts';
import { executors } from '../src/platform/db/schema/index.ts';
import { factories, type TestUser } from './factories.ts';
import { startTestApp, waitFor, type TestApp } from './test-app.ts';

const canTrain = await trainingAvailable();
const W = 256;
const H = 192;

let t: TestApp;
let f: ReturnType<typeof factories>;
let admin: TestUser;
let ada: TestUser;
let grain: string;
let socket: Socket;
let gpuLauncher: string;
const pushed: TrainingRunProgress[] = [];

/** A tint-etched synthetic micrograph uploaded by `owner`, and its exact corrected mask (255 interior, 0 boundary). */
async function upload(owner: TestUser, seed: number): Promise<{ image: Image; mask: Buffer }> {
  const s = await tintGrainImage({ width: W, height: H, grainPx: 30, seed, noise: 4, line: 0.4 });
  const m = Buffer.alloc(W * H);
  const L = s.labels;
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      const apart = (j: number) => j >= 0 && j < L.length && L[j] !== L[i];
      m[i] = (x > 0 && apart(i - 1)) || (x < W - 1 && apart(i + 1)) || apart(i - W) || apart(i + W) ? 0 : 255;
    }
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(s.png)], { type: 'image/png' }), `tint-${seed}.png`);
  const [image] = await owner.client.ok(imagesApi.upload, { form });
  const mask = await sharp(m, { raw: { width: W, height: H, channels: 1 } })
    .png()
    .toBuffer();
  return { image, mask };
}

const settled = (id: string) =>
  waitFor(async () => {
    const job = await ada.client.ok(jobsApi.get, { params: { id } });
    return ['FINISHED', 'FAILED', 'CACHED'].includes(job.status) ? job : null;
  }, 180_000);

const runState = (id: string, statuses: TrainingRun['status'][], timeoutMs: number) =>
  waitFor(async () => {
    const run = await admin.client.ok(trainingApi.get, { params: { id } });
    return statuses.includes(run.status) ? run : null;
  }, timeoutMs);

beforeAll(async () => {
  if (!canTrain) return;
  t = await startTestApp({ launchers: 2, launcherTraining: true });
  const launchers = await t.launchersReady();
  // the second launcher has the higher GPU affinity (set on the Servers screen when a launcher is added): runs go there first
  gpuLauncher = launchers[1].id;
  await t.db.update(executors).set({ gpuAffinity: 5 }).where(eq(executors.id, gpuLauncher));
  f = factories(t);
  admin = await f.admin();
  grain = await f.modelId('grain-size');
  ada = await f.user({ fields: { trainingConsent: 'true' } });
  for (const seed of [11, 12, 13]) {
    const { image, mask } = await upload(ada, seed);
    const [job] = await ada.client.ok(jobsApi.create, { body: { imageIds: [image.id], modelIds: [grain] } });
    await settled(job.id);
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(mask)]), 'mask.png');
    form.append('jobId', job.id);
    expect((await ada.client.request('POST', '/api/masks', { form })).status).toBe(200);
  }
  socket = connect(t.baseUrl, {
    path: '/socket.io',
    transports: ['websocket'],
    extraHeaders: { cookie: `lamella_session=${admin.client.cookies.get('lamella_session')}` },
  });
  socket.on(TRAINING_RUN_EVENT, (p: TrainingRunProgress) => pushed.push(p));
  await waitFor(async () => socket.connected, 5000);
  // each launcher answers canTrain once its python has imported torch
  await waitFor(async () => {
    const all = await Promise.all(
      (await t.launchersReady()).map(
        async (l) => ((await (await fetch(`http://127.0.0.1:${l.port}/health`)).json()) as { canTrain?: boolean }).canTrain,
      ),
    );
    return all.every((c) => c === true);
  }, 180_000);
}, 600_000);
afterAll(async () => {
  socket?.close();
  await t?.close();
});

describe.skipIf(!canTrain)('the whole loop on a real launcher', () => {
  it('corrected masks → a run of a few steps → CANDIDATE with card and validation → promote → a new job runs with it → rollback', async () => {
    const before = (await admin.client.ok(computeModelsApi.list)).find((m) => m.id === grain)!.version;
    expect((await admin.client.ok(trainingApi.trainableImages, { params: { id: grain } })).total).toBe(3);
    const started = await admin.client.ok(trainingApi.start, {
      body: { modelId: grain, baseVersion: before, steps: 3, seed: 7, holdoutShare: 0.34 },
    });
    expect(started.status).toBe('QUEUED');
    const done = await runState(started.id, ['FINISHED', 'FAILED'], 480_000);
    expect(done.error).toBeNull();
    expect(done).toMatchObject({ status: 'FINISHED', attempt: 1 });
    // both launchers can train: the run went to the one with the highest GPU affinity
    expect(done.launcherId).toBe(gpuLauncher);
    expect(done.progress).toMatchObject({ steps: 3 });
    // live over the socket: RUNNING with progress, then FINISHED
    const mine = pushed.filter((p) => p.runId === started.id);
    expect(mine.some((p) => p.status === 'RUNNING' && p.progress !== null)).toBe(true);
    expect(mine.at(-1)?.status).toBe('FINISHED');

    const versions = await admin.client.ok(trainingApi.versions, { params: { id: grain } });
    const candidate = versions.versions.find((v) => v.version === started.candidateVersion)!;
    expect(candidate).toMatchObject({ status: 'CANDIDATE', isCurrent: false, runId: started.id });
    expect(candidate.network.size).toBeGreaterThan(1000);
    expect(candidate.card).toMatchObject({
      baseVersion: before,
      version: started.candidateVersion,
      imageCount: 2,
      startedBy: { email: admin.email },
    });
    expect(candidate.card.holdoutImageIds).toEqual(done.holdoutImageIds);
    expect(candidate.validation.images.map((i) => i.id)).toEqual(done.holdoutImageIds);
    for (const side of [candidate.validation.total.base, candidate.validation.total.candidate]) {
      expect(side.fScore).toBeGreaterThanOrEqual(0);
      expect(side.fScore).toBeLessThanOrEqual(1);
      expect(Number.isFinite(side.deltaG)).toBe(true);
    }
    // the candidate is a version of the model now (pickers, sandbox compare)
    expect((await admin.client.ok(computeModelsApi.versions, { params: { id: grain } })).map((v) => v.version)).toContain(started.candidateVersion);

    await admin.client.ok(trainingApi.promote, { params: { id: grain, version: started.candidateVersion } });
    const { image } = await upload(ada, 21);
    const [job] = await ada.client.ok(jobsApi.create, { body: { imageIds: [image.id], modelIds: [grain] } });
    expect(job.modelVersion).toBe(started.candidateVersion);
    const ran: Job = await settled(job.id);
    expect(ran.failureReason).toBeNull();
    expect(ran.status).toBe('FINISHED');
    expect(ran.modelVersion).toBe(started.candidateVersion);

    await admin.client.ok(trainingApi.rollback, { params: { id: grain } });
    expect((await admin.client.ok(computeModelsApi.list)).find((m) => m.id === grain)!.version).toBe(before);
  }, 900_000);

  it('a run cancelled while it trains is stopped on the launcher and leaves no version', async () => {
    const before = (await admin.client.ok(computeModelsApi.list)).find((m) => m.id === grain)!.version;
    const started = await admin.client.ok(trainingApi.start, { body: { modelId: grain, baseVersion: before, steps: 2000, seed: 3 } });
    await runState(started.id, ['RUNNING'], 120_000);
    const port = (await t.launchersReady()).find((l) => l.id === gpuLauncher)!.port;
    const training = async () => ((await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as { training?: boolean }).training;
    // the launcher is training it (its python is running)
    await waitFor(async () => (await training()) === true, 120_000);
    const cancelled = await admin.client.ok(trainingApi.cancel, { params: { id: started.id } });
    expect(cancelled.status).toBe('CANCELLED');
    // the launcher's training ends (its request was aborted)
    await waitFor(async () => (await training()) === false, 60_000);
    await new Promise((r) => setTimeout(r, 1000));
    expect((await admin.client.ok(trainingApi.get, { params: { id: started.id } })).status).toBe('CANCELLED');
    const versions = await admin.client.ok(trainingApi.versions, { params: { id: grain } });
    expect(versions.versions.map((v) => v.version)).not.toContain(started.candidateVersion);
  }, 300_000);

  it('a launcher killed while it trains: the run is queued again and finishes on its next attempt', async () => {
    const before = (await admin.client.ok(computeModelsApi.list)).find((m) => m.id === grain)!.version;
    const started = await admin.client.ok(trainingApi.start, { body: { modelId: grain, baseVersion: before, steps: 3, seed: 5 } });
    const running = await runState(started.id, ['RUNNING'], 120_000);
    const launcher = (await t.launchersReady()).find((l) => l.id === running.launcherId)!;
    await waitFor(
      async () => ((await (await fetch(`http://127.0.0.1:${launcher.port}/health`)).json()) as { training?: boolean }).training === true,
      120_000,
    );
    // the launcher dies with its python (its process group); the supervisor starts it again
    process.kill(-t.supervisor.pid(launcher.id)!, 'SIGKILL');
    const done = await runState(started.id, ['FINISHED', 'FAILED'], 600_000);
    expect(done.error).toBeNull();
    expect(done).toMatchObject({ status: 'FINISHED', attempt: 2 });
    const versions = await admin.client.ok(trainingApi.versions, { params: { id: grain } });
    expect(versions.versions.filter((v) => v.version === started.candidateVersion)).toHaveLength(1);
  }, 900_000);

  it('consent withdrawn while a run waits: at dispatch its images are checked again and the run fails without training', async () => {
    // the app's training dispatcher is stopped, so the run waits QUEUED while the owner withdraws consent
    await t.app.ctx.trainingDispatcher.stop();
    const before = (await admin.client.ok(computeModelsApi.list)).find((m) => m.id === grain)!.version;
    const started = await admin.client.ok(trainingApi.start, { body: { modelId: grain, baseVersion: before, steps: 3, seed: 9 } });
    expect(started.imageIds).toHaveLength(3);
    await ada.client.ok(usersApi.setConsent, { body: { trainingConsent: false } });
    const dispatcher = new TrainingDispatcher({
      db: t.db,
      storage: t.storage,
      notify: () => undefined,
      secret: t.config.secret,
      serverUrl: () => t.baseUrl,
      soleDispatcher: false,
    });
    await dispatcher.start();
    try {
      const failed = await runState(started.id, ['FAILED', 'FINISHED'], 120_000);
      expect(failed).toMatchObject({ status: 'FAILED', error: { code: 'NOT_ENOUGH_TRAINING_IMAGES' }, attempt: 1 });
      expect((await admin.client.ok(trainingApi.versions, { params: { id: grain } })).versions.map((v) => v.version)).not.toContain(
        started.candidateVersion,
      );
    } finally {
      await dispatcher.stop();
      await ada.client.ok(usersApi.setConsent, { body: { trainingConsent: true } });
    }
  }, 300_000);
});
