import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { auditLog, computeModels, jobs, privileges, users } from '../../src/platform/db/schema/index.ts';
import { ADMIN, startTestApp, type TestApp } from '../test-app.ts';
import type { HttpClient } from '../http-client.ts';

let t: TestApp;
let admin: HttpClient;
let member: { client: HttpClient; id: string; email: string };
let outsider: { client: HttpClient; id: string };
let grain = '';
let porosity = '';
let privateModel = '';
const base = '/api/admin/customizations';

type Group = {
  id: string;
  nameEn: string;
  parents: Array<{ parentId: string; priority: number; parent: { id: string; nameEn: string; nameDe: string } }>;
  members: Array<{ id: string }>;
};

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.signin(ADMIN.email, ADMIN.password)).client;
  member = await t.signupVerified({ name: 'Marie', surname: 'Curie' });
  outsider = await t.signupVerified();
  const rows = await t.db.select().from(computeModels);
  grain = rows.find((m) => m.internalName === 'grain-size')!.id;
  porosity = rows.find((m) => m.internalName === 'porosity')!.id;
  const [p] = await t.db
    .insert(computeModels)
    .values({ internalName: 'cust-private', routingPath: '/cp', storagePath: 'cp', displayName: 'Custom Private', version: '1' })
    .returning();
  privateModel = p.id;
});
afterAll(async () => t?.close());

async function createGroup(nameEn: string, modelId = grain, extra: Record<string, unknown> = {}): Promise<Group> {
  const r = await admin.post(`${base}/groups`, { nameEn, nameDe: `${nameEn} DE`, modelId, description: 'd', ...extra });
  expect(r.status).toBe(200);
  return r.body;
}

describe('groups CRUD', () => {
  it('validates the form, naming each field (nothing created)', async () => {
    const r = await admin.post(`${base}/groups`, { nameEn: '  ' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('VALIDATION_FAILED');
    const msgs = Object.fromEntries(r.body.details.map((d: { field: string; message: string }) => [d.field, d.message]));
    expect(msgs).toMatchObject({ nameEn: 'Name is required', nameDe: 'Name is required', modelId: 'Model is required' });
    // The body schema (contracts CustomizationGroupBody) refuses a description that is not text, naming it.
    const badDescription = await admin.post(`${base}/groups`, { nameEn: 'a', nameDe: 'b', modelId: grain, description: { text: 'x' } });
    expect(badDescription.status).toBe(400);
    expect(badDescription.body.details.map((d: { field: string }) => d.field)).toContain('description');
    const unknown = await admin.post(`${base}/groups`, { nameEn: 'a', nameDe: 'b', modelId: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details[0]).toMatchObject({ field: 'modelId', message: 'The selected model does not exist' });
    expect((await admin.get(`${base}/groups`)).body).toEqual([]);
  });

  it('creates, lists with model, members and parents, edits, deletes', async () => {
    const r = await admin.post(`${base}/groups`, { nameEn: ' Steel ', nameDe: 'Stahl', modelId: grain });
    expect(r.body).toMatchObject({
      nameEn: 'Steel',
      nameDe: 'Stahl',
      description: null,
      model: { id: grain, displayName: 'Grain size (ASTM E112)' },
      members: [],
      parents: [],
      message: 'Group has been created.',
    });
    const id = r.body.id;
    const list = await admin.get(`${base}/groups`);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ id, modelId: grain, model: { id: grain } });
    const up = await admin.put(`${base}/groups/${id}`, { nameEn: 'Steel 2', nameDe: 'Stahl 2', modelId: porosity, description: 'About steel' });
    expect(up.body).toMatchObject({ nameEn: 'Steel 2', description: 'About steel', model: { id: porosity }, message: 'Group has been edited.' });
    const bad = await admin.put(`${base}/groups/${id}`, { nameEn: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { field: string }) => d.field)).toEqual(['nameDe', 'modelId']);
    admin.cookies.set('lng', 'de');
    const del = await admin.delete(`${base}/groups/${id}`);
    admin.cookies.delete('lng');
    expect(del.body).toMatchObject({ id, deleted: true, message: 'Die Gruppe wurde gelöscht.' });
    expect((await admin.delete(`${base}/groups/${id}`)).status).toBe(404);
    expect((await admin.put(`${base}/groups/${id}`, { nameEn: 'a', nameDe: 'b', modelId: grain })).status).toBe(404);
    expect((await admin.get(`${base}/groups/not-a-uuid/settings`)).status).toBe(400);
  });
});

describe('members', () => {
  it('adds and removes members; a user is in at most one group per model', async () => {
    const a = await createGroup('Members A');
    const b = await createGroup('Members B');
    const other = await createGroup('Members Porosity', porosity);
    expect((await admin.put(`${base}/groups/${a.id}/members`, {})).body.details[0]).toMatchObject({ field: 'userId', message: 'User is required' });
    expect((await admin.put(`${base}/groups/${a.id}/members`, { userId: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    const add = await admin.put(`${base}/groups/${a.id}/members`, { userId: member.id });
    expect(add.body).toMatchObject({ groupId: a.id, userId: member.id, message: 'Member has been added.' });
    // idempotent in the same group
    expect((await admin.put(`${base}/groups/${a.id}/members`, { userId: member.id })).status).toBe(200);
    const clash = await admin.put(`${base}/groups/${b.id}/members`, { userId: member.id });
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('CUSTOMIZATION_MEMBER_CONFLICT');
    expect(clash.body.message).toContain('"Members A"');
    // another model is fine
    expect((await admin.put(`${base}/groups/${other.id}/members`, { userId: member.id })).status).toBe(200);
    // moving a group to a model where its member is already in a group is refused
    const move = await admin.put(`${base}/groups/${other.id}`, { nameEn: 'x', nameDe: 'y', modelId: grain });
    expect(move.status).toBe(409);
    const list = await admin.get(`${base}/groups`);
    const ga = list.body.find((g: Group) => g.id === a.id);
    expect(ga.members).toEqual([{ id: member.id, name: 'Marie', surname: 'Curie', email: member.email }]);
    const rm = await admin.delete(`${base}/groups/${a.id}/members/${member.id}`);
    expect(rm.body.message).toBe('Member has been removed.');
    expect((await admin.delete(`${base}/groups/${a.id}/members/${member.id}`)).status).toBe(404);
    expect((await admin.put(`${base}/groups/${b.id}/members`, { userId: member.id })).status).toBe(200);
    for (const g of [a, b, other]) await admin.delete(`${base}/groups/${g.id}`);
  });
});

describe('settings, parents and resolution', () => {
  let B: Group, P0: Group, P1: Group, C: Group;
  beforeAll(async () => {
    B = await createGroup('Base');
    P0 = await createGroup('Parent zero');
    P1 = await createGroup('Parent one');
    C = await createGroup('Child');
  });

  it('defaults and schema of a model', async () => {
    const r = await admin.get(`${base}/models/${grain}/defaults`);
    expect(r.status).toBe(200);
    expect(r.body.defaults).toMatchObject({
      magnification: { unit: 'µm', number: 100, length: 100 },
      segmentation: { maxPoints: 64, maskErosion: 40 },
      modelVersion: '20261209',
    });
    expect(r.body.schema.type).toBe('object');
    expect((await admin.get(`${base}/models/00000000-0000-4000-8000-000000000000/defaults`)).status).toBe(404);
  });

  it('validate answers null or Ajv errors, by model or by group', async () => {
    const ok = await admin.post(`${base}/validate`, { modelId: grain, settings: { segmentation: { maxPoints: 12 } } });
    expect(ok.status).toBe(200);
    expect(ok.body).toBeNull();
    const bad = await admin.post(`${base}/validate`, { groupId: C.id, settings: { magnification: { length: 5000, unit: 'km' } } });
    expect(bad.status).toBe(200);
    expect(bad.body).toEqual(
      expect.arrayContaining([
        { instancePath: '/magnification/length', message: 'must be <= 1000' },
        expect.objectContaining({ instancePath: '/magnification/unit' }),
      ]),
    );
    const notObject = await admin.post(`${base}/validate`, { modelId: grain, settings: [1] });
    expect(notObject.body).toEqual([{ instancePath: '', message: 'must be object' }]);
    const none = await admin.post(`${base}/validate`, { settings: {} });
    expect(none.status).toBe(400);
    expect(none.body.details[0]).toMatchObject({ field: 'modelId', message: 'Model is required' });
  });

  it('saves settings only when they match the schema', async () => {
    const bad = await admin.put(`${base}/groups/${B.id}/settings`, { settings: { magnification: { length: 5000 } } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('SETTINGS_INVALID');
    expect(bad.body.message).toBe("The settings do not match the model's settings schema");
    expect(bad.body.details[0]).toMatchObject({ field: 'settings.magnification.length', message: '/magnification/length: must be <= 1000' });
    const notObj = await admin.put(`${base}/groups/${B.id}/settings`, { settings: 'x' });
    expect(notObj.status).toBe(400);
    expect(notObj.body.details[0]).toMatchObject({ field: 'settings' });
    expect((await admin.get(`${base}/groups/${B.id}/settings`)).body.settings).toEqual({});

    const put = async (g: Group, settings: Record<string, unknown>) => {
      const r = await admin.put(`${base}/groups/${g.id}/settings`, { settings });
      expect(r.status).toBe(200);
      expect(r.body.message).toBe('Settings have been updated.');
    };
    await put(B, { segmentation: { minScore: 0.5, maxPoints: 10 } });
    await put(P0, { segmentation: { maxPoints: 20 } });
    await put(P1, { segmentation: { maxPoints: 30, maxIterations: 7 }, magnification: { unit: 'nm' } });
    await put(C, { layer: { threshold: 0.7 } });
    const got = await admin.get(`${base}/groups/${P1.id}/settings`);
    expect(got.body).toMatchObject({
      groupId: P1.id,
      modelId: grain,
      settings: { segmentation: { maxPoints: 30, maxIterations: 7 }, magnification: { unit: 'nm' } },
    });
  });

  it('sets parents (replacing the set), refusing unknown ids, duplicates, self and cycles', async () => {
    expect((await admin.post(`${base}/groups/${P0.id}/parents`, { parents: [{ parentId: B.id, priority: 0 }] })).status).toBe(200);
    const r = await admin.post(`${base}/groups/${C.id}/parents`, {
      parents: [
        { parentId: P1.id, priority: 1 },
        { parentId: P0.id, priority: 0 },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Parents added successfully');
    expect(r.body.parents).toEqual([
      { parentId: P0.id, priority: 0, parent: { id: P0.id, nameEn: 'Parent zero', nameDe: 'Parent zero DE' } },
      { parentId: P1.id, priority: 1, parent: { id: P1.id, nameEn: 'Parent one', nameDe: 'Parent one DE' } },
    ]);

    const self = await admin.post(`${base}/groups/${C.id}/parents`, { parents: [{ parentId: C.id, priority: 0 }] });
    expect(self.status).toBe(400);
    expect(self.body).toMatchObject({ code: 'CUSTOMIZATION_SELF_PARENT', message: 'A group cannot be its own parent.' });
    // B ← P0 ← C: making C a parent of B closes a cycle
    const cycle = await admin.post(`${base}/groups/${B.id}/parents`, { parents: [{ parentId: C.id, priority: 0 }] });
    expect(cycle.status).toBe(400);
    expect(cycle.body.code).toBe('CUSTOMIZATION_CYCLE');
    expect(cycle.body.message).toBe('Adding "Child" as a parent would create a cycle of inheritance.');
    const direct = await admin.post(`${base}/groups/${P0.id}/parents`, {
      parents: [
        { parentId: B.id, priority: 0 },
        { parentId: C.id, priority: 1 },
      ],
    });
    expect(direct.body.code).toBe('CUSTOMIZATION_CYCLE');
    const dup = await admin.post(`${base}/groups/${C.id}/parents`, {
      parents: [
        { parentId: P0.id, priority: 0 },
        { parentId: P0.id, priority: 1 },
      ],
    });
    expect(dup.body.details[0]).toMatchObject({ field: 'parents.1.parentId', key: 'adminErrors.parentDuplicate' });
    const unknown = await admin.post(`${base}/groups/${C.id}/parents`, {
      parents: [{ parentId: '00000000-0000-4000-8000-000000000000', priority: 0 }],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details[0].field).toBe('parents.0.parentId');
    const prio = await admin.post(`${base}/groups/${C.id}/parents`, { parents: [{ parentId: P0.id, priority: -1 }] });
    expect(prio.body.details[0]).toMatchObject({ field: 'parents.0.priority', message: 'Priority must be a whole number of at least 0' });
    expect((await admin.post(`${base}/groups/${C.id}/parents`, {})).status).toBe(400);
    // nothing changed by the refused calls
    const list = await admin.get(`${base}/groups`);
    expect(list.body.find((g: Group) => g.id === C.id).parents.map((p: { parentId: string }) => p.parentId)).toEqual([P0.id, P1.id]);
    expect(list.body.find((g: Group) => g.id === B.id).parents).toEqual([]);
  });

  it('inheritance chain: ancestors, strongest first', async () => {
    const r = await admin.get(`${base}/groups/${C.id}/inheritance-chain`);
    expect(r.status).toBe(200);
    expect(r.body.map((g: { id: string }) => g.id)).toEqual([P0.id, B.id, P1.id]);
    expect(r.body[0]).toMatchObject({ nameEn: 'Parent zero', model: { id: grain }, depth: 1, priority: 0, order: 0 });
    expect(r.body[1]).toMatchObject({ depth: 2, priority: null });
    expect((await admin.get(`${base}/groups/${B.id}/inheritance-chain`)).body).toEqual([]);
  });

  it('resolves defaults ← parents (priority 0 wins) ← own, deep', async () => {
    const r = await admin.get(`${base}/groups/${C.id}/resolved-settings`);
    expect(r.status).toBe(200);
    const s = r.body.settings;
    expect(s.segmentation).toEqual({ maxPoints: 20, minScore: 0.5, maxScore: 0.95, maxIterations: 7, maskErosion: 40 });
    expect(s.magnification).toEqual({ unit: 'nm', number: 100, length: 100 });
    expect(s.layer).toEqual({ histogramBins: 10, blurring: 200, threshold: 0.7, cutBottom: 50 });
    expect(s.modelVersion).toBe('20261209');
    // reorder: P1 first now wins maxPoints
    await admin.post(`${base}/groups/${C.id}/parents`, {
      parents: [
        { parentId: P1.id, priority: 0 },
        { parentId: P0.id, priority: 1 },
      ],
    });
    expect((await admin.get(`${base}/groups/${C.id}/resolved-settings`)).body.settings.segmentation.maxPoints).toBe(30);
    // remove a parent
    const rm = await admin.delete(`${base}/groups/${C.id}/parents/${P1.id}`);
    expect(rm.body.message).toBe('Parent removed successfully');
    expect((await admin.delete(`${base}/groups/${C.id}/parents/${P1.id}`)).status).toBe(404);
    const after = (await admin.get(`${base}/groups/${C.id}/resolved-settings`)).body.settings;
    expect(after.segmentation).toMatchObject({ maxPoints: 20, maxIterations: 64 });
    expect(after.magnification.unit).toBe('µm');
    await admin.post(`${base}/groups/${C.id}/parents`, {
      parents: [
        { parentId: P0.id, priority: 0 },
        { parentId: P1.id, priority: 1 },
      ],
    });
  });

  it('clones settings and parents, not members, with a name suffix', async () => {
    await admin.put(`${base}/groups/${C.id}/members`, { userId: member.id });
    const r = await admin.post(`${base}/groups/${C.id}/clone`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      nameEn: 'Child (copy)',
      nameDe: 'Child DE (Kopie)',
      description: 'd',
      model: { id: grain },
      members: [],
      message: 'Group has been cloned.',
    });
    expect(r.body.id).not.toBe(C.id);
    expect(r.body.parents.map((p: { parentId: string; priority: number }) => [p.parentId, p.priority])).toEqual([
      [P0.id, 0],
      [P1.id, 1],
    ]);
    expect((await admin.get(`${base}/groups/${r.body.id}/settings`)).body.settings).toEqual({ layer: { threshold: 0.7 } });
    expect((await admin.get(`${base}/groups/${r.body.id}/resolved-settings`)).body.settings).toEqual(
      (await admin.get(`${base}/groups/${C.id}/resolved-settings`)).body.settings,
    );
    await admin.delete(`${base}/groups/${r.body.id}`);
  });

  it('a member creating a job runs with the resolved settings and the job records the group', async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 120, g: 30, b: 9 } } })
      .png()
      .toBuffer();
    const upload = async (c: HttpClient) => {
      const form = new FormData();
      form.append('files', new Blob([png]), 'steel.png');
      const res = await c.request('POST', '/api/images', { form });
      expect(res.status).toBe(200);
      return res.body[0].id as string;
    };
    const resolved = (await admin.get(`${base}/groups/${C.id}/resolved-settings`)).body.settings;
    const img = await upload(member.client);
    const r = await member.client.post('/api/jobs', { imageIds: [img], modelIds: [grain, porosity] });
    expect(r.status).toBe(200);
    const rows = await t.db.select().from(jobs).where(eq(jobs.ownerId, member.id));
    const g = rows.find((j) => j.modelId === grain)!;
    expect(g.customizationId).toBe(C.id);
    const { modelVersion: _v, ...expected } = resolved;
    expect(g.settings).toEqual(expected);
    expect(g.modelVersion).toBe('20261209');
    // not a member of a porosity group: no customization, the model's own defaults
    const p = rows.find((j) => j.modelId === porosity)!;
    expect(p.customizationId).toBeNull();
    expect(p.settings).toEqual({});

    const other = await upload(outsider.client);
    await outsider.client.post('/api/jobs', { imageIds: [other], modelIds: [grain] });
    const [o] = await t.db.select().from(jobs).where(eq(jobs.ownerId, outsider.id));
    expect(o.customizationId).toBeNull();
    expect(o.settings).toEqual({});

    // a group pinning a model version wins over the model's current version
    await admin.put(`${base}/groups/${B.id}/settings`, { settings: { segmentation: { minScore: 0.5, maxPoints: 10 }, modelVersion: '20241025' } });
    const again = await member.client.post('/api/jobs', { imageIds: [img], modelIds: [grain] });
    const [row] = await t.db.select().from(jobs).where(eq(jobs.id, again.body[0].id));
    expect(row.modelVersion).toBe('20241025');
    expect(row.settings.segmentation).toMatchObject({ maxPoints: 20, minScore: 0.5 });
    await admin.put(`${base}/groups/${B.id}/settings`, { settings: { segmentation: { minScore: 0.5, maxPoints: 10 } } });
  });

  it('admin sandbox: an explicit customization runs with that group and deep-merges the variables', async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 1, g: 130, b: 9 } } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('files', new Blob([png]), 'sb.png');
    const img = (await admin.request('POST', '/api/images', { form })).body[0].id;
    const r = await admin.post('/api/sandbox', {
      imageId: img,
      modelsIds: [grain],
      params: { customizationId: C.id, variables: [{ key: 'segmentation.minScore', vals: ['0.6'] }] },
    });
    expect(r.status).toBe(200);
    const [row] = await t.db.select().from(jobs).where(eq(jobs.id, r.body[0].id));
    expect(row.customizationId).toBe(C.id);
    expect(row.source).toBe('IDENTIFICATION');
    expect(row.settings.segmentation).toEqual({ maxPoints: 20, minScore: 0.6, maxScore: 0.95, maxIterations: 7, maskErosion: 40 });
  });

  it('user side: the customizations of a model (all for ADMIN, own group for others)', async () => {
    const all = await admin.get(`/api/models/${grain}/customizations`);
    expect(all.status).toBe(200);
    expect(all.body.map((c: { nameEn: string }) => c.nameEn)).toEqual(['Base', 'Child', 'Parent one', 'Parent zero']);
    expect(all.body[0]).toEqual({ id: B.id, nameEn: 'Base', nameDe: 'Base DE', modelId: grain });
    expect((await member.client.get(`/api/models/${grain}/customizations`)).body).toEqual([
      { id: C.id, nameEn: 'Child', nameDe: 'Child DE', modelId: grain },
    ]);
    expect((await outsider.client.get(`/api/models/${grain}/customizations`)).body).toEqual([]);
    expect((await outsider.client.get(`/api/models/${privateModel}/customizations`)).status).toBe(404);
    expect((await t.client().get(`/api/models/${grain}/customizations`)).status).toBe(401);
  });

  it('deleting a parent group drops the links; jobs keep their settings', async () => {
    await admin.delete(`${base}/groups/${P0.id}`);
    const list = await admin.get(`${base}/groups`);
    expect(list.body.find((g: Group) => g.id === C.id).parents.map((p: { parentId: string }) => p.parentId)).toEqual([P1.id]);
    const rows = await t.db.select().from(jobs).where(eq(jobs.customizationId, C.id));
    expect(rows.length).toBeGreaterThan(0);
    await admin.delete(`${base}/groups/${C.id}`);
    const [j] = await t.db.select().from(jobs).where(eq(jobs.id, rows[0].id));
    expect(j.customizationId).toBeNull();
    expect(j.settings).toEqual(rows[0].settings);
  });
});

describe('authorization', () => {
  it('anonymous 401; USER, EDITOR and POWER_USER (with or without privileges) 403; ADMIN allowed', async () => {
    const g = await createGroup('Auth');
    const u = await t.signupVerified();
    const editor = await t.signupVerified();
    await t.db.update(users).set({ role: 'EDITOR' }).where(eq(users.id, editor.id));
    const power = await t.signupVerified();
    await t.db.update(users).set({ role: 'POWER_USER' }).where(eq(users.id, power.id));
    const powerAll = await t.signupVerified();
    await t.db.update(users).set({ role: 'POWER_USER' }).where(eq(users.id, powerAll.id));
    await t.db.insert(privileges).values([
      { userId: powerAll.id, resource: 'USER', action: 'READ' },
      { userId: powerAll.id, resource: 'JOB', action: 'READ' },
    ]);
    const zero = '00000000-0000-4000-8000-000000000000';
    const calls: Array<[string, string, unknown?]> = [
      ['GET', `${base}/groups`],
      ['POST', `${base}/groups`, { nameEn: 'n', nameDe: 'n', modelId: grain }],
      ['PUT', `${base}/groups/${g.id}`, { nameEn: 'Auth', nameDe: 'Auth DE', modelId: grain }],
      ['POST', `${base}/groups/${g.id}/clone`, {}],
      ['PUT', `${base}/groups/${g.id}/members`, { userId: u.id }],
      ['DELETE', `${base}/groups/${g.id}/members/${u.id}`],
      ['POST', `${base}/groups/${g.id}/parents`, { parents: [] }],
      ['DELETE', `${base}/groups/${g.id}/parents/${zero}`],
      ['GET', `${base}/groups/${g.id}/inheritance-chain`],
      ['GET', `${base}/groups/${g.id}/settings`],
      ['PUT', `${base}/groups/${g.id}/settings`, { settings: {} }],
      ['GET', `${base}/groups/${g.id}/resolved-settings`],
      ['GET', `${base}/models/${grain}/defaults`],
      ['POST', `${base}/validate`, { modelId: grain, settings: {} }],
      ['DELETE', `${base}/groups/${zero}`],
    ];
    const anon = t.client();
    for (const [method, path, json] of calls) {
      const send = (c: HttpClient) => c.request(method, path, json === undefined ? {} : { json });
      expect([path, (await send(anon)).status]).toEqual([path, 401]);
      for (const c of [u.client, editor.client, power.client, powerAll.client])
        expect([method, path, (await send(c)).status]).toEqual([method, path, 403]);
      const ok = (await send(admin)).status;
      // the admin passes the guard (the last two calls name things that do not exist)
      expect([method, path, ok]).toEqual([method, path, path.includes(zero) ? 404 : 200]);
    }
  });
});

describe('audit', () => {
  it('records every change of a group (who, what, which group) and none for a refused one', async () => {
    const g = await createGroup('Audited');
    const p = await createGroup('Audited parent');
    await admin.put(`${base}/groups/${g.id}`, { nameEn: 'Audited 2', nameDe: 'Geprüft', modelId: grain });
    await admin.put(`${base}/groups/${g.id}/members`, { userId: outsider.id });
    await admin.delete(`${base}/groups/${g.id}/members/${outsider.id}`);
    await admin.post(`${base}/groups/${g.id}/parents`, { parents: [{ parentId: p.id, priority: 0 }] });
    await admin.delete(`${base}/groups/${g.id}/parents/${p.id}`);
    await admin.put(`${base}/groups/${g.id}/settings`, { settings: {} });
    expect((await admin.put(`${base}/groups/${g.id}/settings`, { settings: { magnification: { length: 5000 } } })).status).toBe(400);
    const clone = await admin.post(`${base}/groups/${g.id}/clone`);
    await admin.delete(`${base}/groups/${g.id}`);
    const rows = await t.db.select().from(auditLog).where(eq(auditLog.targetId, g.id)).orderBy(auditLog.createdAt);
    expect(rows.map((r) => r.action)).toEqual([
      'customization.group.create',
      'customization.group.update',
      'customization.member.add',
      'customization.member.remove',
      'customization.parents.set',
      'customization.parent.remove',
      'customization.settings.set',
      'customization.group.delete',
    ]);
    const [adminRow] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, ADMIN.email));
    expect(rows.every((r) => r.actorId === adminRow.id && r.targetType === 'customization_group')).toBe(true);
    const [cloned] = await t.db.select().from(auditLog).where(eq(auditLog.targetId, clone.body.id));
    expect(cloned).toMatchObject({ action: 'customization.group.clone', details: { from: g.id } });
  });
});
