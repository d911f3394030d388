/**
 * npm run bench:api — throughput and latency of the hot API calls, on PostgreSQL and on PGlite in one run.
 *
 * For each database a real server (bench/api/server.ts) runs in a CHILD process, seeded through the API with a
 * user holding ~10 jobs and notifications, and the admin. Each call is then loaded with autocannon (50
 * connections, BENCH_API_SECONDS each, default 5) over real HTTP with the session cookie: GET /api/version (the
 * floor: no session, no query), /api/users/me, /api/jobs, /api/jobs/{id}, /api/notifications,
 * /api/settings/available-models and the admin jobs list, each twice: plain, and as a browser asks
 * (`accept-encoding: gzip, deflate, br`: compressed answers). Prints req/s, p99, the ratio to the floor, the bytes
 * of one answer, and PASS/FAIL against the targets: plain (issue 15) PostgreSQL ≥ 0.15 of the floor and p99 < 50 ms;
 * as a browser (issue 30) PostgreSQL ≥ 0.3 of the floor and p99 < 50 ms; PGlite p99 < 200 ms.
 * BENCH_API_ENCODINGS=plain|browser runs one way only. Then (PostgreSQL) the job history and mixed-load phases of
 * bench/api/history.ts and bench/api/mixed.ts unless BENCH_API_PHASES leaves them out (default `hot,history,mixed`).
 *
 * PostgreSQL: a scratch database created (and dropped) through BENCH_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/lamella_bench_api, created when missing). BENCH_API_DB=postgres|pglite
 * runs one only. The server keeps answers as in production (the session read and the job lists, dropped on any change:
 * apps/server/src/platform/db/change-cache.ts); SESSION_CACHE_SECONDS=0 LIST_CACHE_SECONDS=0 measures without them.
 * It prints; it is not a test (exit code 0 unless BENCH_STRICT=1 and a target is missed).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_API_CONNECTIONS ?? 50);
const BENCH_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/lamella_bench_api';
const ONLY_DB = process.env.BENCH_API_DB;
const ENCODINGS = (process.env.BENCH_API_ENCODINGS ?? 'plain,browser').split(',').filter((e) => e === 'plain' || e === 'browser');
const PHASES = (process.env.BENCH_API_PHASES ?? 'hot,history,mixed').split(',');
/** What Chromium sends. */
const BROWSER_ENCODING = 'gzip, deflate, br, zstd';

export interface Ready {
  baseUrl: string;
  kind: 'pglite' | 'postgres';
  userCookie: string;
  adminCookie: string;
  jobId: string;
  userId: string;
  /** The porosity model's id. */
  modelId: string;
  /** Cookies of BENCH_API_ACCOUNTS more signed-in users. */
  accounts: string[];
  /** With BENCH_API_HISTORY_JOBS: a user with 10 jobs (the history phase's reference). */
  shortCookie: string;
}

export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  const adminUrl = new URL(url);
  adminUrl.pathname = '/postgres';
  const c = new pg.Client({ connectionString: adminUrl.toString() });
  await c.connect();
  try {
    const { rowCount } = await c.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await c.query(`create database "${name.replace(/"/g, '')}"`);
  } finally {
    await c.end();
  }
}

export async function startServer(env: Record<string, string | undefined>): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench/api/server.ts')], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /READY (\{.*\})\n/.exec(out);
      if (m) resolve(JSON.parse(m[1]) as Ready);
    });
    child.on('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { child, ready };
}

export async function stopServer(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
}

interface Row {
  db: string;
  call: string;
  way: 'plain' | 'browser';
  bytes: number;
  reqPerSec: number;
  p99: number;
  ratio: number;
  errors: number;
  cpuPerReq: number;
  pass: boolean;
}

/** CPU time (user + system, ms) the server process has used so far, from /proc (0 where there is none). */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in USER_HZ (100) ticks
  } catch {
    return 0;
  }
}

function headersOf(cookie: string | null, way: 'plain' | 'browser'): Record<string, string> {
  return { ...(cookie ? { cookie } : {}), ...(way === 'browser' ? { 'accept-encoding': BROWSER_ENCODING } : {}) };
}

/** The bytes of one answer as sent (compressed or not), read over node:http (fetch would decompress). */
async function answerBytes(url: string, headers: Record<string, string>): Promise<number> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let n = 0;
      res.on('data', (c: Buffer) => (n += c.length));
      res.on('end', () => resolve(n));
    });
    req.on('error', reject);
    req.end();
  });
}

async function load(
  url: string,
  cookie: string | null,
  pid?: number,
  way: 'plain' | 'browser' = 'plain',
): Promise<{ reqPerSec: number; p99: number; errors: number; cpuPerReq: number }> {
  const cpu0 = cpuMs(pid);
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: headersOf(cookie, way),
  });
  const errors = result.errors + result.timeouts + result.non2xx;
  // Server CPU per answered request: the work one call costs, which load from other processes does not change.
  const cpuPerReq = result.requests.total ? (cpuMs(pid) - cpu0) / result.requests.total : 0;
  return { reqPerSec: result.requests.average, p99: result.latency.p99, errors, cpuPerReq };
}

async function benchOne(kind: 'postgres' | 'pglite'): Promise<Row[]> {
  const env = kind === 'postgres' ? { TEST_DATABASE_URL: BENCH_URL } : { TEST_DATABASE_URL: '' };
  if (kind === 'postgres') await ensureDatabase(BENCH_URL);
  const { child, ready } = await startServer(env);
  const rows: Row[] = [];
  try {
    const calls: Array<[string, string, string | null]> = [
      ['GET /api/version', '/api/version', null],
      ['GET /api/users/me', '/api/users/me', ready.userCookie],
      ['GET /api/jobs', '/api/jobs', ready.userCookie],
      ['GET /api/jobs/{id}', `/api/jobs/${ready.jobId}`, ready.userCookie],
      ['GET /api/notifications', '/api/notifications', ready.userCookie],
      ['GET /api/settings/available-models', '/api/settings/available-models', ready.userCookie],
      ['GET /api/admin/jobs', '/api/admin/jobs', ready.adminCookie],
    ];
    // Each call answers 200 before it is loaded (a 401 would measure the guard's refusal, not the call).
    for (const [name, path, cookie] of calls) {
      const res = await fetch(ready.baseUrl + path, { headers: cookie ? { cookie } : {} });
      if (res.status !== 200) throw new Error(`${name}: ${res.status} ${await res.text()}`);
    }
    let floor = 0;
    for (const [name, path, cookie] of calls) {
      for (const way of path === '/api/version' ? (['plain'] as const) : ENCODINGS) {
        await load(ready.baseUrl + path, cookie, undefined, way).catch(() => undefined); // warm-up (JIT, pool, caches) is not counted
        const r = await load(ready.baseUrl + path, cookie, child.pid, way);
        if (!floor) floor = r.reqPerSec;
        const ratio = r.reqPerSec / floor;
        const isFloor = path === '/api/version';
        const answered = r.reqPerSec > 0 && !r.errors;
        const minRatio = way === 'browser' ? 0.3 : 0.15;
        const pass = isFloor ? answered : kind === 'postgres' ? answered && ratio >= minRatio && r.p99 < 50 : answered && r.p99 < 200;
        const bytes = await answerBytes(ready.baseUrl + path, headersOf(cookie, way));
        if (way === 'plain' && !bodies.has(name))
          bodies.set(name, await (await fetch(ready.baseUrl + path, { headers: headersOf(cookie, 'plain') })).text());
        rows.push({ db: ready.kind, call: name, way, bytes, ...r, ratio, pass });
        process.stderr.write('.');
      }
    }
  } finally {
    await stopServer(child);
  }
  return rows;
}

/** One plain answer of each call, for the compression cost table. */
const bodies = new Map<string, string>();

/**
 * What compressing one answer costs, on the answers above, in this process: a brotli stream per answer (as
 * @fastify/compress did for every JSON answer before issue 30: zlib.createBrotliCompress, quality 4), one call
 * (brotliCompressSync, quality 4, as compression.ts does), and a kept answer (compression.ts's per-body cache: a
 * map look-up). µs per answer, median of 200 after 50 warm-up runs each.
 */
async function compressionCost(): Promise<void> {
  const zlib = await import('node:zlib');
  const params = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };
  const stream = (body: string) =>
    new Promise<void>((resolve, reject) => {
      const z = zlib.createBrotliCompress(params);
      z.on('data', () => undefined)
        .on('end', resolve)
        .on('error', reject);
      z.end(body);
    });
  const kept = new Map<string, Buffer>();
  const timeOf = async (run: () => unknown) => {
    const xs: number[] = [];
    for (let i = 0; i < 250; i++) {
      const t0 = performance.now();
      await run();
      if (i >= 50) xs.push((performance.now() - t0) * 1000);
    }
    return xs.sort((a, b) => a - b)[xs.length >> 1];
  };
  console.log(
    '\nCompressing one answer (br, quality 4), µs, median of 200 — a stream per answer (before) | one call (after) | kept (after, cached answers)',
  );
  for (const [name, body] of bodies) {
    if (body.length < 1024) {
      console.log(`${name.padEnd(36)} | ${String(body.length).padStart(6)} B: under 1 KB, not compressed (before: a stream each)`);
      continue;
    }
    kept.set(body, zlib.brotliCompressSync(body, params));
    const before = await timeOf(() => stream(body));
    const oneShot = await timeOf(() => zlib.brotliCompressSync(body, params));
    const hit = await timeOf(() => kept.get(body));
    console.log(
      `${name.padEnd(36)} | ${String(body.length).padStart(6)} B | ${before.toFixed(0).padStart(5)} | ${oneShot.toFixed(0).padStart(5)} | ${hit.toFixed(1).padStart(5)}`,
    );
  }
}

const kinds = (['postgres', 'pglite'] as const).filter((k) => (!ONLY_DB || ONLY_DB === k) && PHASES.includes('hot'));
const all: Row[] = [];
for (const kind of kinds) {
  try {
    all.push(...(await benchOne(kind)));
  } catch (err) {
    console.error(`\n${kind}: ${(err as Error).message}`);
  }
}
process.stderr.write('\n');
console.log(
  `\nAPI benchmark — autocannon, ${CONNECTIONS} connections, ${SECONDS} s per call (after a ${SECONDS} s warm-up), server in a child process`,
);
console.log(
  `targets: PostgreSQL plain ≥ 0.15 and as a browser asks (${BROWSER_ENCODING}) ≥ 0.3 of the /api/version floor, p99 < 50 ms; PGlite p99 < 200 ms; no errors`,
);
const cacheSetting = (name: string) => (process.env[name] === undefined ? '30 s (default)' : `${process.env[name]} s`);
console.log(
  `answers kept until changed: session read ${cacheSetting('SESSION_CACHE_SECONDS')}, job lists ${cacheSetting('LIST_CACHE_SECONDS')} (0: off)`,
);
const w = Math.max(...all.map((r) => r.call.length), 4);
console.log(`db       | ${'call'.padEnd(w)} | asked as |   req/s | p99 ms | ratio |   bytes | server CPU ms/req | errors | target`);
console.log(`---------|-${'-'.repeat(w)}-|----------|---------|--------|-------|---------|-------------------|--------|-------`);
let failed = false;
for (const r of all) {
  if (!r.pass) failed = true;
  const target = r.call === 'GET /api/version' ? (r.pass ? 'floor' : 'FAIL') : r.pass ? 'PASS' : 'FAIL';
  console.log(
    `${r.db.padEnd(8)} | ${r.call.padEnd(w)} | ${r.way.padEnd(8)} | ${r.reqPerSec.toFixed(0).padStart(7)} | ${String(r.p99).padStart(6)} | ${r.ratio.toFixed(2).padStart(5)} | ${String(r.bytes).padStart(7)} | ${r.cpuPerReq.toFixed(3).padStart(17)} | ${String(r.errors).padStart(6)} | ${target}`,
  );
}
if (PHASES.includes('hot') && bodies.size) await compressionCost();
if (ONLY_DB !== 'pglite' && PHASES.includes('history')) {
  const { benchHistory } = await import('./history.ts');
  if (!(await benchHistory({ url: BENCH_URL, ensureDatabase, startServer, stopServer }))) failed = true;
}
if (ONLY_DB !== 'pglite' && PHASES.includes('mixed')) {
  const { benchMixed } = await import('./mixed.ts');
  if (!(await benchMixed({ url: BENCH_URL, ensureDatabase, startServer, stopServer }))) failed = true;
}
process.exit(process.env.BENCH_STRICT === '1' && failed ? 1 : 0);
