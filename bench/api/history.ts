/**
 * bench:api, phase `history` (issue 30 item 3): the job list of a user with a long history, uncached.
 * A server (bench/api/server.ts) on a scratch PostgreSQL database seeds BENCH_API_HISTORY_JOBS jobs (default
 * 100,000) for one user, straight into the database as bench:admin does, and a second user with 10 jobs, and runs
 * with LIST_CACHE_SECONDS=0, so every request reads the database. Each list call is loaded with autocannon twice:
 * one connection (a user's request alone: its latency) and BENCH_API_HISTORY_CONNECTIONS (default 10: requests
 * queue behind each other), BENCH_API_SECONDS each, next to the /api/version floor; the first page of the 10-job user
 * is measured the same way (the cost at 10 against 100,000 jobs). Prints req/s, p50, p99 and the ratio to the
 * floor. Target: first page p99 < 20 ms, one connection (the issue names no load for it; the loaded figures are
 * printed beside it).
 */
import autocannon from 'autocannon';
import type { ChildProcess } from 'node:child_process';
import type { Ready } from './run.ts';

interface Deps {
  url: string;
  ensureDatabase(url: string): Promise<void>;
  startServer(env: Record<string, string | undefined>): Promise<{ child: ChildProcess; ready: Ready }>;
  stopServer(child: ChildProcess): Promise<void>;
}

const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_API_HISTORY_CONNECTIONS ?? 10);
const JOBS = Number(process.env.BENCH_API_HISTORY_JOBS ?? 100_000);

export async function benchHistory(deps: Deps): Promise<boolean> {
  await deps.ensureDatabase(deps.url);
  process.stderr.write(`history: seeding ${JOBS} jobs for one user…\n`);
  const { child, ready } = await deps.startServer({
    TEST_DATABASE_URL: deps.url,
    BENCH_API_HISTORY_JOBS: String(JOBS),
    LIST_CACHE_SECONDS: '0',
    BENCH_API_JOBS: '0',
    BENCH_API_NOTIFICATIONS: '0',
  });
  const calls: Array<[string, string, boolean, string?]> = [
    ['GET /api/version (floor)', '/api/version', false],
    ['10 jobs: first page (reference)', '/api/jobs', true, ready.shortCookie],
    ['first page, newest first', '/api/jobs', true],
    ['first page of 100', '/api/jobs?pageSize=100', true],
    ['first page by finishing time', '/api/jobs?sortBy=finishedAt', true],
    ['first page by status', '/api/jobs?sortBy=status&sortOrder=asc', true],
    ['first page of a model', `/api/jobs?modelId=${ready.modelId}`, true],
    ['archived, first page', '/api/jobs?archived=true', true],
    ['filtered: status FAILED', '/api/jobs?status=FAILED', true],
    ['filtered: name contains', '/api/jobs?name=sample', true],
    ['page 500', '/api/jobs?page=500', false],
  ];
  type Load = { rps: number; p50: number; p99: number; errors: number };
  const rows: Array<{ name: string; one: Load; many: Load; ratio: number; target: string; total: string }> = [];
  let ok = true;
  try {
    let floor = 0;
    for (const [name, path, targeted, cookieOf] of calls) {
      const cookie = path === '/api/version' ? {} : { cookie: cookieOf ?? ready.userCookie };
      const first = await fetch(ready.baseUrl + path, { headers: cookie });
      if (first.status !== 200) throw new Error(`${name}: ${first.status} ${await first.text()}`);
      const total = first.headers.get('x-total-count') ?? '';
      const load = async (connections: number): Promise<Load> => {
        await autocannon({ url: ready.baseUrl + path, connections, duration: Math.min(2, SECONDS), headers: cookie });
        const r = await autocannon({ url: ready.baseUrl + path, connections, duration: SECONDS, headers: cookie });
        return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts + r.non2xx };
      };
      const one = await load(1);
      const many = await load(CONNECTIONS);
      if (!floor) floor = many.rps;
      const pass = one.errors + many.errors === 0 && (!targeted || one.p99 < 20);
      if (!pass) ok = false;
      rows.push({
        name,
        one,
        many,
        ratio: many.rps / floor,
        total,
        target: path === '/api/version' ? 'floor' : targeted ? (pass ? 'PASS' : 'FAIL') : '-',
      });
      process.stderr.write('.');
    }
  } finally {
    await deps.stopServer(child);
  }
  console.log(
    `\nJob history — one user with ${JOBS} jobs (and one with 10) on PostgreSQL, lists uncached (LIST_CACHE_SECONDS=0), 1 and ${CONNECTIONS} connections, ${SECONDS} s each`,
  );
  console.log(
    'target: first page p99 < 20 ms at 1 connection; x-total-count from the per-owner totals (filtered lists: counted up to 1,000 past the page)',
  );
  const w = Math.max(...rows.map((r) => r.name.length));
  const n = String(CONNECTIONS);
  console.log(
    `${'call'.padEnd(w)} | 1 conn: req/s | p50 ms | p99 ms | ${n} conns: req/s | p50 ms | p99 ms | ratio | x-total-count | errors | target`,
  );
  console.log(
    `${'-'.repeat(w)}-|---------------|--------|--------|${'-'.repeat(n.length + 15)}|--------|--------|-------|---------------|--------|-------`,
  );
  for (const r of rows)
    console.log(
      `${r.name.padEnd(w)} | ${r.one.rps.toFixed(0).padStart(13)} | ${String(r.one.p50).padStart(6)} | ${String(r.one.p99).padStart(6)} | ${r.many.rps.toFixed(0).padStart(n.length + 13)} | ${String(r.many.p50).padStart(6)} | ${String(r.many.p99).padStart(6)} | ${r.ratio.toFixed(2).padStart(5)} | ${r.total.padStart(13)} | ${String(r.one.errors + r.many.errors).padStart(6)} | ${r.target}`,
    );
  return ok;
}
