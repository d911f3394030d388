/**
 * npm run bench:admin — latency of the admin jobs list (GET /api/admin/jobs) with each filter and each sort,
 * of each admin dashboard figure (GET /api/admin/dashboard/…, target p99 < 50 ms), and wall time + peak server memory of both CSV exports, on 1,000,000 jobs in PostgreSQL.
 *
 * Seeds the bench database first when it holds fewer than BENCH_JOBS jobs (bench/admin/seed.ts). The real
 * server (bench/admin/server.ts: buildApp + bootstrap as in src/main.ts) runs in a CHILD PROCESS; its RSS is
 * sampled from /proc/<pid>/status every 20 ms during each export (and VmHWM, reset through clear_refs, is
 * read when the kernel allows it). Requests go over real HTTP with an admin session cookie.
 *
 * Env: BENCH_DATABASE_URL, BENCH_REPS (requests per case, default 30), BENCH_SKIP_EXPORT=1, BENCH_ONLY=<regex
 * on case names>. Targets: list p99 < 100 ms, export < 60 s and < 300 MB peak RSS. Exit code 0 always
 * unless BENCH_STRICT=1 (then 1 when a target is missed).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { BENCH_URL, jobCount, seed, ensureDatabase } from './seed.ts';

const REPS = Number(process.env.BENCH_REPS ?? 30);
const DASHBOARD_PATHS = [
  '/jobs/current',
  '/jobs/average-times',
  '/jobs/fails',
  '/jobs/success',
  '/users/active',
  '/users/average-nps',
  '/users/licenses',
  '/users/customers',
];
const JOBS = Number(process.env.BENCH_JOBS ?? 1_000_000);
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
const ADMIN_EMAIL = 'bench-admin@lamella.test';
const ADMIN_PASSWORD = 'Bench-Admin-Password-1';
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const rssKb = (pid: number, field = 'VmRSS') => {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
};

async function startServer(): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench/admin/server.ts')], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: BENCH_URL, ADMIN_EMAIL, ADMIN_PASSWORD, NODE_ENV: 'production', APP_ENV: 'testing', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /LISTENING (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { child, baseUrl: `http://127.0.0.1:${port}` };
}

async function signin(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      formFields: [
        { id: 'email', value: ADMIN_EMAIL },
        { id: 'password', value: ADMIN_PASSWORD },
      ],
    }),
  });
  if (res.status !== 200) throw new Error(`admin signin failed: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

interface Sample {
  name: string;
  query: string;
  times: number[];
  rows: number;
}

async function main() {
  await ensureDatabase();
  const have = await jobCount();
  if (have < JOBS) {
    console.log(`bench database has ${have} jobs (< ${JOBS}): seeding`);
    await seed();
  }
  // Filter values from the data: the heaviest and a light user, the most used model, a company.
  const c = new pg.Client({ connectionString: BENCH_URL });
  await c.connect();
  const total = (await c.query(`select count(*)::int n from jobs`)).rows[0].n as number;
  const heavyUser = (await c.query(`select owner_id from jobs group by 1 order by count(*) desc limit 1`)).rows[0].owner_id as string;
  const lightUser = (await c.query(`select owner_id from jobs group by 1 order by count(*) asc limit 1`)).rows[0].owner_id as string;
  const topModel = (await c.query(`select model_id from jobs group by 1 order by count(*) desc limit 1`)).rows[0].model_id as string;
  const rareModel = (await c.query(`select model_id from jobs group by 1 order by count(*) asc limit 1`)).rows[0].model_id as string;
  await c.end();

  const filters: Array<[string, string]> = [
    ['(default: not deleted)', ''],
    ['deleted=ALL', 'deleted=ALL'],
    ['deleted=DELETED', 'deleted=DELETED'],
    ['startDate..endDate (30 days)', 'startDate=2025-01-01&endDate=2025-01-30'],
    ['modelId (most used)', `modelId=${topModel}`],
    ['modelId (least used)', `modelId=${rareModel}`],
    ['userId (heaviest user)', `userId=${heavyUser}`],
    ['userId (lightest user)', `userId=${lightUser}`],
    ['company=Company 042', 'company=Company%20042'],
    ['company=gmbh (all)', 'company=gmbh'],
    ['withUserFeedback', 'withUserFeedback=true'],
    ['withAdminFeedback', 'withAdminFeedback=true'],
    ['withSubmittedMasks', 'withSubmittedMasks=true'],
    ['status=FAILED', 'status=FAILED'],
    ['status=NEW', 'status=NEW'],
    ['source=API', 'source=API'],
    ['source=TEST', 'source=TEST'],
    ['page=50 (offset 4,900)', 'page=50'],
  ];
  const sortKeys = [
    'createdAt',
    'startedAt',
    'finishedAt',
    'status',
    'source',
    'deleted',
    'duration',
    'waitTime',
    'modelVersion',
    'model',
    'owner',
    'company',
    'project',
    'image',
    'userRating',
    'adminRating',
    'submittedMasks',
  ];
  const cases: Array<[string, string]> = [
    ...filters.map(([n, q]): [string, string] => [`filter ${n}`, q]),
    ...sortKeys.flatMap((k): Array<[string, string]> => [
      [`sort ${k} desc`, `sortKey=${k}&sortOrder=desc`],
      [`sort ${k} asc`, `sortKey=${k}&sortOrder=asc`],
    ]),
  ].filter(([n]) => !ONLY || ONLY.test(n));

  const { child, baseUrl } = await startServer();
  const pid = child.pid!;
  let failed = false;
  try {
    const cookie = await signin(baseUrl);
    const get = (path: string) =>
      fetch(baseUrl + path, { headers: { cookie, ...(process.env.BENCH_ENCODING ? { 'accept-encoding': process.env.BENCH_ENCODING } : {}) } });

    console.log(
      `\nAdmin jobs list — ${total.toLocaleString('en')} jobs in PostgreSQL, pageSize=100, ${REPS} timed requests per case (after 1 warm-up), real HTTP`,
    );
    const samples: Sample[] = [];
    for (const [name, query] of cases) {
      const path = `/api/admin/jobs?pageSize=100${query ? '&' + query : ''}`;
      const warm = await get(path);
      if (warm.status !== 200) throw new Error(`${path}: ${warm.status} ${await warm.text()}`);
      const body = (await warm.json()) as { data: unknown[] };
      const times: number[] = [];
      for (let i = 0; i < REPS; i++) {
        const s = performance.now();
        const r = await get(path);
        await r.arrayBuffer();
        times.push(performance.now() - s);
      }
      samples.push({ name, query, times, rows: body.data.length });
      process.stderr.write('.');
    }
    process.stderr.write('\n');
    const w = Math.max(4, ...samples.map((s) => s.name.length));
    console.log(`${'case'.padEnd(w)} | rows | median ms |  p99 ms | p99 < 100 ms`);
    console.log(`${'-'.repeat(w)}-|------|-----------|---------|-------------`);
    for (const s of samples) {
      const p99 = pct(s.times, 99);
      if (p99 >= 100) failed = true;
      console.log(
        `${s.name.padEnd(w)} | ${String(s.rows).padStart(4)} | ${pct(s.times, 50).toFixed(1).padStart(9)} | ${p99.toFixed(1).padStart(7)} | ${p99 < 100 ? 'yes' : 'NO'}`,
      );
    }

    // Dashboard figures (back-office.md §7 "Dashboard"): each one aggregate on an index; target p99 < 50 ms.
    const dashboard = DASHBOARD_PATHS.filter((p) => !ONLY || ONLY.test(`dashboard ${p}`));
    if (dashboard.length) {
      console.log(`\nAdmin dashboard — ${REPS} timed requests per call (after 1 warm-up), real HTTP`);
      const dw = Math.max(...dashboard.map((p) => p.length));
      console.log(`${'call'.padEnd(dw)} | median ms |  p99 ms | p99 < 50 ms | answer`);
      console.log(`${'-'.repeat(dw)}-|-----------|---------|-------------|-------`);
      for (const path of dashboard) {
        const warm = await get(`/api/admin/dashboard${path}`);
        if (warm.status !== 200) throw new Error(`${path}: ${warm.status} ${await warm.text()}`);
        const answer = JSON.stringify(await warm.json());
        const times: number[] = [];
        for (let i = 0; i < REPS; i++) {
          const s = performance.now();
          await (await get(`/api/admin/dashboard${path}`)).arrayBuffer();
          times.push(performance.now() - s);
        }
        const p99 = pct(times, 99);
        if (p99 >= 50) failed = true;
        console.log(
          `${path.padEnd(dw)} | ${pct(times, 50).toFixed(1).padStart(9)} | ${p99.toFixed(1).padStart(7)} | ${(p99 < 50 ? 'yes' : 'NO').padEnd(11)} | ${answer}`,
        );
      }
    }

    if (!process.env.BENCH_SKIP_EXPORT) {
      console.log(`\nCSV exports (server in a child process, pid ${pid}; peak RSS sampled from /proc/${pid}/status every 20 ms)`);
      console.log(
        'export                               |  rows (lines) |   MB out | wall s | RSS before MB | peak RSS MB | VmHWM MB | < 60 s & < 300 MB',
      );
      for (const [name, path] of [
        ['report (default filters)', '/api/admin/jobs/report'],
        ['report deleted=ALL', '/api/admin/jobs/report?deleted=ALL'],
        ['masks-report (default filters)', '/api/admin/jobs/masks-report'],
        ['report XLSX (default filters)', '/api/admin/jobs/report?format=xlsx'],
      ] as const) {
        if (ONLY && !ONLY.test(`export ${name}`)) continue;
        global.gc?.();
        let hwmReset = true;
        try {
          writeFileSync(`/proc/${pid}/clear_refs`, '5'); // resets VmHWM to the current RSS
        } catch {
          hwmReset = false;
        }
        const before = rssKb(pid);
        let peak = before;
        const timer = setInterval(() => (peak = Math.max(peak, rssKb(pid))), 20);
        const s = performance.now();
        const res = await get(path);
        if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
        let bytes = 0;
        let lines = 0;
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          bytes += chunk.length;
          for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines++;
        }
        const wall = (performance.now() - s) / 1000;
        clearInterval(timer);
        peak = Math.max(peak, rssKb(pid));
        const hwm = hwmReset ? rssKb(pid, 'VmHWM') : NaN;
        const peakMb = Math.max(peak, hwm || 0) / 1024;
        const ok = wall < 60 && peakMb < 300;
        if (!ok) failed = true;
        console.log(
          `${name.padEnd(36)} | ${String(lines - 1).padStart(13)} | ${(bytes / 1e6).toFixed(1).padStart(8)} | ${wall.toFixed(1).padStart(6)} | ${(before / 1024).toFixed(0).padStart(13)} | ${(peak / 1024).toFixed(0).padStart(11)} | ${hwmReset ? (hwm / 1024).toFixed(0).padStart(8) : '     n/a'} | ${ok ? 'yes' : 'NO'}`,
        );
      }
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
  if (failed) console.log('\nSome targets were missed (see the NO rows).');
  process.exit(failed && process.env.BENCH_STRICT ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
