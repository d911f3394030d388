/**
 * Launcher management that cannot break the pool (issue 9 item 9) and the "not responding" state (issue 9
 * item 2 on the Servers screen): duplicate IPs and ports are refused, a local launcher that cannot start shows
 * as failed, a launcher left running by a killed server is reused and can be stopped, every write is audited.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { ADMIN, freePort, startTestApp, waitFor, type TestApp } from '../test-app.ts';
import { auditLog, executors, nodes } from '../../src/platform/db/schema/index.ts';
import { LauncherSupervisor } from '../../src/platform/compute/supervisor.ts';
import { LOCAL_DEPLOY_WAIT_MS } from '../../src/modules/compute-nodes/service.ts';
import type { HttpClient } from '../http-client.ts';

let t: TestApp;
let admin: HttpClient;
let user: HttpClient;
/** Answers HTTP but is no launcher: it holds a port a launcher then cannot take. */
let squatter: Server;
let squatterPort = 0;
/** A stand-in launcher that answers /health: the server it belongs to stays up while the dispatcher checks it. */
let healthy: Server;
let healthyPort = 0;

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.signin(ADMIN.email, ADMIN.password)).client;
  user = (await t.signupVerified()).client;
  squatter = createServer((_req, res) => res.writeHead(404).end());
  await new Promise<void>((r) => squatter.listen(0, '127.0.0.1', () => r()));
  squatterPort = (squatter.address() as { port: number }).port;
  healthy = createServer((req, res) => {
    if (req.url !== '/health') return void res.writeHead(404).end();
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ status: 'ok', version: '1.0.0', models: [] }));
  });
  await new Promise<void>((r) => healthy.listen(0, '127.0.0.1', () => r()));
  healthyPort = (healthy.address() as { port: number }).port;
});
afterAll(async () => {
  squatter?.close();
  healthy?.close();
  await t?.close();
});

const audited = async (action: string, targetId: string) =>
  (
    await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, action), eq(auditLog.targetId, targetId)))
  ).length;

describe('authorization of the launcher calls', () => {
  it('anonymous 401, USER 403, ADMIN 2xx', async () => {
    for (const [method, path, body] of [
      ['GET', '/api/admin/executors/versions', undefined],
      ['PUT', '/api/admin/executors', { version: '1' }],
      ['POST', '/api/admin/executors', {}],
      ['POST', '/api/admin/nodes', {}],
    ] as const) {
      expect((await t.client().request(method, path, { json: body })).status, `${method} ${path}`).toBe(401);
      expect((await user.request(method, path, { json: body })).status, `${method} ${path}`).toBe(403);
    }
    expect((await admin.get('/api/admin/executors/versions')).status).toBe(200);
    expect((await admin.get('/api/admin/nodes')).status).toBe(200);
  });
  it('an unknown launcher or server is 404', async () => {
    expect((await admin.delete('/api/admin/executors/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await admin.post('/api/admin/executors/00000000-0000-4000-8000-000000000000/test')).status).toBe(404);
    expect((await admin.delete('/api/admin/nodes/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('servers and ports are unique', () => {
  let labId = '';
  it('a second server with the same IP is refused (409, EN and DE), nothing is created', async () => {
    const first = await admin.post('/api/admin/nodes', { name: 'lab-a', ip: '127.0.0.1', description: 'a', nodeType: 'ON_PREMISE' });
    expect(first.status).toBe(200);
    labId = first.body.id;
    expect(await audited('node.create', labId)).toBe(1);
    const second = await admin.post('/api/admin/nodes', { name: 'lab-b', ip: '127.0.0.1', description: 'b', nodeType: 'ON_PREMISE' });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('NODE_IP_TAKEN');
    expect(second.body.message).toBe('A server with the IP address 127.0.0.1 already exists (lab-a). Add the launcher to that server instead.');
    // the caller's language (the lng cookie wins over the account's language)
    admin.cookies.set('lng', 'de');
    const de = await admin.post('/api/admin/nodes', { name: 'lab-b', ip: '127.0.0.1', description: 'b' });
    admin.cookies.delete('lng');
    expect(de.status).toBe(409);
    expect(de.body.message).toContain('Ein Server mit der IP-Adresse 127.0.0.1 existiert bereits');
    const all = await t.db.select().from(nodes).where(eq(nodes.ip, '127.0.0.1'));
    expect(all.map((n) => n.name)).toEqual(['lab-a']);
  });
  it('a launcher on a port already used on that server is refused (409), nothing is created', async () => {
    const a = await admin.post('/api/admin/executors', { version: '1.0.0', nodeId: labId, port: healthyPort });
    expect(a.status).toBe(200);
    expect(await audited('launcher.create', a.body.id)).toBe(1);
    const b = await admin.post('/api/admin/executors', { version: '1.0.0', nodeId: labId, port: healthyPort });
    expect(b.status).toBe(409);
    expect(b.body.code).toBe('LAUNCHER_PORT_TAKEN');
    expect(b.body.message).toBe(`Port ${healthyPort} is already used by another launcher on 127.0.0.1. Choose a free port.`);
    expect(await t.db.select().from(executors).where(eq(executors.nodeId, labId))).toHaveLength(1);
    // another port on the same server is fine
    const c = await admin.post('/api/admin/executors', { version: '1.0.0', nodeId: labId, port: await freePort() });
    expect(c.status).toBe(200);
    expect((await admin.delete(`/api/admin/executors/${c.body.id}`)).status).toBe(200);
    expect(await audited('launcher.delete', c.body.id)).toBe(1);
  });
  it('this machine may be both the local node and an on-premise server; ports are checked across both', async () => {
    const [local] = await t.db.insert(nodes).values({ name: 'local', ip: '127.0.0.9', description: 'this machine', provider: 'local' }).returning();
    await t.db.insert(executors).values({ nodeId: local.id, port: 9200, version: 'x', isEnabled: false });
    const onPrem = await admin.post('/api/admin/nodes', { name: 'bench', ip: '127.0.0.9', description: 'same box' });
    expect(onPrem.status).toBe(200);
    const clash = await admin.post('/api/admin/executors', { version: '1', nodeId: onPrem.body.id, port: 9200 });
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('LAUNCHER_PORT_TAKEN');
    // a second on-premise entry for that machine is still refused
    expect((await admin.post('/api/admin/nodes', { name: 'bench 2', ip: '127.0.0.9', description: 'again' })).status).toBe(409);
    await admin.delete(`/api/admin/nodes/${onPrem.body.id}`);
    await t.db.delete(nodes).where(eq(nodes.id, local.id));
  });
  it('a launcher not heard from within 15 s is "not responding"', async () => {
    // a launcher nobody runs: the health checks never record an answer, the test sets its last one
    const far = await admin.post('/api/admin/nodes', { name: 'far', ip: '10.1.2.4', description: 'unreachable' });
    const x = await admin.post('/api/admin/executors', { version: '1', nodeId: far.body.id, port: 9100 });
    expect(x.status).toBe(200);
    const launcherId = x.body.id as string;
    const state = async () =>
      ((await admin.get('/api/admin/nodes')).body as Array<{ id: string; executors: Array<{ id: string; notResponding: boolean }> }>)
        .find((n) => n.id === far.body.id)!
        .executors.find((e) => e.id === launcherId)!.notResponding;
    await t.db.update(executors).set({ lastSeenAt: new Date() }).where(eq(executors.id, launcherId));
    expect(await state()).toBe(false);
    await t.db
      .update(executors)
      .set({ lastSeenAt: new Date(Date.now() - 16_000) })
      .where(eq(executors.id, launcherId));
    expect(await state()).toBe(true);
    // never heard from: counted from its creation
    await t.db
      .update(executors)
      .set({ lastSeenAt: null, createdAt: new Date(Date.now() - 60_000) })
      .where(eq(executors.id, launcherId));
    expect(await state()).toBe(true);
    await admin.delete(`/api/admin/nodes/${far.body.id}`);
  });
  it('deleting the server is audited', async () => {
    expect((await admin.delete(`/api/admin/nodes/${labId}`)).status).toBe(200);
    expect(await audited('node.delete', labId)).toBe(1);
  });
});

describe('models registry writes are audited', () => {
  it('create, update, access, delete', async () => {
    const m = await admin.post('/api/admin/compute-models', {
      internalName: 'audit-model',
      routingPath: '/audit',
      storagePath: 's',
      displayName: 'Audit',
      version: '1',
    });
    expect(m.status).toBe(200);
    const id = m.body.id as string;
    const u = await t.signupVerified();
    await admin.put(`/api/admin/compute-models/${id}`, {
      internalName: 'audit-model',
      routingPath: '/audit',
      storagePath: 's',
      displayName: 'A',
      version: '2',
    });
    await admin.post(`/api/admin/compute-models/${id}/access`, { userId: u.id });
    // an unknown user is 404 and changes nothing
    expect((await admin.post(`/api/admin/compute-models/${id}/access`, { userId: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    await admin.delete(`/api/admin/compute-models/${id}/access/${u.id}`);
    await admin.put(`/api/admin/compute-models/${id}/manual`, { text: '<p>x</p>', position: 'TOP', language: 'en' });
    await admin.delete(`/api/admin/compute-models/${id}`);
    for (const action of ['model.create', 'model.update', 'model.access.grant', 'model.access.revoke', 'model.manual.update', 'model.delete'])
      expect(await audited(action, id), action).toBe(1);
  });
});

describe('local launchers', () => {
  it('a launcher that cannot start (its port is taken) shows as failed, not running', async () => {
    const [local] = await t.db.insert(nodes).values({ name: 'local', ip: '127.0.0.1', description: 'this machine', provider: 'local' }).returning();
    const t0 = Date.now();
    const x = await admin.post('/api/admin/executors', {
      version: 'test',
      nodeId: local.id,
      port: squatterPort,
      envVariables: { LAUNCHER_THREADS: '1' },
    });
    expect(x.status).toBe(200);
    // the answer comes once the process has failed, not after the whole wait for a first health answer (45 s)
    expect(Date.now() - t0).toBeLessThan(LOCAL_DEPLOY_WAIT_MS);
    expect(x.body.deployed).toBe(false);
    expect(x.body.state).toBe('failed');
    expect(x.body.message).toContain(`could not start on port ${squatterPort}`);
    expect(x.body.message).toMatch(/exited \(1\): launcher: cannot listen on port \d+: listen EADDRINUSE/);
    const failed = await waitFor(async () => {
      const list = (await admin.get('/api/admin/nodes')).body as Array<{
        id: string;
        executors: Array<{ id: string; state: string; failure: string | null }>;
      }>;
      const e = list.find((n) => n.id === local.id)!.executors.find((l) => l.id === x.body.id)!;
      return e.state === 'failed' ? e : null;
    }, 90_000);
    expect(failed.failure).toMatch(/exited/);
    expect(t.supervisor.status(x.body.id).state).toBe('failed');
    expect((await admin.delete(`/api/admin/executors/${x.body.id}`)).status).toBe(200);
    expect(t.supervisor.status(x.body.id).state).toBe('stopped');
    await t.db.delete(nodes).where(eq(nodes.id, local.id));
  }, 120_000);

  it('a local launcher runs with its GPU affinity (LAUNCHER_GPU_AFFINITY, reported as gpu on /health)', async () => {
    const [local] = await t.db.insert(nodes).values({ name: 'local', ip: '127.0.0.1', description: 'this machine', provider: 'local' }).returning();
    const port = await freePort();
    // the launcher's field wins over a variable of the same name
    const x = await admin.post('/api/admin/executors', {
      version: 'test',
      nodeId: local.id,
      port,
      gpuAffinity: 3,
      envVariables: { LAUNCHER_THREADS: '1', LAUNCHER_GPU_AFFINITY: '1' },
    });
    expect(x.status).toBe(200);
    const health = await waitFor(async () => {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2000) });
        return res.ok ? ((await res.json()) as { gpu?: number }) : null;
      } catch {
        return null;
      }
    }, 90_000);
    expect(health.gpu).toBe(3);
    expect(t.supervisor.pid(x.body.id)).toBeGreaterThan(0);
    expect((await admin.delete(`/api/admin/executors/${x.body.id}`)).status).toBe(200);
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
    await t.db.delete(nodes).where(eq(nodes.id, local.id));
  }, 120_000);

  it('kill -9 of the server leaves no launcher that blocks the next start: it is reused, and stopping it ends it', async () => {
    const port = await freePort();
    const stateDir = await mkdtemp(join(tmpdir(), 'lamella-supervisor-'));
    const owner = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./fixtures/launcher-owner.ts', import.meta.url)), String(port), stateDir],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const launcherPid = await new Promise<number>((resolve, reject) => {
      let out = '';
      owner.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /ready (\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      owner.on('exit', () => reject(new Error(`owner exited: ${out}`)));
    });
    // The launcher runs in its own process group.
    expect(() => process.kill(-launcherPid, 0)).not.toThrow();
    owner.kill('SIGKILL');
    await new Promise((r) => owner.once('exit', r));
    // The orphan still holds the port…
    expect((await fetch(`http://127.0.0.1:${port}/health`)).ok).toBe(true);
    // … and the next server process reuses it instead of failing on the taken port.
    const next = new LauncherSupervisor({ stateDir });
    next.start('again', port);
    await waitFor(async () => next.isRunning('again'), 10_000);
    expect(next.pid('again')).toBeUndefined();
    expect(next.status('again').state).toBe('running');
    await next.stop('again');
    await waitFor(async () => {
      try {
        process.kill(launcherPid, 0);
        return false;
      } catch {
        return true;
      }
    }, 10_000);
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
    await rm(stateDir, { recursive: true, force: true });
  }, 120_000);
});
