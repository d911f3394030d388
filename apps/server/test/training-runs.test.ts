/**
 * Issue 25: trainable images, training runs, trained versions, promote/rollback and the version per customization
 * group, over HTTP against the real server and database. No launcher here (the runs stay QUEUED, or their leases
 * are made to expire in the database as a dead server leaves them); the whole loop on a real launcher is
 * training-loop.test.ts.
 */
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TRAINING_STEPS,
  adminImagesApi,
  auditApi,
  computeModelsApi,
  customizationsApi,
  imageLibraryApi,
  trainingApi,
  usersApi,
  type Image,
  type Job,
} from '@lamella/contracts';
import { auditLog, modelVersionArtefacts, modelVersions, trainingRuns } from '../src/platform/db/schema/index.ts';
import { claimRun } from '../src/modules/training-runs/repo.ts';
import { networkToken } from '../src/modules/training-runs/network-token.ts';
import { factories, type TestUser } from './factories.ts';
import { startTestApp, waitFor, type TestApp } from './test-app.ts';

let t: TestApp;
let f: ReturnType<typeof factories>;
let admin: TestUser;
let ada: TestUser;
let grain: string;
let porosity: string;
/** ada's consented grain images with a submitted mask. */
const adaImages: Image[] = [];

async function maskPng(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height, 255);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (x % 20 === 0 || y % 20 === 0) raw[y * width + x] = 0;
  return sharp(raw, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
}

async function submitMask(owner: TestUser, job: Job) {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(await maskPng(120, 80))]), 'mask.png');
  form.append('jobId', job.id);
  const res = await owner.client.request('POST', '/api/masks', { form });
  expect(res.status).toBe(200);
}

/** An image of `owner` with a job of `model` and a submitted mask. */
async function corrected(owner: TestUser, model = 'grain-size', level = 90): Promise<Image> {
  const image = await f.image(owner, { level });
  const job = await f.job(owner, { image, model });
  await submitMask(owner, job);
  return image;
}

const trainableIds = async (modelId: string, query: Record<string, unknown> = {}) => {
  const list = await admin.client.ok(trainingApi.trainableImages, { params: { id: modelId }, query });
  return { ids: list.images.map((i) => i.id).sort(), total: list.total };
};
const modelCount = async (modelId: string) => (await admin.client.ok(computeModelsApi.stats)).find((s) => s.id === modelId)?.trainable.count ?? 0;
const runCount = async () => (await t.db.select().from(trainingRuns)).length;
const auditCount = async () => (await t.db.select().from(auditLog)).length;

beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
  admin = await f.admin();
  grain = await f.modelId('grain-size');
  porosity = await f.modelId('porosity');
  ada = await f.user({ fields: { trainingConsent: 'true' } });
  for (let i = 0; i < 3; i++) adaImages.push(await corrected(ada, 'grain-size', 60 + i * 20));
}, 120_000);
afterAll(() => t?.close());

describe('trainable images (consent, the image flag, a submitted mask of the model)', () => {
  it('count on the Models table, the trainable list, the Images screen Training filter; consent withdrawal and deletion remove an image', async () => {
    // a user without consent, a consented image with a job but no mask, and a mask of another model do not count
    const bob = await f.user();
    await corrected(bob);
    const unmasked = await f.image(ada, { level: 200 });
    await f.job(ada, { image: unmasked });
    const porous = await corrected(ada, 'porosity', 210);

    const want = adaImages.map((i) => i.id).sort();
    expect(await trainableIds(grain)).toEqual({ ids: want, total: 3 });
    expect(await modelCount(grain)).toBe(3);
    expect((await trainableIds(porosity)).ids).toEqual([porous.id]);
    // filters: by owner, by upload day
    expect((await trainableIds(grain, { userIds: [bob.id] })).total).toBe(0);
    expect((await trainableIds(grain, { userIds: [ada.id] })).total).toBe(3);
    expect((await trainableIds(grain, { to: '2000-01-01' })).total).toBe(0);
    const bad = await admin.client.call(trainingApi.trainableImages, { params: { id: grain }, query: { from: '2026-02-31' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((bad.body as unknown as { details: Array<{ field: string }> }).details[0].field).toBe('from');

    // the Images screen's Training filter
    const listed = await admin.client.call(adminImagesApi.list, { query: { trainable: true, trainingModelId: grain } });
    expect(listed.status).toBe(200);
    expect(listed.body.map((i) => i.id).sort()).toEqual(want);
    expect(listed.headers.get('x-total-count')).toBe('3');
    const anyModel = await admin.client.ok(adminImagesApi.list, { query: { trainable: true } });
    expect(anyModel.map((i) => i.id).sort()).toEqual([...want, porous.id].sort());
    const others = await admin.client.ok(adminImagesApi.list, { query: { trainable: false, userId: ada.id } });
    // (the porosity image is trainable for its model: not among the others)
    expect(others.map((i) => i.id)).toEqual([unmasked.id]);

    // consent withdrawn: none of ada's images count any more, at once
    await ada.client.ok(usersApi.setConsent, { body: { trainingConsent: false } });
    expect(await trainableIds(grain)).toEqual({ ids: [], total: 0 });
    expect(await modelCount(grain)).toBe(0);
    expect(await admin.client.ok(adminImagesApi.list, { query: { trainable: true } })).toEqual([]);
    await ada.client.ok(usersApi.setConsent, { body: { trainingConsent: true } });
    expect((await trainableIds(grain)).total).toBe(3);

    // a deleted image leaves
    const extra = await corrected(ada, 'grain-size', 230);
    expect((await trainableIds(grain)).total).toBe(4);
    await ada.client.ok(imageLibraryApi.remove, { body: { imageIds: [extra.id] } });
    expect(await trainableIds(grain)).toEqual({ ids: want, total: 3 });
    expect(await modelCount(grain)).toBe(3);
  }, 120_000);
});

describe('authorization: only ADMIN trains, cancels, promotes, rolls back and chooses group versions', () => {
  it('USER, EDITOR and a POWER_USER with every privilege get 403; nobody signed in 401', async () => {
    const calls = (id: string) => [
      (c: TestUser['client']) => c.call(trainingApi.start, { body: { modelId: grain, baseVersion: 'x' } }),
      (c: TestUser['client']) => c.call(trainingApi.list),
      (c: TestUser['client']) => c.call(trainingApi.get, { params: { id } }),
      (c: TestUser['client']) => c.call(trainingApi.cancel, { params: { id } }),
      (c: TestUser['client']) => c.call(trainingApi.trainableImages, { params: { id: grain } }),
      (c: TestUser['client']) => c.call(trainingApi.versions, { params: { id: grain } }),
      (c: TestUser['client']) => c.call(trainingApi.promote, { params: { id: grain, version: 'x' } }),
      (c: TestUser['client']) => c.call(trainingApi.rollback, { params: { id: grain } }),
      (c: TestUser['client']) => c.call(trainingApi.setGroupVersion, { params: { id }, body: { version: null } }),
    ];
    const someId = '00000000-0000-4000-8000-000000000000';
    const runsBefore = await runCount();
    for (const who of [await f.user(), await f.withRole('EDITOR'), await f.powerUser(['USER.READ', 'USER.WRITE', 'JOB.READ', 'JOB.WRITE'])])
      for (const call of calls(someId)) expect((await call(who.client)).status).toBe(403);
    for (const call of calls(someId)) expect((await call(t.client())).status).toBe(401);
    expect(await runCount()).toBe(runsBefore);
  }, 120_000);
});

describe('starting a run', () => {
  it('every bad input answers a clear error naming the field and changes nothing', async () => {
    const [model] = await admin.client.ok(computeModelsApi.list).then((l) => l.filter((m) => m.id === grain));
    const base = model.version;
    const runs = await runCount();
    const audits = await auditCount();
    const start = (body: Record<string, unknown>) => admin.client.call(trainingApi.start, { body: { modelId: grain, baseVersion: base, ...body } });
    const field = async (body: Record<string, unknown>) => {
      const res = await start(body);
      expect(res.status).toBe(400);
      return (res.body as unknown as { code: string; details: Array<{ field: string }> }).details.map((d) => d.field);
    };
    expect(await field({ steps: 0 })).toEqual(['steps']);
    expect(await field({ steps: TRAINING_STEPS.max + 1 })).toEqual(['steps']);
    expect(await field({ holdoutShare: 0.05 })).toEqual(['holdoutShare']);
    expect(await field({ holdoutShare: 0.6 })).toEqual(['holdoutShare']);
    expect(await field({ modelId: undefined, baseVersion: undefined })).toEqual(['modelId', 'baseVersion']);
    expect(await field({ baseVersion: 'no-such-version' })).toEqual(['baseVersion']);
    expect(await field({ filter: { from: '2026-13-01' } })).toEqual(['filter.from']);
    expect(await field({ imageIds: ['nope'] })).toEqual(['imageIds[0]']);
    const other = await start({ modelId: porosity });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ code: 'MODEL_NOT_TRAINABLE' });
    const none = await start({ filter: { userIds: [admin.id] } });
    expect(none.status).toBe(409);
    expect(none.body).toMatchObject({ code: 'NOT_ENOUGH_TRAINING_IMAGES' });
    const one = await start({ imageIds: [adaImages[0].id] });
    expect(one.body).toMatchObject({ code: 'NOT_ENOUGH_TRAINING_IMAGES' });
    const notTrainable = await start({ imageIds: [adaImages[0].id, (await f.image(ada, { level: 7 })).id] });
    expect(notTrainable.status).toBe(409);
    expect(notTrainable.body).toMatchObject({ code: 'IMAGE_NOT_TRAINABLE' });
    const missing = await admin.client.call(trainingApi.start, {
      body: { modelId: '00000000-0000-4000-8000-000000000000', baseVersion: base },
    });
    expect(missing.status).toBe(404);
    expect(await runCount()).toBe(runs);
    expect(await auditCount()).toBe(audits);
  }, 60_000);

  it('queues a run with a seeded split by image, a new candidate name, the audit row; list, get and cancel', async () => {
    const [model] = (await admin.client.ok(computeModelsApi.list)).filter((m) => m.id === grain);
    const started = await admin.client.call(trainingApi.start, {
      body: { modelId: grain, baseVersion: model.version, filter: { userIds: [ada.id] }, steps: 5, seed: 42, holdoutShare: 0.34 },
    });
    expect(started.status).toBe(201);
    const run = started.body;
    expect(run).toMatchObject({ status: 'QUEUED', baseVersion: model.version, candidateVersion: `${model.version}-ft1`, steps: 5, seed: 42 });
    expect(run.message).toBeTruthy();
    expect([...run.imageIds].sort()).toEqual(adaImages.map((i) => i.id).sort());
    expect(run.holdoutImageIds).toHaveLength(1);
    expect(run.imageIds).toContain(run.holdoutImageIds[0]);
    // the same seed splits the same way
    const again = await admin.client.ok(trainingApi.start, {
      body: { modelId: grain, baseVersion: model.version, steps: 5, seed: 42, holdoutShare: 0.34 },
    });
    expect(again.holdoutImageIds).toEqual(run.holdoutImageIds);
    expect(again.candidateVersion).toBe(`${model.version}-ft2`);
    // the answer says how the images were chosen: by the filter here, by a list of ids below
    expect(run).toMatchObject({ imagesChosen: false, filter: { userIds: [ada.id] } });
    const chosen = await admin.client.ok(trainingApi.start, {
      body: { modelId: grain, baseVersion: model.version, imageIds: adaImages.map((i) => i.id), steps: 5, seed: 42 },
    });
    expect(chosen).toMatchObject({ imagesChosen: true, filter: {} });
    expect([...chosen.imageIds].sort()).toEqual(adaImages.map((i) => i.id).sort());
    await admin.client.ok(trainingApi.cancel, { params: { id: chosen.id } });

    expect((await admin.client.ok(trainingApi.get, { params: { id: run.id } })).status).toBe('QUEUED');
    const listed = await admin.client.ok(trainingApi.list, { query: { modelId: grain } });
    expect(listed.map((r) => r.id)).toEqual(expect.arrayContaining([run.id, again.id]));
    expect(await admin.client.ok(trainingApi.list, { query: { status: 'FINISHED' } })).toEqual([]);

    const cancelled = await admin.client.call(trainingApi.cancel, { params: { id: run.id } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: run.id, status: 'CANCELLED' });
    const twice = await admin.client.call(trainingApi.cancel, { params: { id: run.id } });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ code: 'TRAINING_RUN_ENDED' });
    await admin.client.ok(trainingApi.cancel, { params: { id: again.id } });

    const log = await admin.client.ok(auditApi.list, { query: { targetId: grain, action: 'model.training.' } });
    expect(log.items.map((e) => e.action)).toEqual(expect.arrayContaining(['model.training.start', 'model.training.cancel']));
    expect(log.items.find((e) => e.action === 'model.training.start')?.actor?.email).toBe(admin.email);
  }, 60_000);
});

describe('leases: a run is claimed once, an expired lease queues it again, the last attempt fails it', () => {
  it('two claims at once take one run; expiry requeues with the next attempt; after 3 attempts FAILED with a code', async () => {
    const [model] = (await admin.client.ok(computeModelsApi.list)).filter((m) => m.id === grain);
    // the app's training dispatcher must not race the claims made here (it would find no trainer anyway)
    const run = await admin.client.ok(trainingApi.start, { body: { modelId: grain, baseVersion: model.version, steps: 3 } });
    const [a, b] = await Promise.all([claimRun(t.db, null, 60_000), claimRun(t.db, null, 60_000)]);
    const claims = [a, b].filter((c) => c?.id === run.id);
    expect(claims).toHaveLength(1);
    expect(claims[0]).toMatchObject({ status: 'RUNNING', attempt: 1 });
    // a dead server: the lease runs out; the dispatcher's next tick puts the run back with the attempt kept
    await t.db
      .update(trainingRuns)
      .set({ leaseUntil: new Date(Date.now() - 1000) })
      .where(eq(trainingRuns.id, run.id));
    const requeued = await waitFor(async () => {
      const r = await admin.client.ok(trainingApi.get, { params: { id: run.id } });
      return r.status === 'QUEUED' ? r : null;
    }, 15_000);
    expect(requeued).toMatchObject({ attempt: 1, error: { code: 'LEASE_EXPIRED' }, launcherId: null });
    // the next claim is the next attempt (its fencing token)
    const next = await claimRun(t.db, null, 60_000);
    expect(next).toMatchObject({ id: run.id, status: 'RUNNING', attempt: 2 });
    // its last attempt expires too
    await t.db
      .update(trainingRuns)
      .set({ status: 'RUNNING', attempt: 3, leaseUntil: new Date(Date.now() - 1000) })
      .where(eq(trainingRuns.id, run.id));
    const failed = await waitFor(async () => {
      const r = await admin.client.ok(trainingApi.get, { params: { id: run.id } });
      return r.status === 'FAILED' ? r : null;
    }, 15_000);
    expect(failed.error?.code).toBe('TRAINING_INTERRUPTED');
    expect(failed.finishedAt).toBeTruthy();
  }, 60_000);
});

describe('trained versions: promote, rollback, the network for launchers, the version of a customization group', () => {
  /** A trained version as a finished run leaves it (the run itself needs torch: training-loop.test.ts). */
  async function trainedVersion(version: string, base: string) {
    const network = Buffer.from(`onnx bytes of ${version}`);
    const sha256 = createHash('sha256').update(network).digest('hex');
    await t.storage.put(`networks/test/${version}.onnx`, network);
    const metrics = { fScore: 0.8, deltaG: 0.2 };
    await t.db.insert(modelVersionArtefacts).values({
      modelId: grain,
      version,
      networkKey: `networks/test/${version}.onnx`,
      networkSha256: sha256,
      networkSize: network.length,
      card: {
        model: 'grain-size',
        baseVersion: base,
        version,
        runId: 'r',
        imageIds: [],
        imageCount: 0,
        holdoutImageIds: [],
        parameters: {},
        trainedAt: new Date().toISOString(),
        startedBy: null,
      },
      validation: { images: [{ id: adaImages[0].id, base: metrics, candidate: metrics }], total: { base: metrics, candidate: metrics } },
    });
    await t.db.insert(modelVersions).values({ modelId: grain, version }).onConflictDoNothing();
    return { network, sha256 };
  }

  it('promote makes the candidate current and remembers the one before; rollback restores it; both audited', async () => {
    const before = (await admin.client.ok(computeModelsApi.list)).find((m) => m.id === grain)!.version;
    const { network, sha256 } = await trainedVersion('t-ft1', before);
    const listed = await admin.client.ok(trainingApi.versions, { params: { id: grain } });
    expect(listed).toMatchObject({ currentVersion: before, previousVersion: null });
    expect(listed.versions[0]).toMatchObject({ version: 't-ft1', status: 'CANDIDATE', isCurrent: false, network: { sha256 } });

    const unknown = await admin.client.call(trainingApi.promote, { params: { id: grain, version: 'nope' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'VERSION_NOT_TRAINED' });
    const nothing = await admin.client.call(trainingApi.rollback, { params: { id: grain } });
    expect(nothing.status).toBe(409);
    expect(nothing.body).toMatchObject({ code: 'NOTHING_TO_ROLL_BACK' });

    const promoted = await admin.client.ok(trainingApi.promote, { params: { id: grain, version: 't-ft1' } });
    expect(promoted).toMatchObject({ version: 't-ft1', previousVersion: before });
    expect((await admin.client.ok(computeModelsApi.list)).find((m) => m.id === grain)!.version).toBe('t-ft1');
    const after = await admin.client.ok(trainingApi.versions, { params: { id: grain } });
    expect(after).toMatchObject({ currentVersion: 't-ft1', previousVersion: before });
    expect(after.versions[0]).toMatchObject({ status: 'PROMOTED', isCurrent: true });
    const twice = await admin.client.call(trainingApi.promote, { params: { id: grain, version: 't-ft1' } });
    expect(twice.body).toMatchObject({ code: 'VERSION_ALREADY_CURRENT' });

    // a new job runs with the promoted version, and names its network for the launcher
    const job = await f.job(ada);
    expect(job.modelVersion).toBe('t-ft1');

    // launchers fetch the network with the signed address only
    const url = `/api/launchers/networks/${sha256}`;
    expect((await t.client().get(url)).status).toBe(403);
    expect((await t.client().get(`/api/launchers/networks/not-a-sha?token=${networkToken(t.config.secret, 'not-a-sha')}`)).status).toBe(404);
    expect((await t.client().get(`${url}?token=${networkToken('wrong', sha256)}`)).status).toBe(403);
    const got = await t.client().get(`${url}?token=${networkToken(t.config.secret, sha256)}`);
    expect(got.status).toBe(200);
    expect(Buffer.from(got.buffer).equals(network)).toBe(true);

    const back = await admin.client.ok(trainingApi.rollback, { params: { id: grain } });
    expect(back).toMatchObject({ version: before, previousVersion: 't-ft1' });
    expect((await admin.client.ok(computeModelsApi.list)).find((m) => m.id === grain)!.version).toBe(before);
    expect((await admin.client.ok(trainingApi.versions, { params: { id: grain } })).versions[0]).toMatchObject({
      status: 'RETIRED',
      isCurrent: false,
    });

    const log = await admin.client.ok(auditApi.list, { query: { targetId: grain, action: 'model.version.' } });
    expect(log.items.map((e) => e.action)).toEqual(['model.version.rollback', 'model.version.promote']);
    expect(log.items[1].details).toMatchObject({ version: 't-ft1', previousVersion: before });
  }, 60_000);

  it('a customization group runs its members on its chosen version; a version of another model is refused', async () => {
    const { sha256: _sha } = await trainedVersion('t-ft9', 'x');
    const group = await admin.client.ok(customizationsApi.createGroup, { body: { nameEn: 'Steel AG', nameDe: 'Stahl AG', modelId: grain } });
    await admin.client.ok(customizationsApi.addMember, { params: { groupId: group.id }, body: { userId: ada.id } });
    const audits = await auditCount();
    const wrong = await admin.client.call(trainingApi.setGroupVersion, { params: { id: group.id }, body: { version: 'nope' } });
    expect(wrong.status).toBe(400);
    expect((wrong.body as unknown as { details: Array<{ field: string }> }).details[0].field).toBe('version');
    expect(await auditCount()).toBe(audits);
    const set = await admin.client.ok(trainingApi.setGroupVersion, { params: { id: group.id }, body: { version: 't-ft9' } });
    expect(set).toMatchObject({ groupId: group.id, modelId: grain, version: 't-ft9' });
    expect((await f.job(ada)).modelVersion).toBe('t-ft9');
    // others keep the model's current version
    const other = await f.user({ fields: { trainingConsent: 'true' } });
    expect((await f.job(other)).modelVersion).not.toBe('t-ft9');
    await admin.client.ok(trainingApi.setGroupVersion, { params: { id: group.id }, body: { version: null } });
    expect((await f.job(ada)).modelVersion).not.toBe('t-ft9');
    const log = await admin.client.ok(auditApi.list, { query: { targetId: group.id, action: 'customization.version.set' } });
    expect(log.items).toHaveLength(2);
  }, 60_000);
});

describe('server restart', () => {
  it('a run that was RUNNING when the server died is queued again after the restart', async () => {
    const first = await startTestApp({ keepData: true });
    const g = factories(first);
    const owner = await g.user({ fields: { trainingConsent: 'true' } });
    const model = await g.modelId('grain-size');
    for (const level of [40, 80]) {
      const job = await g.job(owner, { image: await g.image(owner, { level }) });
      const form = new FormData();
      form.append('files', new Blob([new Uint8Array(await maskPng(120, 80))]), 'mask.png');
      form.append('jobId', job.id);
      expect((await owner.client.request('POST', '/api/masks', { form })).status).toBe(200);
    }
    const staff = await g.admin();
    const version = (await staff.client.ok(computeModelsApi.list)).find((m) => m.id === model)!.version;
    const run = await staff.client.ok(trainingApi.start, { body: { modelId: model, baseVersion: version, steps: 2 } });
    // it was running on a launcher when the server stopped. On PGlite this process is the only dispatcher, so a
    // RUNNING run found at start is an orphan even while its lease is valid; on a PostgreSQL server another replica
    // may hold it, so it is taken back once its lease has run out (here: while the server was down)
    const embedded = !process.env.TEST_DATABASE_URL;
    await first.db
      .update(trainingRuns)
      .set({ status: 'RUNNING', attempt: 1, leaseUntil: new Date(Date.now() + (embedded ? 600_000 : -1000)) })
      .where(eq(trainingRuns.id, run.id));
    await first.close();

    const second = await startTestApp({ dataDir: first.dataDir });
    try {
      const admin2 = await factories(second).admin();
      const again = await waitFor(async () => {
        const r = await admin2.client.ok(trainingApi.get, { params: { id: run.id } });
        return r.status === 'QUEUED' ? r : null;
      }, 15_000);
      expect(again).toMatchObject({ attempt: 1, launcherId: null, imageIds: run.imageIds });
    } finally {
      await second.close();
    }
  }, 120_000);
});
