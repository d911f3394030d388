import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ADMIN, startTestApp, type TestApp } from '../test-app.ts';
import { computeModels, modelVersions, nodes } from '../../src/platform/db/schema/index.ts';
import type { HttpClient } from '../http-client.ts';

let t: TestApp;
let admin: HttpClient;
let user: { client: HttpClient; id: string };
let fake: Server;
let fakePort = 0;
const updates: unknown[] = [];

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.signin(ADMIN.email, ADMIN.password)).client;
  user = await t.signupVerified();
  // A stand-in launcher answering /health and /update like apps/launcher.
  fake = createServer((req, res) => {
    if (req.url === '/health') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ status: 'ok', version: '2.0.0', models: [{ name: 'admin-test-model', versions: ['20250101', '20241025'] }] }));
    } else if (req.url === '/update') {
      let b = '';
      req.on('data', (d) => (b += d));
      req.on('end', () => {
        updates.push(JSON.parse(b));
        res.end('{}');
      });
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', () => r()));
  fakePort = (fake.address() as { port: number }).port;
});
afterAll(async () => {
  fake?.close();
  await t?.close();
});

const modelBody = {
  internalName: 'admin-test-model',
  routingPath: '/admin-test',
  storagePath: 's3://models/admin-test',
  displayName: 'Admin Test',
  version: '20250101',
};

describe('models registry', () => {
  let id = '';
  it('validates required fields, naming each field', async () => {
    const r = await admin.post('/api/admin/compute-models', { routingPath: 'no-slash' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('VALIDATION_FAILED');
    const fields = r.body.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['internalName', 'routingPath', 'storagePath', 'displayName', 'version']));
    expect(r.body.details.find((d: { field: string }) => d.field === 'routingPath').message).toBe("Routing path must start with '/'");
  });
  it('creates with defaults PRIVATE and shown by default; name is unique', async () => {
    const r = await admin.post('/api/admin/compute-models', modelBody);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ accessType: 'PRIVATE', isDefaultVisible: true, stats: { totalCount: 0 }, trainable: { count: 0 } });
    id = r.body.id;
    const dup = await admin.post('/api/admin/compute-models', modelBody);
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('MODEL_NAME_TAKEN');
  });
  it('lists, stats, short list, update', async () => {
    const list = await admin.get('/api/admin/compute-models');
    expect(list.body.find((m: { id: string }) => m.id === id)).toMatchObject({ displayName: 'Admin Test', stats: { lastWeekCount: 0 } });
    const stats = await admin.get('/api/admin/compute-models/stats');
    expect(stats.body.find((m: { id: string }) => m.id === id).stats.totalCount).toBe(0);
    const short = await admin.get('/api/admin/compute-models/list');
    expect(short.body.find((m: { id: string }) => m.id === id)).toEqual({
      id,
      displayName: 'Admin Test',
      name: 'admin-test-model',
      displayNameDe: null,
    });
    const up = await admin.put(`/api/admin/compute-models/${id}`, { ...modelBody, displayName: 'Renamed', accessType: 'PUBLIC' });
    expect(up.body).toMatchObject({ displayName: 'Renamed', accessType: 'PUBLIC', message: 'Model has been updated.' });
    await admin.put(`/api/admin/compute-models/${id}`, { ...modelBody, accessType: 'PRIVATE' });
  });
  it('grants and revokes access; the user side follows the grant', async () => {
    expect((await user.client.get(`/api/models/${id}/example`)).status).toBe(404);
    const g = await admin.post(`/api/admin/compute-models/${id}/access`, { userId: user.id });
    expect(g.body.message).toBe('Access has been granted.');
    const list = await admin.get(`/api/admin/compute-models/${id}/access`);
    expect(list.body[0]).toMatchObject({ userId: user.id, user: { name: 'Ada', surname: 'Lovelace' } });
    expect((await user.client.get(`/api/models/${id}/example`)).status).toBe(200);
    const rv = await admin.delete(`/api/admin/compute-models/${id}/access/${user.id}`);
    expect(rv.body.message).toBe('Access to the model has been revoked.');
    expect((await user.client.get(`/api/models/${id}/manual/TOP/en`)).status).toBe(404);
  });
  it('example results: both required, HTML sanitised', async () => {
    const bad = await admin.put(`/api/admin/compute-models/${id}/example`, { contentEn: '<p> </p>', contentDe: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { message: string }) => d.message)).toEqual(['Content is required', 'Content is required']);
    const ok = await admin.put(`/api/admin/compute-models/${id}/example`, {
      contentEn: '<p onclick="x()">Hi<script>alert(1)</script></p><img src="https://x/y.png">',
      contentDe: '<b>Hallo</b>',
    });
    expect(ok.body.message).toBe('Example results have been updated.');
    expect(ok.body.contentEn).toBe('<p>Hi</p><img src="https://x/y.png" />');
    expect((await admin.get(`/api/admin/compute-models/${id}/example`)).body.contentDe).toBe('<b>Hallo</b>');
  });
  it('manuals per position and language', async () => {
    const put = await admin.put(`/api/admin/compute-models/${id}/manual`, { text: '<h2>How to</h2>', position: 'BOTTOM', language: 'de' });
    expect(put.body).toMatchObject({ text: '<h2>How to</h2>', message: 'Model manual has been updated.' });
    expect((await admin.get(`/api/admin/compute-models/${id}/manual/BOTTOM/de`)).body.text).toBe('<h2>How to</h2>');
    expect((await admin.get(`/api/admin/compute-models/${id}/manual/TOP/de`)).body.text).toBe('');
    expect((await admin.put(`/api/admin/compute-models/${id}/manual`, { text: 'x', position: 'MIDDLE', language: 'fr' })).status).toBe(400);
    await admin.post(`/api/admin/compute-models/${id}/access`, { userId: user.id });
    expect((await user.client.get(`/api/models/${id}/manual/BOTTOM/de`)).body.text).toBe('<h2>How to</h2>');
  });
  it('versions come from model_versions', async () => {
    const v = await admin.get(`/api/admin/compute-models/${id}/versions`);
    expect(v.body.map((x: { version: string }) => x.version)).toContain('20250101');
  });
});

describe('servers and launchers', () => {
  let nodeId = '';
  let executorId = '';
  it('validates the node form', async () => {
    const r = await admin.post('/api/admin/nodes', { name: 'gpu', ip: '300.1.1.1', description: '', nodeType: 'CLOUD' });
    expect(r.status).toBe(400);
    const msgs = Object.fromEntries(r.body.details.map((d: { field: string; message: string }) => [d.field, d.message]));
    expect(msgs.ip).toBe('Invalid IP Address');
    expect(Object.keys(msgs)).toEqual(expect.arrayContaining(['ip', 'description', 'provider', 'instanceId']));
  });
  it('creates an on-premise node (cloud fields cleared) and lists it with derived launcher state', async () => {
    const r = await admin.post('/api/admin/nodes', {
      name: 'lab',
      ip: '127.0.0.1',
      description: 'lab box',
      nodeType: 'ON_PREMISE',
      provider: 'OVH',
      instanceId: 'i-1',
    });
    expect(r.body).toMatchObject({ provider: null, instanceId: null, status: 'UNKNOWN', executors: [] });
    nodeId = r.body.id;
    const x = await admin.post('/api/admin/executors', { version: '2.0.0-beta', nodeId, port: fakePort, envVariables: { A: '1' } });
    expect(x.body).toMatchObject({ port: fakePort, gpuAffinity: 0, state: 'running', betaBadge: true, message: 'Executor has been deployed.' });
    executorId = x.body.id;
    const bad = await admin.post('/api/admin/executors', { nodeId, gpuAffinity: -1, envVariables: '{oops' });
    expect(bad.body.details.map((d: { field: string }) => d.field)).toEqual(['version', 'gpuAffinity', 'envVariables']);
    const list = await admin.get('/api/admin/nodes');
    const n = list.body.find((x: { id: string }) => x.id === nodeId);
    expect(n.executorCount).toBe(1);
    expect(n.executors[0].envVariables).toEqual({ A: '1' });
  });
  it('tests the connection for real and records reported versions', async () => {
    const m = await t.db
      .insert(computeModels)
      .values({ internalName: 'admin-test-model-2', routingPath: '/x', storagePath: 'x', displayName: 'x', version: '1' })
      .returning();
    void m;
    const r = await admin.post(`/api/admin/executors/${executorId}/test`);
    expect(r.body).toMatchObject({ isConnected: true, message: 'Communication with launcher is working.' });
    const [model] = await t.db.select().from(computeModels).where(eq(computeModels.internalName, 'admin-test-model'));
    const versions = await t.db.select().from(modelVersions).where(eq(modelVersions.modelId, model.id));
    expect(versions.map((v) => v.version).sort()).toEqual(['20241025', '20250101']);
    const dead = await admin.post('/api/admin/executors', { version: '1', nodeId, port: 1 });
    const r2 = await admin.post(`/api/admin/executors/${dead.body.id}/test`);
    expect(r2.body).toMatchObject({
      isConnected: false,
      message: 'Communication with model is not working. Please check the launcher and try again.',
    });
    await admin.delete(`/api/admin/executors/${dead.body.id}`);
  });
  it('updates all launchers, only to a version a launcher reports', async () => {
    // The fake launcher reports 2.0.0: that is the only version offered (the configured '2.0.0-beta' is not).
    expect((await admin.get('/api/admin/executors/versions')).body).toEqual(['2.0.0']);
    const refused = await admin.put('/api/admin/executors', { version: '3.0.0' });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('VERSION_NOT_REPORTED');
    expect(refused.body.details[0]).toMatchObject({ field: 'version' });
    expect(refused.body.message).toContain('No launcher reports version 3.0.0');
    expect(updates).not.toContainEqual({ version: '3.0.0' });
    const r = await admin.put('/api/admin/executors', { version: '2.0.0' });
    expect(r.body.message).toBe('Executors have been updated.');
    expect(updates).toContainEqual({ version: '2.0.0' });
  });
  it('start/stop rules and the OVH provider without credentials', async () => {
    const cloud = await admin.post('/api/admin/nodes', {
      name: 'ovh',
      ip: '10.0.0.1',
      description: 'd',
      nodeType: 'CLOUD',
      provider: 'OVH',
      instanceId: 'abc',
    });
    expect(cloud.body.status).toBe('OFFLINE');
    const add = await admin.post('/api/admin/executors', { version: '1', nodeId: cloud.body.id });
    expect(add.status).toBe(409);
    const stop = await admin.put(`/api/admin/nodes/${cloud.body.id}/stop`);
    expect(stop.status).toBe(409);
    expect(stop.body.message).toBe('Failed to stop node. It may already be stopping or there is an issue with the configuration.');
    const start = await admin.put(`/api/admin/nodes/${cloud.body.id}/start`);
    expect(start.status).toBe(502);
    expect(start.body.code).toBe('CLOUD_PROVIDER_UNAVAILABLE');
    expect(start.body.message).toContain('OVH_APPLICATION_KEY');
    await t.db.update(nodes).set({ status: 'ONLINE' }).where(eq(nodes.id, cloud.body.id));
    const again = await admin.put(`/api/admin/nodes/${cloud.body.id}/start`);
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('Failed to start node.');
    expect((await admin.delete(`/api/admin/nodes/${cloud.body.id}`)).status).toBe(200);
    expect((await admin.delete(`/api/admin/nodes/${nodeId}`)).status).toBe(200);
  });
});
