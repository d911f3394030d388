/**
 * German model display names (issue 14 item 4), over real HTTP on the real database: staff store a German name
 * beside the display name (compute_models.display_name_de); a German reader sees it in the jobs they read and the
 * models they may run, an English reader sees the display name. Without a German name, a built-in model whose
 * name staff left as shipped reads its translation, and a renamed one its display name. Built-in models are seeded
 * with their German names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { catalogApi, computeModelsApi, jobsApi, type ComputeModel } from '@lamella/contracts';
import { startTestApp, type TestApp } from './test-app.ts';
import { factories, type TestUser } from './factories.ts';
import { jobs, users } from '../src/platform/db/schema/index.ts';

let t: TestApp;
let admin: TestUser;
let german: TestUser;
let english: TestUser;
let model: ComputeModel;
let f: ReturnType<typeof factories>;

const body = (m: ComputeModel, patch: Record<string, unknown> = {}) => ({
  internalName: m.internalName,
  routingPath: m.routingPath,
  storagePath: m.storagePath,
  displayName: m.displayName,
  version: m.version,
  accessType: m.accessType,
  isDefaultVisible: m.isDefaultVisible,
  ...patch,
});

beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
  admin = await f.admin();
  german = await f.user();
  english = await f.user();
  await t.db.update(users).set({ language: 'de' }).where(eq(users.id, german.id));
  await t.db.update(users).set({ language: 'en' }).where(eq(users.id, english.id));
  model = await admin.client.ok(computeModelsApi.create, {
    body: {
      internalName: 'hardness-map',
      routingPath: '/hardness-map',
      storagePath: 'hm',
      displayName: 'Hardness map',
      displayNameDe: '  Härtekarte ',
      version: '1',
      accessType: 'PUBLIC',
    },
  });
  for (const u of [german, english]) {
    const image = await f.image(u);
    await t.db.insert(jobs).values({ ownerId: u.id, imageId: image.id, modelId: model.id, modelVersion: '1', status: 'FINISHED', source: 'WEB' });
  }
});
afterAll(async () => t?.close());

const jobModelName = async (u: TestUser) => {
  const list = await u.client.ok(jobsApi.list, { query: { modelId: model.id } });
  const found = (
    Array.isArray(list) ? list : ((list as { jobs?: unknown[]; data?: unknown[] }).jobs ?? (list as { data?: unknown[] }).data ?? [])
  ) as Array<{
    model: { displayName: string };
  }>;
  expect(found.length).toBe(1);
  return found[0].model.displayName;
};
const available = async (u: TestUser, id: string) => (await u.client.ok(catalogApi.availableModels)).find((m) => m.id === id)!;

describe('German model names', () => {
  it('staff store a German name (trimmed); German readers see it in /jobs, English readers the display name', async () => {
    expect(model.displayNameDe).toBe('Härtekarte');
    expect(await jobModelName(german)).toBe('Härtekarte');
    expect(await jobModelName(english)).toBe('Hardness map');
    // available-models carries both names; the web (lib/modelName.ts) picks by the UI language
    expect(await available(german, model.id)).toMatchObject({ displayName: 'Hardness map', displayNameDe: 'Härtekarte' });
    const tab = (await german.client.ok(catalogApi.favorites)).find((m) => m.id === model.id);
    expect(tab).toMatchObject({ displayName: 'Hardness map', displayNameDe: 'Härtekarte' });
  });

  it('an update without the field keeps it; an empty one clears it (German readers then see the display name)', async () => {
    const kept = await admin.client.ok(computeModelsApi.update, { params: { id: model.id }, body: body(model, { displayName: 'Hardness map v2' }) });
    expect(kept.displayNameDe).toBe('Härtekarte');
    const cleared = await admin.client.ok(computeModelsApi.update, { params: { id: model.id }, body: body(model, { displayNameDe: '' }) });
    expect(cleared.displayNameDe).toBeNull();
    expect(await jobModelName(german)).toBe('Hardness map');
    const list = await admin.client.ok(computeModelsApi.list);
    expect(list.find((m) => m.id === model.id)?.displayNameDe).toBeNull();
  });

  it('refuses a German name over 200 characters, naming the field, and changes nothing', async () => {
    const res = await admin.client.call(computeModelsApi.update, { params: { id: model.id }, body: body(model, { displayNameDe: 'x'.repeat(201) }) });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('displayNameDe');
    const list = await admin.client.ok(computeModelsApi.list);
    expect(list.find((m) => m.id === model.id)?.displayName).toBe('Hardness map');
  });

  it('built-in models are seeded with their German names; a renamed one without a German name reads its new name', async () => {
    const list = await admin.client.ok(computeModelsApi.list);
    const grain = list.find((m) => m.internalName === 'grain-size')!;
    expect(grain).toMatchObject({ displayName: 'Grain size (ASTM E112)', displayNameDe: 'Korngröße (ASTM E112)' });
    expect(list.find((m) => m.internalName === 'cracks')?.displayNameDe).toBe('Risse');
    await t.db.insert(jobs).values({
      ownerId: german.id,
      imageId: (await f.image(german, { level: 33 })).id,
      modelId: grain.id,
      modelVersion: grain.version,
      status: 'FINISHED',
      source: 'WEB',
    });
    const grainName = async () => {
      const l = await german.client.ok(jobsApi.list, { query: { modelId: grain.id } });
      const js = (Array.isArray(l) ? l : ((l as { jobs?: unknown[] }).jobs ?? [])) as Array<{ model: { displayName: string } }>;
      return js[0].model.displayName;
    };
    expect(await grainName()).toBe('Korngröße (ASTM E112)');
    // cleared German name, shipped English name: the translation
    await admin.client.ok(computeModelsApi.update, { params: { id: grain.id }, body: body(grain, { displayNameDe: null }) });
    expect(await grainName()).toBe('Korngröße (ASTM E112)');
    // renamed by staff, no German name: German readers see the staff's name
    await admin.client.ok(computeModelsApi.update, {
      params: { id: grain.id },
      body: body(grain, { displayName: 'Grain size', displayNameDe: null }),
    });
    expect(await grainName()).toBe('Grain size');
    await admin.client.ok(computeModelsApi.update, {
      params: { id: grain.id },
      body: body(grain, { displayName: 'Grain size', displayNameDe: 'Korngröße' }),
    });
    expect(await grainName()).toBe('Korngröße');
  });
});
