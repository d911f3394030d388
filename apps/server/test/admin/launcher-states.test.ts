/**
 * Honest fault states (issue 26 item 5): a launcher is exactly one of running / updating / stopped / not responding
 * / failed, from its last health check; Add Launcher works on any on-premise server, even one marked offline; a new
 * launcher is "deployed" only once it answered its health check; Add Launcher's versions come from what launchers
 * report or the releases of this build.
 */
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { computeNodesApi, type ComputeNode } from '@lamella/contracts';
import { ADMIN, freePort, startTestApp, type TestApp } from '../test-app.ts';
import { executors, nodes } from '../../src/platform/db/schema/index.ts';
import { factories } from '../factories.ts';
import type { HttpClient } from '../http-client.ts';

let t: TestApp;
let admin: HttpClient;
/** A stand-in launcher answering /health (version 7.7.7). */
let healthy: Server;
let healthyPort = 0;
const RELEASE = (JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.signin(ADMIN.email, ADMIN.password)).client;
  healthy = createServer((req, res) => {
    if (req.url !== '/health') return void res.writeHead(404).end();
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ status: 'ok', version: '7.7.7', models: [{ name: 'grain-size', versions: ['1'] }] }));
  });
  await new Promise<void>((r) => healthy.listen(0, '127.0.0.1', () => r()));
  healthyPort = (healthy.address() as { port: number }).port;
});
afterAll(async () => {
  healthy?.close();
  await t?.close();
});

const nodeOf = async (id: string): Promise<ComputeNode> => (await admin.ok(computeNodesApi.list)).find((n) => n.id === id)!;

describe('launcher states and Add Launcher', () => {
  it('Add Launcher on an offline on-premise server: refused as "deployed" while nothing answers, deployed once a launcher answers', async () => {
    const node = await admin.ok(computeNodesApi.create, {
      body: { name: 'bench', ip: '127.0.0.1', description: 'frozen launcher', nodeType: 'ON_PREMISE' },
    });
    // the dispatcher marked it OFFLINE (its only launcher froze): a replacement can still be added
    await t.db.update(nodes).set({ status: 'OFFLINE' }).where(eq(nodes.id, node.id));
    expect((await nodeOf(node.id)).canAddLauncher).toBe(true);

    const nothing = await freePort();
    const started = Date.now();
    const dead = await admin.call(computeNodesApi.createLauncher, { body: { version: RELEASE, nodeId: node.id, port: nothing } });
    expect(dead.status).toBe(200);
    expect(dead.body.deployed).toBe(false);
    expect(dead.body.message).toBe(
      `The launcher was added but did not answer its health check at 127.0.0.1:${nothing}. Start it there, then use "Test connection".`,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_000); // it waited for an answer
    expect(dead.body.state).toBe('notResponding');
    expect(dead.body.notResponding).toBe(true);

    const live = await admin.call(computeNodesApi.createLauncher, { body: { version: RELEASE, nodeId: node.id, port: healthyPort } });
    expect(live.status).toBe(200);
    expect(live.body).toMatchObject({ deployed: true, state: 'running', notResponding: false, message: 'Executor has been deployed.' });
    expect(live.body.reportedModels).toEqual([{ name: 'grain-size', versions: ['1'] }]);
    await admin.delete(`/api/admin/nodes/${node.id}`);
  }, 60_000);

  it('a cloud server that is stopped takes no launcher (409 NODE_OFFLINE)', async () => {
    const [cloud] = await t.db
      .insert(nodes)
      .values({ name: 'cloud', ip: '10.7.7.7', description: 'stopped', nodeType: 'CLOUD', provider: 'OVH', instanceId: 'i-1', status: 'OFFLINE' })
      .returning();
    expect((await nodeOf(cloud.id)).canAddLauncher).toBe(false);
    const r = await admin.call(computeNodesApi.createLauncher, { body: { version: RELEASE, nodeId: cloud.id } });
    expect([r.status, (r.body as unknown as { code: string }).code]).toEqual([409, 'NODE_OFFLINE']);
    expect(await t.db.select().from(executors).where(eq(executors.nodeId, cloud.id))).toHaveLength(0);
    await t.db.delete(nodes).where(eq(nodes.id, cloud.id));
  });

  it('exactly one state from the settings and the last health check', async () => {
    const [node] = await t.db.insert(nodes).values({ name: 'far', ip: '10.1.2.9', description: 'x' }).returning();
    const [x] = await t.db.insert(executors).values({ nodeId: node.id, port: 9101, version: '1' }).returning();
    const state = async () => {
      const e = (await nodeOf(node.id)).executors[0];
      return { state: e.state, notResponding: e.notResponding };
    };
    const set = (v: Partial<typeof executors.$inferInsert>) => t.db.update(executors).set(v).where(eq(executors.id, x.id));
    // never answered
    expect(await state()).toEqual({ state: 'notResponding', notResponding: true });
    await set({ lastSeenAt: new Date() });
    expect(await state()).toEqual({ state: 'running', notResponding: false });
    // frozen: the last answer is older than 15 s (was "Running" and "Not responding" side by side)
    await set({ lastSeenAt: new Date(Date.now() - 16_000) });
    expect(await state()).toEqual({ state: 'notResponding', notResponding: true });
    await set({ isUpdating: true });
    expect(await state()).toEqual({ state: 'updating', notResponding: false });
    await set({ isEnabled: false, isUpdating: false });
    expect(await state()).toEqual({ state: 'stopped', notResponding: false });
    await t.db.delete(nodes).where(eq(nodes.id, node.id));
  });

  it("version choices: the launchers' reported versions and the releases; ADMIN only", async () => {
    const node = await admin.ok(computeNodesApi.create, { body: { name: 'rep', ip: '127.0.0.1', description: 'reports 7.7.7' } });
    await admin.ok(computeNodesApi.createLauncher, { body: { version: RELEASE, nodeId: node.id, port: healthyPort } });
    const choices = await admin.ok(computeNodesApi.versionChoices);
    expect(choices.reported).toContain('7.7.7');
    expect([...choices.reported, ...choices.releases]).toContain(RELEASE);
    expect(new Set([...choices.reported, ...choices.releases]).size).toBe(choices.reported.length + choices.releases.length);
    const f = factories(t);
    const power = await f.powerUser(['USER.READ', 'USER.WRITE', 'JOB.READ', 'JOB.WRITE']);
    const editor = await f.withRole('EDITOR');
    const plain = await f.user();
    expect([
      (await t.client().get('/api/admin/executors/version-choices')).status,
      (await plain.client.get('/api/admin/executors/version-choices')).status,
      (await editor.client.get('/api/admin/executors/version-choices')).status,
      (await power.client.get('/api/admin/executors/version-choices')).status,
    ]).toEqual([401, 403, 403, 403]);
    await admin.delete(`/api/admin/nodes/${node.id}`);
  });
});
