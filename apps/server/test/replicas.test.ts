import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import pg from 'pg';
import { createClient } from 'redis';
import { io as connect, type Socket } from 'socket.io-client';
import { loadConfig } from '../src/config.ts';
import { openDatabase, openScratchPostgres, type Database } from '../src/platform/db/client.ts';
import { executors, jobs, nodes, results } from '../src/platform/db/schema/index.ts';
import { S3Storage } from '../src/platform/storage/s3.ts';
import { createEngine, type Engine } from '../../launcher/src/engine.ts';
import { startLauncher } from '../../launcher/src/server.ts';
import { adminUsersApi, imagesApi, jobsApi, usersApi } from '@lamella/contracts';
import { factories } from './factories.ts';
import { poresImage } from './synthetic.ts';
import { startS3Server } from './s3-server.ts';
import { CACHES_ON, startTestApp, waitFor, type TestApp } from './test-app.ts';

/**
 * Several server replicas on one PostgreSQL database and one Redis (README "Deployment"): two apps, each with
 * its own database pool, dispatcher and socket.io server, files in one S3 bucket (s3rver). Runs in CI; skipped
 * only when PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test) or Redis
 * (TEST_REDIS_URL, default redis://127.0.0.1:6379) does not answer.
 */
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function reachable(): Promise<string | null> {
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
  } catch (err) {
    return `PostgreSQL at ${PG_URL} is not reachable (${(err as Error).message})`;
  }
  const r = createClient({ url: REDIS_URL, socket: { connectTimeout: 2000, reconnectStrategy: false } });
  r.on('error', () => undefined);
  try {
    await r.connect();
    await r.ping();
    await r.close();
  } catch (err) {
    return `Redis at ${REDIS_URL} is not reachable (${(err as Error).message})`;
  }
  return null;
}
const unavailable = await reachable();
if (unavailable) console.warn(`replicas.test.ts SKIPPED: ${unavailable}`);

describe('configuration of a replica', () => {
  it('START_LOCAL_LAUNCHER=false, REDIS_URL and REDIS_PREFIX', () => {
    expect(loadConfig({}).startLocalLauncher).toBe(true);
    expect(loadConfig({ START_LOCAL_LAUNCHER: 'false' }).startLocalLauncher).toBe(false);
    expect(loadConfig({ START_LOCAL_LAUNCHER: '0' }).startLocalLauncher).toBe(false);
    expect(loadConfig({}).redisUrl).toBeNull();
    expect(loadConfig({ REDIS_URL: REDIS_URL, REDIS_PREFIX: 'x:' })).toMatchObject({ redisUrl: REDIS_URL, redisPrefix: 'x:' });
  });
});

describe.skipIf(unavailable !== null)('two replicas on one PostgreSQL and one Redis', () => {
  const prefix = `lamella-test-${randomBytes(4).toString('hex')}:`;
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let dbA: Database;
  let dbB: Database;
  let a: TestApp;
  let b: TestApp;
  let launcher: Awaited<ReturnType<typeof startLauncher>>;
  /** Analyses the launcher ran, by the SHA-256 of the image it was sent. */
  const runs = new Map<string, number>();
  const storages: S3Storage[] = [];
  const sockets: Socket[] = [];
  let dir: string;

  beforeAll(async () => {
    s3 = await startS3Server();
    dir = await mkdtemp(join(tmpdir(), 'lamella-replicas-'));
    // One fresh database; each replica opens its own pool on it (A creates and migrates it, B migrates nothing more).
    dbA = await openScratchPostgres(PG_URL, join(dir, 'db-name'));
    const { readFile } = await import('node:fs/promises');
    const url = new URL(PG_URL);
    url.pathname = `/${(await readFile(join(dir, 'db-name'), 'utf8')).trim()}`;
    dbB = await openDatabase({ url: url.toString(), dir: null });
    const env = {
      REDIS_URL,
      REDIS_PREFIX: prefix,
      SIGNUP_LIMIT_PER_HOUR: '100000',
      START_LOCAL_LAUNCHER: 'false',
      ...CACHES_ON,
    };
    const storage = () => {
      const s = new S3Storage({ ...s3.settings, bucket: s3.settings.bucket! });
      storages.push(s);
      return s;
    };
    // limiter 'config': the apps' own choice, RedisRateLimiter (REDIS_URL).
    a = await startTestApp({ database: dbA, env, storage, limiter: 'config' });
    b = await startTestApp({ database: dbB, env, storage, limiter: 'config' });

    // One launcher (a real launcher service with two slots) both dispatchers send jobs to; it counts what it runs.
    const engine = createEngine(2);
    const counting: Engine = {
      ...engine,
      slots: engine.slots,
      models: () => engine.models(),
      run: (r) => {
        const h = createHash('sha256').update(r.image).digest('hex');
        runs.set(h, (runs.get(h) ?? 0) + 1);
        return engine.run(r);
      },
      close: () => engine.close(),
    };
    launcher = await startLauncher({ port: 0, version: 'replica-test', engine: counting });
    const [node] = await dbA.db.insert(nodes).values({ name: 'gpu', ip: '127.0.0.1', description: 'shared launcher' }).returning();
    await dbA.db.insert(executors).values({ nodeId: node.id, port: launcher.port, version: 'replica-test' });
    await a.launchersReady();
    await b.launchersReady();
  }, 180_000);

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await b?.close();
    await a?.close();
    await launcher?.close();
    await dbB?.close();
    await dbA?.close(); // drops the database
    for (const s of storages) s.close();
    await s3?.close();
    const r = createClient({ url: REDIS_URL });
    await r.connect();
    const keys: string[] = [];
    for await (const batch of r.scanIterator({ MATCH: `${prefix}*` })) keys.push(...(batch as unknown as string[]));
    if (keys.length) await r.del(keys);
    await r.close();
    await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('a session made on A is valid on B; sign-in failures count against one limit across both', async () => {
    const fa = factories(a);
    const u = await fa.user();
    const cookie = u.client.cookies.get('lamella_session')!;
    const onB = b.client();
    onB.cookies.set('lamella_session', cookie);
    const me = await onB.get('/api/users/me');
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(u.id);
    // signinAddress: 5 failures per address and account; 3 on A and 2 on B use it up, the next attempt on either is refused.
    const wrong = { email: u.email, password: 'Wrong-Password-1' };
    for (let i = 0; i < 5; i++) expect((await (i % 2 ? b : a).signin(wrong.email, wrong.password)).res.status).toBe(401);
    const refused = await a.signin(u.email, u.password);
    expect(refused.res.status).toBe(429);
    expect(Number(refused.res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await b.signin(u.email, u.password)).res.status).toBe(429);
  });

  it("a privilege grant or a block made on A ends B's cached session read (NOTIFY from the database)", async () => {
    const fa = factories(a);
    const u = await fa.powerUser([]);
    const onB = b.client();
    onB.cookies.set('lamella_session', u.client.cookies.get('lamella_session')!);
    expect((await onB.ok(usersApi.me)).permissions).toEqual([]);
    expect(b.app.ctx.sessionOptions.cache?.size).toBeGreaterThan(0); // B keeps the read
    const { client: admin } = await fa.admin();
    await admin.ok(adminUsersApi.setAcl, { params: { id: u.id }, body: { privileges: [{ resource: 'JOB', action: 'READ' }] } });
    // B has not written: only the database's notification can drop its entry (within moments, not its 30 s)
    await waitFor(async () => (await onB.ok(usersApi.me)).permissions.includes('JOB.READ'), 5000);
    await admin.ok(adminUsersApi.setRole, { params: { id: u.id }, body: { role: 'BLOCKED' } });
    await waitFor(async () => (await onB.call(usersApi.me)).status === 401, 5000);
  });

  it("a job created on A shows in the user's job list kept by B", async () => {
    const fa = factories(a);
    const u = await fa.user();
    const onB = b.client();
    onB.cookies.set('lamella_session', u.client.cookies.get('lamella_session')!);
    expect(await onB.ok(jobsApi.list, { query: {} })).toEqual([]);
    expect(b.app.ctx.listCaches?.own.size).toBeGreaterThan(0);
    const image = await fa.image(u);
    const [created] = await u.client.ok(jobsApi.create, { body: { imageIds: [image.id], modelIds: [await fa.modelId('porosity')] } });
    await waitFor(async () => (await onB.ok(jobsApi.list, { query: {} })).some((j) => j.id === created.id), 5000);
  });

  it('a notification raised on A reaches the user connected to B', async () => {
    const fa = factories(a);
    const u = await fa.user();
    const socket = connect(b.baseUrl, {
      path: '/socket.io',
      transports: ['websocket'],
      extraHeaders: { cookie: `lamella_session=${u.client.cookies.get('lamella_session')}` },
    });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.on('connect', () => resolve());
      socket.on('connect_error', reject);
    });
    const received: Array<{ event: string; payload: unknown }> = [];
    socket.onAny((event, payload) => received.push({ event, payload }));
    // Raised by A's process (its socket.io server has no socket of this user), and one for another user.
    const other = await fa.user();
    a.app.ctx.realtime.emitToUser(other.id, 'notification', { title: 'for someone else' });
    a.app.ctx.realtime.emitToUser(u.id, 'notification', { title: 'from A' });
    // And a job created through A's API: its `job` event (NEW) is emitted by A.
    const job = await fa.job(u, { image: await fa.image(u, { level: 201 }) });
    const isJobEvent = (r: { event: string; payload: unknown }, status?: string) =>
      r.event === 'job' && (r.payload as { id: string }).id === job.id && (!status || (r.payload as { status: string }).status === status);
    await waitFor(async () => received.some((r) => isJobEvent(r, 'NEW')), 20_000);
    expect(received.some((r) => r.event === 'notification' && (r.payload as { title?: string }).title === 'from A')).toBe(true);
    // Another user's notification never reaches this socket (the job's own JOB_FAILED/FINISHED notification may).
    await new Promise((r) => setTimeout(r, 200));
    expect(received.some((r) => (r.payload as { title?: string } | null)?.title === 'for someone else')).toBe(false);
  });

  it('an image uploaded to A is served by B (original and renditions)', async () => {
    const fa = factories(a);
    const u = await fa.user();
    const image = await fa.image(u, { level: 123, width: 400, height: 300 });
    const fromA = await u.client.get(`/api/image/${image.id}`);
    const onB = b.client();
    onB.cookies.set('lamella_session', u.client.cookies.get('lamella_session')!);
    const fromB = await onB.get(`/api/image/${image.id}`);
    expect(fromB.status).toBe(200);
    expect(fromB.buffer.equals(fromA.buffer)).toBe(true);
    const display = await onB.get(`/api/image/${image.id}/display`);
    expect(display.status).toBe(200);
    expect(display.headers.get('content-type')).toBe('image/webp');
  });

  it('jobs created on both replicas are each run exactly once', async () => {
    const fa = factories(a);
    const fb = factories(b);
    const ua = await fa.user();
    const ub = await fb.user();
    const created: string[] = [];
    const images: Buffer[] = [];
    for (let i = 0; i < 6; i++) {
      for (const [f, u] of [
        [fa, ua],
        [fb, ub],
      ] as const) {
        // A different porosity micrograph per job (a blank picture would fail, an identical one be cached).
        const { png } = await poresImage({ width: 320, height: 240, count: 6 + created.length, r: 8 });
        const form = new FormData();
        form.append('files', new Blob([new Uint8Array(png)], { type: 'image/png' }), `pores-${created.length}.png`);
        const [image] = await u.client.ok(imagesApi.upload, { form });
        images.push(png);
        created.push((await f.job(u, { image, model: 'porosity' })).id);
      }
    }
    const rows = await waitFor(async () => {
      const list = await dbA.db.select().from(jobs).where(inArray(jobs.id, created));
      return list.every((j) => j.status === 'FINISHED' || j.status === 'FAILED') ? list : null;
    }, 150_000);
    expect(rows.map((j) => `${j.status} ${j.error ?? ''}`)).toEqual(created.map(() => 'FINISHED '));
    // The launcher ran each job's image once and only once.
    for (const img of images) expect(runs.get(createHash('sha256').update(img).digest('hex'))).toBe(1);
    expect([...runs.values()].reduce((s, n) => s + n, 0)).toBeGreaterThanOrEqual(created.length);
    // Each with its own stored result.
    const resultIds = rows.map((j) => j.resultId);
    expect(resultIds.every(Boolean)).toBe(true);
    expect(new Set(resultIds).size).toBe(created.length);
    expect(
      await dbB.db
        .select({ id: results.id })
        .from(results)
        .where(inArray(results.id, resultIds as string[])),
    ).toHaveLength(created.length);
  }, 200_000);
});
