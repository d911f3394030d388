/**
 * npm run bench:faults:memory — issue 28 items 1 and 2, on a real server process (apps/server/src/main.ts, with
 * its local launcher) and the embedded database. Prints, for each scenario, the server process's RSS growth
 * (peak sampled every 100 ms less the RSS before), the slowest `GET /api/health/live` sampled every 250 ms,
 * and what happened:
 *
 * 1. large result: grain size on a BENCH_MP (default 25) megapixel image — BENCH_INPUT `grains` (default, a
 *    synthetic grain structure) or `noise` (the issue's input, ~94 MB result then; grain size 20261201 now refuses
 *    noise as not a grain structure) — uploaded and run once: attempts, the launcher's own time (its `modelMs` log line), job creation →
 *    FINISHED, and the bytes of the stored result files. Target: one attempt, about the launcher's time, RSS
 *    growth < 300 MB, health < 2 s.
 * 2. decompression bombs: 4 uploads at once of 16-bit RGBA PNGs of flat colour, twice: below
 *    IMAGE_DECODE_MAX_MB (7000 × 7000: ~0.4 MB file → 392 MB decoded, decoded in the image workers) and above
 *    it (10000 × 10000: ~0.8 MB → 800 MB, refused from the header). Also the image workers' peak RSS (their
 *    own processes). Target: server RSS growth < 300 MB, health < 2 s.
 *
 * BENCH_SERVER_DIR runs another checkout's server (e.g. a `git worktree` of an earlier commit) for before/after
 * figures in the same conditions; BENCH_ONLY=results|bombs runs one scenario. Never fails a build.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { grainImage } from '../../packages/analysis/src/synth/index.ts';
import { eq } from 'drizzle-orm';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openDatabase } from '../../apps/server/src/platform/db/client.ts';
import { bootstrap } from '../../apps/server/src/modules/system/bootstrap.ts';
import { computeModels } from '../../apps/server/src/platform/db/schema/index.ts';
import { freePort } from '../../apps/server/test/test-app.ts';
import { HttpClient, fields } from '../../apps/server/test/http-client.ts';

const MP = Number(process.env.BENCH_MP ?? 25);
/** `grains` (default: a synthetic grain structure, grains of 14 px) or `noise` (the issue's input). */
const INPUT = process.env.BENCH_INPUT ?? 'grains';
const ONLY = process.env.BENCH_ONLY ?? '';
const ADMIN = { email: 'admin@memory.test', password: 'Admin-Password-1' };
const serverDir = process.env.BENCH_SERVER_DIR ? resolve(process.env.BENCH_SERVER_DIR) : fileURLToPath(new URL('../..', import.meta.url));
const serverMain = join(serverDir, 'apps/server/src/main.ts');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MB = 1024 * 1024;

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const m = /VmRSS:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) * 1024 : 0;
}

/** Child processes of `pid` whose command line contains `marker`. */
async function childrenOf(pid: number, marker: string): Promise<number[]> {
  const out: number[] = [];
  for (const tid of await readdir(`/proc/${pid}/task`).catch(() => [])) {
    const kids = (await readFile(`/proc/${pid}/task/${tid}/children`, 'utf8').catch(() => '')).trim().split(/\s+/).filter(Boolean);
    for (const k of kids) {
      const cmd = await readFile(`/proc/${k}/cmdline`, 'utf8').catch(() => '');
      if (cmd.includes(marker)) out.push(Number(k));
    }
  }
  return out;
}

/** Samples the server's RSS, its workers' RSS and the health latency until `stop()`. */
function watch(pid: number, baseUrl: string) {
  let peak = 0;
  let workersPeak = 0;
  let slowest = 0;
  let running = true;
  const sampling = (async () => {
    while (running) {
      peak = Math.max(peak, await rssOf(pid));
      let w = 0;
      for (const k of await childrenOf(pid, 'decode-worker')) w += await rssOf(k);
      workersPeak = Math.max(workersPeak, w);
      await sleep(100);
    }
  })();
  const probing = (async () => {
    while (running) {
      const t0 = performance.now();
      await fetch(`${baseUrl}/api/health/live`).catch(() => undefined);
      slowest = Math.max(slowest, performance.now() - t0);
      await sleep(250);
    }
  })();
  return async () => {
    running = false;
    await Promise.all([sampling, probing]);
    return { peak, workersPeak, slowest };
  };
}

interface Server {
  child: ChildProcess;
  baseUrl: string;
  output: string[];
  dataDir: string;
  /** The grain size model's id (the database is made before the server starts, as bench/faults/run.ts does). */
  grainModel: string;
}

async function startServer(): Promise<Server> {
  const dataDir = await mkdtemp(join(tmpdir(), 'lamella-memory-'));
  const database = await openDatabase({ url: null, dir: join(dataDir, 'db') });
  await bootstrap({
    config: loadConfig({ DATA_DIR: dataDir, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, NODE_ENV: 'test' }),
    db: database.db,
  });
  const [{ id: grainModel }] = await database.db
    .select({ id: computeModels.id })
    .from(computeModels)
    .where(eq(computeModels.internalName, 'grain-size'));
  await database.close();
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', serverMain], {
    cwd: serverDir,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LAUNCHER_PORT: String(await freePort()),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      LAUNCHER_THREADS: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout!.on('data', (d: Buffer) => output.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output.join('').slice(-1000)}`);
    if ((await fetch(`${baseUrl}/api/health`).catch(() => null))?.status === 200) break;
    if (Date.now() > deadline) throw new Error(`server did not answer: ${output.join('').slice(-1000)}`);
    await sleep(200);
  }
  return { child, baseUrl, output, dataDir, grainModel };
}

async function stopServer(s: Server) {
  if (process.env.BENCH_LOG) await writeFile(process.env.BENCH_LOG, s.output.join(''));
  // the launchers run in their own session (supervisor): not in the server's process group
  for (const pid of await childrenOf(s.child.pid!, 'launcher/src/main.ts')) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  try {
    process.kill(-s.child.pid!, 'SIGKILL');
  } catch {
    // gone
  }
  await sleep(300);
  await rm(s.dataDir, { recursive: true, force: true });
}

async function admin(s: Server) {
  const client = new HttpClient(s.baseUrl);
  const res = await client.post('/api/auth/signin', fields(ADMIN));
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`);
  return client;
}

async function uploadOne(client: HttpClient, png: Buffer, name: string) {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(png)], { type: 'image/png' }), name);
  return client.request('POST', '/api/images', { form });
}

async function dirBytes(dir: string): Promise<number> {
  let n = 0;
  for (const f of await readdir(dir, { recursive: true }).catch(() => [] as string[])) {
    const s = await stat(join(dir, f)).catch(() => null);
    if (s?.isFile()) n += s.size;
  }
  return n;
}

const rows: string[] = [];
const fmt = (b: number) => `${Math.round(b / MB)} MB`;

async function largeResult() {
  const s = await startServer();
  try {
    const client = await admin(s);
    const side = Math.round(Math.sqrt(MP * 1e6));
    let png: Buffer;
    if (INPUT === 'noise') {
      // the issue's input; grain size 20261201 refuses pure noise (NOT_A_GRAIN_STRUCTURE) before drawing anything
      const noise = Buffer.alloc(side * side);
      for (let i = 0; i < noise.length; i++) noise[i] = (Math.random() * 256) | 0;
      png = await sharp(noise, { raw: { width: side, height: side, channels: 1 } })
        .png({ compressionLevel: 1 })
        .toBuffer();
    } else png = (await grainImage({ width: side, height: side, grainPx: 14, noise: 0.25, seed: 7 })).png;
    const up = await uploadOne(client, png, `${INPUT}.png`);
    if (up.status !== 200) throw new Error(`upload answered ${up.status} ${JSON.stringify(up.body)}`);
    const model = { id: s.grainModel };
    await sleep(2000);
    const before = await rssOf(s.child.pid!);
    const stop = watch(s.child.pid!, s.baseUrl);
    const t0 = Date.now();
    const [job] = (await client.post('/api/jobs', { imageIds: [up.body[0].id], modelIds: [model.id] })).body as Array<{ id: string }>;
    let row: { status: string; attempts?: number; error?: string | null } = { status: 'NEW' };
    const seen = new Set<string>();
    let attempts = 0;
    while (Date.now() - t0 < 20 * 60_000) {
      row = (await client.get(`/api/jobs/${job.id}`)).body;
      if (row.status === 'PENDING' && !seen.has('p')) seen.add('p');
      if (row.status === 'FINISHED' || row.status === 'FAILED') break;
      await sleep(500);
    }
    const took = Date.now() - t0;
    const { peak, slowest } = await stop();
    const log = s.output.join('');
    const modelMs = [...log.matchAll(/"modelMs":(\d+)/g)].map((m) => Number(m[1]));
    attempts = [...log.matchAll(/"msg":"job claimed"/g)].length;
    const error = row.status === 'FAILED' ? (await client.get(`/api/jobs/${job.id}/error`)).body.error : '';
    const stored = await dirBytes(join(s.dataDir, 'files', 'results'));
    rows.push(
      `large result | grain size, ${MP} MP ${INPUT} (${fmt(png.length)} upload) | ${row.status}${error ? ` (${String(error).slice(0, 300)})` : ''}, ${attempts} attempt(s), ${(took / 1000).toFixed(1)} s (launcher's own time ${modelMs.length ? (modelMs[modelMs.length - 1] / 1000).toFixed(1) : '?'} s), result files ${fmt(stored)} | RSS ${fmt(before)} → peak ${fmt(peak)} (+${fmt(Math.max(0, peak - before))}) | health max ${Math.round(slowest)} ms`,
    );
    console.log(rows[rows.length - 1]);
  } finally {
    await stopServer(s);
  }
}

async function bombs() {
  const s = await startServer();
  try {
    const client = await admin(s);
    // warm the workers (the first upload starts them)
    await uploadOne(
      client,
      await sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } })
        .png()
        .toBuffer(),
      'warm.png',
    );
    for (const [w, h, label] of [
      [7000, 7000, 'under IMAGE_DECODE_MAX_MB'],
      [10000, 10000, 'over IMAGE_DECODE_MAX_MB'],
    ] as const) {
      const files = await Promise.all(
        [0, 1, 2, 3].map((i) =>
          sharp({ create: { width: w, height: h, channels: 4, background: { r: i * 50, g: 40, b: 90, alpha: 1 } } })
            .toColourspace('rgb16')
            .png({ compressionLevel: 9 })
            .toBuffer(),
        ),
      );
      await sleep(1000);
      const before = await rssOf(s.child.pid!);
      const stop = watch(s.child.pid!, s.baseUrl);
      const t0 = Date.now();
      const answers = await Promise.all(files.map((f, i) => uploadOne(client, f, `bomb-${i}.png`)));
      const took = Date.now() - t0;
      await sleep(500);
      const { peak, workersPeak, slowest } = await stop();
      const statuses = answers.map((a) => (a.status === 200 ? '200' : `${a.status} ${a.body.code}`)).join(', ');
      rows.push(
        `4 bombs ${label} | ${w}×${h} RGBA 16-bit PNG, ${Math.round(files[0].length / 1024)} KB → ${fmt(w * h * 8)} decoded | ${statuses} in ${(took / 1000).toFixed(1)} s; image workers' peak ${fmt(workersPeak)} | RSS ${fmt(before)} → peak ${fmt(peak)} (+${fmt(Math.max(0, peak - before))}) | health max ${Math.round(slowest)} ms`,
      );
      console.log(rows[rows.length - 1]);
    }
  } finally {
    await stopServer(s);
  }
}

const started = Date.now();
if (!ONLY || ONLY === 'bombs') await bombs().catch((err: Error) => rows.push(`bombs: ERROR ${err.message.slice(0, 300)}`));
if (!ONLY || ONLY === 'results') await largeResult().catch((err: Error) => rows.push(`large result: ERROR ${err.message.slice(0, 300)}`));
console.log(
  `\nMemory and latency under large results and decompression bombs (server: ${serverDir}; ${((Date.now() - started) / 60_000).toFixed(1)} min)`,
);
console.log('scenario | input | outcome | server RSS | health (GET /api/health/live)');
for (const r of rows) console.log(r);
process.exit(0);
