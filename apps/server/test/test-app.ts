import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.ts';
import { buildApp, type App } from '../src/app.ts';
import { openDatabase, openScratchPostgres, type Database } from '../src/platform/db/client.ts';
import { DiskStorage, type Storage } from '../src/platform/storage/storage.ts';
import { createMailer } from '../src/platform/mail/mailer.ts';
import { bootstrap } from '../src/modules/system/bootstrap.ts';
import { RateLimiter, authLimits, type Limiter } from '../src/platform/http/rate-limit.ts';
import { HttpClient, fields } from './http-client.ts';
import { eq } from 'drizzle-orm';
import { createServer } from 'node:net';
import { LauncherSupervisor } from '../src/platform/compute/supervisor.ts';
import { computeModels, executors, nodes } from '../src/platform/db/schema/index.ts';
import type { Db } from '../src/platform/db/client.ts';
import { startMailbox, tokenFrom } from './mailbox.ts';

export const ADMIN = { email: 'admin@lamella.test', password: 'Admin-Password-1' };
export const STRONG_PASSWORD = 'Correct-Horse-9';

/**
 * The real server on a random loopback port, with a real database (PGlite in memory, or a scratch database
 * on TEST_DATABASE_URL), files in a temp folder, and mail over SMTP to a local smtp-server.
 */
export interface TestAppOptions {
  /** Reuse a data folder (and, on PGlite, its database) from an earlier app: a server restart. */
  dataDir?: string;
  /** Keep the data folder on close (to restart on it). */
  keepData?: boolean;
  /** Local launcher processes to start (real apps/launcher processes running packages/analysis). */
  launchers?: number;
  /**
   * The launchers may train (issue 25): they check for python3 with torch at start. Off unless a test trains, so
   * that the other files' launchers do not each import torch.
   */
  launcherTraining?: boolean;
  /** The web app folder to serve (default apps/web/dist). */
  webDist?: string;
  /** The file storage (default: DiskStorage in the data folder), e.g. S3 (storage-s3.test.ts). */
  storage?: (dataDir: string) => Storage;
  /** A database shared with other apps (replicas.test.ts); left open on close. */
  database?: Database;
  /** More environment settings (e.g. REDIS_URL). */
  env?: Record<string, string>;
  /** The rate limiter (default: in memory with per-address limits lifted); 'config': the app's own choice. */
  limiter?: Limiter | 'config';
  /** Where the server's JSON log lines go (observability.test.ts reads them); default: no log. */
  logStream?: { write(line: string): void };
}

/**
 * The migrated empty database of the vitest global setup (pglite-snapshot.ts), read once per worker. Outside
 * vitest (the benchmarks start apps through this file too) there is none and PGlite migrates as in production.
 */
let snapshot: Blob | undefined;
async function pgliteSnapshot(): Promise<Blob | undefined> {
  if (!process.env.VITEST) return undefined;
  const { inject } = await import('vitest');
  const file = inject('pgliteSnapshot');
  if (!file) return undefined;
  snapshot ??= new Blob([readFileSync(file)]);
  return snapshot;
}

export async function startTestApp(opts: TestAppOptions = {}) {
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'lamella-test-')));
  const mailbox = await startMailbox();
  const config = {
    ...loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SMTP_URL: mailbox.url,
      // On a PostgreSQL server a row written straight into the database (as tests do) reaches the answer caches
      // moments later through NOTIFY, as from another replica; a test that writes a row and reads at once runs
      // without them there. PGlite delivers notifications with the statement: its tests run with the caches on.
      // The cache tests set them (session-cache, list-cache, replicas).
      ...(process.env.TEST_DATABASE_URL ? { SESSION_CACHE_SECONDS: '0', LIST_CACHE_SECONDS: '0' } : {}),
      ...opts.env,
    }),
    publicUrl: 'http://lamella.test',
  };
  const persistent = opts.dataDir !== undefined || opts.keepData;
  const database: Database = opts.database
    ? opts.database
    : process.env.TEST_DATABASE_URL
      ? await openScratchPostgres(process.env.TEST_DATABASE_URL, persistent ? join(dataDir, 'scratch-db-name') : undefined, opts.keepData ?? false)
      : await openDatabase({ url: null, dir: persistent ? join(dataDir, 'db') : null, snapshot: persistent ? undefined : await pgliteSnapshot() });
  const storage = opts.storage ? opts.storage(dataDir) : new DiskStorage(join(dataDir, 'files'));
  const mailer = createMailer({ smtpUrl: mailbox.url, mailDir: join(dataDir, 'mail'), from: config.mailFrom });
  // Per-address limits are lifted: every test client comes from 127.0.0.1. Per-account limits stay real.
  const lifted = { max: 100_000, windowMs: 60_000 };
  const limiter =
    opts.limiter === 'config'
      ? undefined
      : (opts.limiter ?? new RateLimiter({ ...authLimits, signinAddress: lifted, signupAddress: lifted, resetAddress: lifted, otpAddress: lifted }));
  // The launchers analyse at the tests' priority unless LAUNCHER_NICE says otherwise (bench/api/mixed.ts): niced
  // (the default 10) beside the other test worker at nice 0, a job of result-formats and of sidecar-calibration
  // stayed unfinished past its wait on a loaded machine (both passed at 0). The niceness is tested in priority.test.ts.
  const supervisor = new LauncherSupervisor({
    restartDelayMs: 500,
    env: { LAUNCHER_THREADS: '1', LAUNCHER_NICE: process.env.LAUNCHER_NICE ?? '0', LAUNCHER_TRAIN: opts.launcherTraining ? 'auto' : 'off' },
  });
  const app: App = await buildApp({
    config,
    database,
    storage,
    mailer,
    limiter,
    version: '9.9.9-test',
    launchers: supervisor,
    webDist: opts.webDist,
    logStream: opts.logStream,
  });
  await bootstrap({ config, db: database.db });
  if (opts.launchers) await startLaunchers(database.db, supervisor, opts.launchers);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const client = (headers: Record<string, string> = {}) => new HttpClient(baseUrl, headers);

  let counter = 0;
  /** Signs a new user up through the API, verifies the e-mail from the received mail, returns the signed-in client. */
  async function signupVerified(overrides: Record<string, unknown> = {}) {
    counter += 1;
    const email = (overrides.email as string) ?? `user${counter}-${Date.now()}@example.com`;
    const c = client();
    const res = await c.post(
      '/api/auth/signup',
      fields({ email, password: STRONG_PASSWORD, name: 'Ada', surname: 'Lovelace', company: 'Metals AG', ...overrides }),
    );
    if (res.status !== 200) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
    const mail = await mailbox.waitFor(email, /verify-email/);
    const verified = await c.post('/api/auth/user/email/verify', { method: 'token', token: tokenFrom(mail, '/auth/verify-email') });
    if (verified.status !== 200) throw new Error(`verify failed: ${verified.status}`);
    return { client: c, email, password: STRONG_PASSWORD, id: res.body.user.id as string };
  }

  async function signin(email: string, password: string) {
    const c = client();
    const res = await c.post('/api/auth/signin', fields({ email, password }));
    return { client: c, res };
  }

  return {
    app,
    baseUrl,
    config,
    database,
    db: database.db,
    storage,
    mailbox,
    limiter: app.ctx.limiter,
    dataDir,
    client,
    signupVerified,
    signin,
    supervisor,
    /** Waits until every enabled launcher answers its health check and the dispatcher knows it. */
    async launchersReady(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        await app.ctx.dispatcher.checkHealth();
        const rows = await database.db.select().from(executors).where(eq(executors.isEnabled, true));
        if (rows.length && rows.every((r) => r.lastSeenAt && Date.now() - r.lastSeenAt.getTime() < 5000)) return rows;
        if (Date.now() > deadline) throw new Error('launchers did not come up');
        await new Promise((r) => setTimeout(r, 300));
      }
    },
    async close() {
      await supervisor.stopAll();
      await app.close();
      if (!opts.database) await database.close();
      await mailbox.close();
      if (!opts.keepData) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof startTestApp>>;
export { fields, tokenFrom };
type Client = ReturnType<TestApp['client']>;

/** The id of a built-in model by its internal name (e.g. `porosity`). */
export async function modelIdOf(t: TestApp, internalName: string): Promise<string> {
  const [row] = await t.db.select({ id: computeModels.id }).from(computeModels).where(eq(computeModels.internalName, internalName));
  if (!row) throw new Error(`no model ${internalName}`);
  return row.id;
}

/** Uploads one PNG through POST /api/images (with the user's pixel size when given) and returns the upload's answer. */
export async function uploadPng(client: Client, png: Uint8Array, opts: { name?: string; pixelSizeUm?: number } = {}) {
  const form = new FormData();
  if (opts.pixelSizeUm !== undefined) form.append('pixelSizeUm', String(opts.pixelSizeUm));
  form.append('files', new Blob([new Uint8Array(png)], { type: 'image/png' }), opts.name ?? 'image.png');
  return client.request('POST', '/api/images', { form });
}

/** Polls GET /api/jobs/:id until the job has settled (FINISHED, CACHED or FAILED) and returns it. */
export function settledJob<T = any>(client: Client, id: string, timeoutMs = 90_000): Promise<T> {
  return waitFor(async () => {
    const res = await client.get(`/api/jobs/${id}`);
    return ['FINISHED', 'CACHED', 'FAILED'].includes(res.body.status) ? (res.body as T) : null;
  }, timeoutMs);
}

/** Starts one job of `modelId` on an uploaded image and waits until it has settled. */
export async function computedJob<T = any>(client: Client, imageId: string, modelId: string, timeoutMs = 90_000): Promise<T> {
  const created = await client.post('/api/jobs', { imageIds: [imageId], modelIds: [modelId] });
  if (created.status !== 200) throw new Error(`job not created: ${created.status} ${JSON.stringify(created.body)}`);
  return settledJob<T>(client, created.body[0].id, timeoutMs);
}

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** The local node with `n` launchers on free ports (created once per database), started by the supervisor. */
async function startLaunchers(db: Db, supervisor: LauncherSupervisor, n: number) {
  let [node] = await db.select().from(nodes).where(eq(nodes.provider, 'local'));
  if (!node) [node] = await db.insert(nodes).values({ name: 'local', ip: '127.0.0.1', description: 'test launchers', provider: 'local' }).returning();
  let list = await db.select().from(executors).where(eq(executors.nodeId, node.id));
  for (let i = list.length; i < n; i++) {
    await db.insert(executors).values({ nodeId: node.id, port: await freePort(), version: 'test' });
  }
  list = await db.select().from(executors).where(eq(executors.nodeId, node.id));
  for (const e of list) supervisor.start(e.id, e.port);
}

/** Polls `fn` every 50 ms until it answers something truthy, and returns it; fails after `timeoutMs`. */
/** The answer caches as in production (startTestApp turns them off on a PostgreSQL server unless a test asks). */
export const CACHES_ON = { SESSION_CACHE_SECONDS: '30', LIST_CACHE_SECONDS: '30' };

/** A row written straight into the database reaches the answer caches through NOTIFY: at once on PGlite, within moments on PostgreSQL. */
export const soon = <T>(fn: () => Promise<T | undefined | null | false>) => waitFor(fn, 5000);

export async function waitFor<T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
