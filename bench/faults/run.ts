/**
 * npm run bench:faults — repeats the fault review's runs (issue 9) on real launcher processes and prints what
 * held, once on the embedded database (PGlite) and once on PostgreSQL (BENCH_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/test; a scratch database is created and dropped like the tests do):
 *
 * 1. launcher killed (SIGKILL) mid-job → the job finishes on the other launcher, one more attempt;
 * 2. launcher frozen (SIGSTOP) mid-job → detected after one lease without heartbeat, the job finishes on the
 *    other launcher; the frozen launcher's last_seen_at stops advancing;
 * 3. server process killed (SIGKILL, with its launchers: the process group) while jobs are queued and running
 *    and an upload is in flight → restarted on the same data: every job ends FINISHED or FAILED, no job ran
 *    to a result twice, no half-written file in storage, every stored image matches its checksum.
 *
 * BENCH_REPEAT (default 2) repeats 1 and 2; BENCH_LEASE_SECONDS (default 2) is the job lease of every run.
 * Not part of `npm test`; prints a table and exits 1 when something did not hold.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq, inArray } from 'drizzle-orm';
import { Dispatcher } from '../../apps/server/src/modules/jobs/dispatcher.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openDatabase } from '../../apps/server/src/platform/db/client.ts';
import { bootstrap } from '../../apps/server/src/modules/system/bootstrap.ts';
import { computeModels, executors, images, jobs, licenses, results } from '../../apps/server/src/platform/db/schema/index.ts';
import { freePort, startTestApp, type TestApp } from '../../apps/server/test/test-app.ts';
import { HttpClient, fields } from '../../apps/server/test/http-client.ts';
import { poresImage } from '../../apps/server/test/synthetic.ts';

const REPEAT = Number(process.env.BENCH_REPEAT ?? 2);
const LEASE_S = Number(process.env.BENCH_LEASE_SECONDS ?? 2);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ADMIN = { email: 'admin@faults.test', password: 'Admin-Password-1' };
const serverMain = fileURLToPath(new URL('../../apps/server/src/main.ts', import.meta.url));

interface Outcome {
  db: string;
  scenario: string;
  held: boolean;
  details: string;
}
const outcomes: Outcome[] = [];
const record = (o: Outcome) => {
  outcomes.push(o);
  console.log(`[${o.db}] ${o.held ? 'held' : 'DID NOT HOLD'}: ${o.scenario}: ${o.details}`);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Thrown inside `until` to stop waiting at once (other errors, e.g. a server not up yet, are retried). */
class Fatal extends Error {}

async function until<T>(fn: () => Promise<T | null | undefined | false>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch((err) => {
      if (err instanceof Fatal) throw err;
      return null;
    });
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

async function upload(client: HttpClient, files: Array<{ png: Buffer; name: string }>): Promise<string[]> {
  const form = new FormData();
  for (const f of files) form.append('files', new Blob([f.png]), f.name);
  const res = await client.request('POST', '/api/images', { form });
  if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${JSON.stringify(res.body)}`);
  return (res.body as Array<{ id: string }>).map((i) => i.id);
}

// ---------------------------------------------------------------- 1 and 2: launcher faults, in process

async function launcherFaults(dbName: string) {
  if (dbName === 'PostgreSQL') process.env.TEST_DATABASE_URL = PG_URL;
  else delete process.env.TEST_DATABASE_URL;
  const t: TestApp = await startTestApp({ launchers: 2 });
  const frozen = new Set<number>();
  // The app's dispatcher runs with the default lease; this bench uses a short one (JOB_LEASE_SECONDS).
  await t.app.ctx.dispatcher.stop();
  const log: string[] = [];
  const dispatcher = new Dispatcher({
    db: t.db,
    storage: t.storage,
    notify: () => undefined,
    log: (m) => log.push(m),
    soleDispatcher: false,
    leaseMs: LEASE_S * 1000,
  });
  try {
    await t.launchersReady(120_000);
    await dispatcher.start();
    const u = await t.signupVerified();
    await t.db.update(licenses).set({ images: null });
    const [{ id: model }] = await t.db.select({ id: computeModels.id }).from(computeModels).where(eq(computeModels.internalName, 'porosity'));
    for (const fault of ['SIGKILL', 'SIGSTOP'] as const) {
      for (let i = 0; i < REPEAT; i++) {
        const scenario = fault === 'SIGKILL' ? 'launcher killed (SIGKILL) mid-job' : 'launcher frozen (SIGSTOP) mid-job';
        try {
          const { png, truth } = await poresImage({ width: 4000, height: 3000, count: 250 + i + (fault === 'SIGSTOP' ? 50 : 0), r: 28 });
          const [imageId] = await upload(u.client, [{ png, name: `${fault}-${i}.png` }]);
          const [job] = (await u.client.post('/api/jobs', { imageIds: [imageId], modelIds: [model] })).body;
          const first = await until(
            async () => {
              const [row] = await t.db.select().from(jobs).where(eq(jobs.id, job.id));
              if (row.status !== 'NEW' && row.status !== 'PENDING') throw new Fatal(`the job ended ${row.status} before it could be interrupted`);
              return row.status === 'PENDING' && row.executorId && row.heartbeatAt ? row : null;
            },
            120_000,
            'the job to start',
          );
          const pid = t.supervisor.pid(first.executorId!)!;
          const at = Date.now();
          process.kill(pid, fault);
          if (fault === 'SIGSTOP') frozen.add(pid);
          let detectedMs = 0;
          const done = await until(
            async () => {
              const [row] = await t.db.select().from(jobs).where(eq(jobs.id, job.id));
              if (!detectedMs && (row.status !== 'PENDING' || row.executorId !== first.executorId)) detectedMs = Date.now() - at;
              return row.status === 'FINISHED' || row.status === 'FAILED' ? row : null;
            },
            180_000,
            'the job to end',
          );
          const [result] = done.resultId ? await t.db.select().from(results).where(eq(results.id, done.resultId)) : [];
          const pores = (result?.measurements as { poreCount?: number } | undefined)?.poreCount;
          let seenNote = '';
          let seenHeld = true;
          if (fault === 'SIGSTOP') {
            const seen = async () => (await t.db.select().from(executors).where(eq(executors.id, first.executorId!)))[0].lastSeenAt?.getTime();
            const before = await seen();
            await dispatcher.checkHealth();
            seenHeld = (await seen()) === before;
            seenNote = seenHeld ? ', frozen launcher no longer seen' : ', frozen launcher still seen!';
            process.kill(pid, 'SIGCONT');
            frozen.delete(pid);
          }
          const held =
            done.status === 'FINISHED' && done.attempts === 2 && done.executorId !== first.executorId && pores === truth.poreCount && seenHeld;
          record({
            db: dbName,
            scenario: `${scenario} #${i + 1}`,
            held,
            details: `${done.status}, attempts ${done.attempts}, moved after ${(detectedMs / 1000).toFixed(1)} s, pores ${pores}/${truth.poreCount}${seenNote}`,
          });
        } catch (err) {
          record({ db: dbName, scenario: `${scenario} #${i + 1}`, held: false, details: err instanceof Error ? err.message : String(err) });
        }
        for (const p of frozen) process.kill(p, 'SIGCONT');
        frozen.clear();
        await t.launchersReady(120_000);
      }
    }
  } finally {
    for (const p of frozen) process.kill(p, 'SIGCONT');
    await dispatcher.stop();
    await t.close();
  }
}

// ---------------------------------------------------------------- 3: the server process killed

interface Server {
  child: ChildProcess;
  baseUrl: string;
  output: string[];
}

async function startServer(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const output: string[] = [];
  // Own process group: the kill takes the server and the launchers it started, like a machine that dies.
  const child = spawn(process.execPath, ['--import', 'tsx', serverMain], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', LAUNCHER_THREADS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout!.on('data', (d: Buffer) => output.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  await until(
    async () => {
      if (child.exitCode !== null) throw new Error(`server exited: ${output.join('').slice(-500)}`);
      return (await fetch(`${baseUrl}/api/health`)).status === 200;
    },
    120_000,
    'the server to answer',
  ).catch((err) => {
    throw new Error(`${err.message}\n${output.join('').slice(-1000)}`);
  });
  return { child, baseUrl, output };
}

const exited = (child: ChildProcess) =>
  new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r())));

async function killGroup(s: Server, signal: NodeJS.Signals) {
  try {
    process.kill(-s.child.pid!, signal);
  } catch {
    // gone already
  }
  await exited(s.child);
}

/** Sends a multipart upload slowly (64 KiB every 50 ms), so that it is still in flight when the server dies. */
function slowUpload(baseUrl: string, cookie: string, png: Buffer) {
  const boundary = `----faults${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="in-flight.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const all = Buffer.concat([head, png, tail]);
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent >= all.length) return controller.close();
      await sleep(50);
      controller.enqueue(all.subarray(sent, sent + 65536));
      sent += 65536;
    },
  });
  const done = fetch(`${baseUrl}/api/images`, {
    method: 'POST',
    headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: 'half',
  } as RequestInit)
    .then((r) => `answered ${r.status}`)
    .catch((err: Error) => `broken off (${err.message})`);
  return { done, sent: () => sent, total: all.length };
}

async function serverKilled(dbName: string) {
  const dataDir = await mkdtemp(join(tmpdir(), 'lamella-faults-'));
  let pgName: string | null = null;
  let databaseUrl = '';
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    JOB_LEASE_SECONDS: String(LEASE_S),
    LAUNCHER_PORT: String(await freePort()),
  };
  if (dbName === 'PostgreSQL') {
    const { Client } = await import('pg');
    pgName = `lamella_faults_${randomBytes(6).toString('hex')}`;
    const admin = new Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create database ${pgName}`);
    await admin.end();
    const url = new URL(PG_URL);
    url.pathname = `/${pgName}`;
    databaseUrl = url.toString();
    env.DATABASE_URL = databaseUrl;
  }
  const open = () => openDatabase({ url: databaseUrl || null, dir: databaseUrl ? null : join(dataDir, 'db') });
  const scenario = 'server killed (SIGKILL) with jobs queued, running and an upload in flight; restarted';
  try {
    // The models exist before the first start (bootstrap), so the bench knows the porosity model's id.
    let model: string;
    {
      const database = await open();
      await bootstrap({ config: loadConfig({ ...env, NODE_ENV: 'test' }), db: database.db });
      [{ id: model }] = await database.db.select({ id: computeModels.id }).from(computeModels).where(eq(computeModels.internalName, 'porosity'));
      await database.close();
    }

    const first = await startServer(env);
    const client = new HttpClient(first.baseUrl);
    const signin = await client.post('/api/auth/signin', fields(ADMIN));
    if (signin.status !== 200) throw new Error(`sign-in answered ${signin.status}`);
    const files = [];
    for (let i = 0; i < 6; i++) {
      const { png } = await poresImage({ width: i === 0 ? 4000 : 1200, height: i === 0 ? 3000 : 900, count: 30 + i * 7, r: 14, seed: 300 + i });
      files.push({ png, name: `queued-${i}.png` });
    }
    const imageIds = await upload(client, files);
    const created = (await client.post('/api/jobs', { imageIds, modelIds: [model] })).body as Array<{ id: string }>;
    if (!Array.isArray(created) || created.length !== imageIds.length) throw new Error(`job creation answered ${JSON.stringify(created)}`);
    const jobIds = created.map((j) => j.id);
    // one job running on the launcher, the others queued
    await until(
      async () => {
        const res = await client.get(`/api/jobs/${jobIds[0]}`);
        return res.body.status === 'PENDING' ? true : null;
      },
      120_000,
      'the first job to run',
    );
    const { png: big } = await poresImage({ width: 6000, height: 4500, count: 500, r: 20, seed: 399 });
    const inFlight = slowUpload(first.baseUrl, `lamella_session=${client.cookies.get('lamella_session')}`, big);
    await until(async () => inFlight.sent() > 256 * 1024, 30_000, 'the upload to be under way');
    await killGroup(first, 'SIGKILL');
    const uploadEnd = await inFlight.done;

    const second = await startServer(env);
    const c2 = new HttpClient(second.baseUrl);
    c2.cookies.set('lamella_session', client.cookies.get('lamella_session')!);
    const ended = await until(
      async () => {
        const statuses = await Promise.all(jobIds.map(async (id) => (await c2.get(`/api/jobs/${id}`)).body.status as string));
        return statuses.every((s) => s === 'FINISHED' || s === 'FAILED') ? statuses : null;
      },
      300_000,
      'every job to end after the restart',
    );
    await killGroup(second, 'SIGTERM');

    // What the restarted server left behind, read from the database and the storage folder.
    const database = await open();
    try {
      const rows = await database.db.select().from(jobs).where(inArray(jobs.id, jobIds));
      const finished = rows.filter((r) => r.status === 'FINISHED');
      const allResults = await database.db.select({ id: results.id }).from(results);
      const referenced = new Set(rows.map((r) => r.resultId).filter(Boolean));
      const duplicateRuns = allResults.filter((r) => !referenced.has(r.id)).length;
      const retried = rows.filter((r) => r.attempts > 1).length;
      const storageRoot = join(dataDir, 'files');
      const walk = async (dir: string): Promise<string[]> => {
        const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
        const out: string[] = [];
        for (const e of entries) out.push(...(e.isDirectory() ? await walk(join(dir, e.name)) : [join(dir, e.name)]));
        return out;
      };
      const stored = await walk(storageRoot);
      const halfWritten = stored.filter((p) => p.endsWith('.tmp')).map((p) => relative(storageRoot, p));
      const imageRows = await database.db.select().from(images);
      let badImages = 0;
      for (const img of imageRows) {
        const path = join(storageRoot, img.filename);
        if (
          !existsSync(path) ||
          createHash('sha256')
            .update(await readFile(path))
            .digest('hex') !== img.sha256
        )
          badImages += 1;
      }
      const inFlightStored = imageRows.some((i) => i.orginalFilename === 'in-flight.png');
      const pendingLeft = (
        await database.db
          .select({ id: jobs.id })
          .from(jobs)
          .where(and(inArray(jobs.id, jobIds), eq(jobs.status, 'PENDING')))
      ).length;
      const held = ended.every((s) => s === 'FINISHED') && duplicateRuns === 0 && halfWritten.length === 0 && badImages === 0 && pendingLeft === 0;
      record({
        db: dbName,
        scenario,
        held,
        details:
          `${finished.length}/${rows.length} FINISHED (${rows.length - finished.length} FAILED), ${retried} re-run after the kill, ` +
          `${duplicateRuns} duplicate results, ${halfWritten.length} half-written files${halfWritten.length ? ` (${halfWritten.join(', ')})` : ''}, ` +
          `${badImages} images not matching their checksum; upload in flight ${uploadEnd}, ${inFlightStored ? 'stored' : 'not stored'}`,
      });
    } finally {
      await database.close();
    }
  } catch (err) {
    record({ db: dbName, scenario, held: false, details: err instanceof Error ? err.message.split('\n')[0] : String(err) });
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    if (pgName) {
      const { Client } = await import('pg');
      const c = new Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`drop database if exists ${pgName} with (force)`);
      await c.end();
    }
  }
}

async function postgresReachable(): Promise<boolean> {
  const { Client } = await import('pg');
  const c = new Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

const started = Date.now();
for (const dbName of ['PGlite', 'PostgreSQL']) {
  if (dbName === 'PostgreSQL' && !(await postgresReachable())) {
    record({ db: dbName, scenario: 'all', held: false, details: `skipped: no PostgreSQL at ${PG_URL}` });
    continue;
  }
  await launcherFaults(dbName);
  await serverKilled(dbName);
}

console.log(`\nFault bench (job lease ${LEASE_S} s, ${REPEAT} runs of each launcher fault, ${((Date.now() - started) / 60_000).toFixed(1)} min)`);
console.log('database   | held | scenario | details');
for (const o of outcomes) console.log(`${o.db.padEnd(10)} | ${o.held ? 'yes ' : 'NO  '} | ${o.scenario} | ${o.details}`);
const failed = outcomes.filter((o) => !o.held).length;
console.log(failed ? `\n${failed} of ${outcomes.length} runs did not hold` : `\nall ${outcomes.length} runs held`);
process.exit(failed ? 1 : 0);
