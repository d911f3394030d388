import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { computeNodesApi, imagesApi, launcherRegistrationApi as api } from '@lamella/contracts';
import { auditLog, executors, jobs } from '../src/platform/db/schema/index.ts';
import { factories, type TestUser } from './factories.ts';
import { poresImage } from './synthetic.ts';
import { startTestApp, waitFor, type TestApp } from './test-app.ts';

/**
 * Launchers that join by themselves: a registration token created by the ADMIN for a server; a real launcher
 * process (apps/launcher) started with the server's URL and the token registers, takes jobs at once, and is
 * removed (and stops) when the token is revoked.
 */
const launcherMain = fileURLToPath(new URL('../../launcher/src/main.ts', import.meta.url));
const root = fileURLToPath(new URL('../../..', import.meta.url));

function startLauncher(env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', launcherMain], {
    cwd: root,
    env: { ...process.env, LAUNCHER_PORT: '0', LAUNCHER_THREADS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** A porosity micrograph uploaded by `u` (a blank picture would fail the model). */
async function pores(u: TestUser, count: number) {
  const { png } = await poresImage({ width: 320, height: 240, count, r: 8 });
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(png)], { type: 'image/png' }), `pores-${count}.png`);
  const [image] = await u.client.ok(imagesApi.upload, { form });
  return image;
}

let t: TestApp;
let f: ReturnType<typeof factories>;
let admin: TestUser;
let nodeId: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
  admin = await f.admin();
  const node = await admin.client.ok(computeNodesApi.create, {
    body: { name: 'gpu-1', ip: '127.0.0.1', description: 'GPU machine', nodeType: 'ON_PREMISE' },
  });
  nodeId = node.id;
}, 300_000);
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  await t?.close();
});

describe('registration tokens', () => {
  it('are ADMIN only; the token is shown once, the list shows its prefix', async () => {
    const u = await f.user();
    expect((await u.client.call(api.createToken, { params: { id: nodeId }, body: {} })).status).toBe(403);
    expect((await t.client().call(api.listTokens, { params: { id: nodeId } })).status).toBe(401);
    const created = await admin.client.ok(api.createToken, { params: { id: nodeId }, body: { name: 'rack 4' } });
    expect(created.token).toMatch(/^lrt_[A-Za-z0-9_-]{32}$/);
    expect(created).toMatchObject({ name: 'rack 4', nodeId, launcherCount: 0, tokenPrefix: created.token.slice(0, 10) });
    const list = await admin.client.ok(api.listTokens, { params: { id: nodeId } });
    expect(list.find((x) => x.id === created.id)).toMatchObject({ name: 'rack 4', tokenPrefix: created.token.slice(0, 10) });
    expect(JSON.stringify(list)).not.toContain(created.token);
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.action, 'launcher.token.create'));
    expect(audit.some((a) => a.targetId === nodeId)).toBe(true);
    const missing = await admin.client.call(api.createToken, { params: { id: '00000000-0000-4000-8000-000000000000' }, body: {} });
    expect(missing.status).toBe(404);
  });

  it('registration refuses a wrong token (401), a host other than the server IP and a bad port (400), changing nothing', async () => {
    const created = await admin.client.ok(api.createToken, { params: { id: nodeId }, body: {} });
    const before = await t.db.select().from(executors);
    const wrong = await t.client({ authorization: 'Bearer lrt_not-a-token' }).call(api.register, { body: { port: 9100 } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: 'INVALID_REGISTRATION_TOKEN' });
    expect((await t.client().call(api.register, { body: { port: 9100 } })).status).toBe(401);
    const c = t.client({ authorization: `Bearer ${created.token}` });
    const host = await c.call(api.register, { body: { port: 9100, host: '10.0.0.9' } });
    expect(host.status).toBe(400);
    expect(JSON.stringify(host.body)).toContain('host');
    const port = await c.call(api.register, { body: { port: 70000 } });
    expect(port.status).toBe(400);
    expect(JSON.stringify(port.body)).toContain('port');
    expect(await t.db.select().from(executors)).toHaveLength(before.length);
  });
});

describe('a launcher started with the server URL and a token', () => {
  it('registers as a launcher of the server, runs jobs at once, and is removed (and stops) when the token is revoked', async () => {
    const created = await admin.client.ok(api.createToken, { params: { id: nodeId }, body: { name: 'auto' } });
    const launcher = startLauncher({
      LAUNCHER_SERVER_URL: t.baseUrl,
      LAUNCHER_REGISTRATION_TOKEN: created.token,
      LAUNCHER_VERSION: '7.7.7-auto',
      LAUNCHER_REGISTER_EVERY_S: '1',
    });
    children.push(launcher.child);
    // It appears on the Servers screen with the version and models it reported.
    const entry = await waitFor(async () => {
      const nodes = await admin.client.ok(computeNodesApi.list);
      const x = nodes.find((n) => n.id === nodeId)?.executors[0];
      return x && x.reportedModels.length ? x : null;
    }, 60_000).catch((err) => {
      throw new Error(`${err}: ${launcher.output()}`);
    });
    expect(entry.version).toBe('7.7.7-auto');
    expect(entry.reportedModels.map((m) => m.name)).toContain('grain-size');
    const list = await admin.client.ok(api.listTokens, { params: { id: nodeId } });
    expect(list.find((x) => x.id === created.id)).toMatchObject({ launcherCount: 1 });
    expect(list.find((x) => x.id === created.id)!.lastUsedAt).not.toBeNull();

    // Used at once: a job runs on it.
    const u = await f.user();
    const job = await f.job(u, { image: await pores(u, 7), model: 'porosity' });
    const done = await waitFor(async () => {
      const [row] = await t.db.select().from(jobs).where(eq(jobs.id, job.id));
      return row.status === 'FINISHED' || row.status === 'FAILED' ? row : null;
    }, 60_000);
    expect(`${done.status} ${done.error ?? ''}`).toBe('FINISHED ');
    expect(done.executorId).toBe(entry.id);

    // Registering again (its periodic round, or a restart) keeps the one entry.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await t.db.select().from(executors).where(eq(executors.nodeId, nodeId))).length).toBe(1);

    // Revoked: the launcher leaves the server, and the launcher process, refused, stops.
    const revoked = await admin.client.ok(api.revokeToken, { params: { id: created.id } });
    expect(revoked).toMatchObject({ revoked: true, removedLaunchers: 1 });
    expect(await t.db.select().from(executors).where(eq(executors.id, entry.id))).toHaveLength(0);
    const code = await Promise.race([launcher.exited, new Promise((r) => setTimeout(() => r('still running'), 15_000))]);
    expect(code).toBe(1);
    expect(launcher.output()).toMatch(/registration refused/);
    // No further jobs reach it.
    const next = await f.job(u, { image: await pores(u, 9), model: 'porosity' });
    await new Promise((r) => setTimeout(r, 2000));
    const [row] = await t.db.select().from(jobs).where(eq(jobs.id, next.id));
    expect(row.status).toBe('NEW');
    expect((await admin.client.call(api.revokeToken, { params: { id: created.id } })).status).toBe(404);
  }, 240_000);
});
