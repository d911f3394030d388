/**
 * bench:api, phase `mixed` (issue 30 item 2): the API while analyses run on the same machine.
 * A server (bench/api/server.ts) on a scratch PostgreSQL database with BENCH_API_MIXED_LAUNCHERS local launchers
 * (default 1, one worker thread: cores − 1 on this 2-core machine) and BENCH_API_MIXED_ACCOUNTS signed-in users
 * (default 40; the simulated users take them in turn). Each simulated user, from its own random start, polls every
 * 3 s what the web app polls (GET /api/jobs, GET /api/notifications); one user in BENCH_API_MIXED_UPLOAD_EVERY (default
 * 10), one per account at most, also uploads an image (512×512 PNG, each different) and starts a porosity job on it,
 * once, at a random time. Runs for
 * BENCH_API_MIXED_SECONDS (default 30) with 200 and 1,000 users (BENCH_API_MIXED_USERS), first with the launchers at
 * the server's priority (LAUNCHER_NICE=0, as before issue 30) and then as shipped (niced, autogroup), and prints per
 * call p50/p99, missed polls (a poll still waiting when the next is due), errors, and the jobs' waiting times (queued
 * → started) and run times. Targets: at 200 users reads p99 < 50 ms while jobs run; at 1,000 no missed poll and no error.
 */
import type { ChildProcess } from 'node:child_process';
import sharp from 'sharp';
import type { Ready } from './run.ts';

interface Deps {
  url: string;
  ensureDatabase(url: string): Promise<void>;
  startServer(env: Record<string, string | undefined>): Promise<{ child: ChildProcess; ready: Ready }>;
  stopServer(child: ChildProcess): Promise<void>;
}

const SECONDS = Number(process.env.BENCH_API_MIXED_SECONDS ?? 30);
const USERS = (process.env.BENCH_API_MIXED_USERS ?? '200,1000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const ACCOUNTS = Number(process.env.BENCH_API_MIXED_ACCOUNTS ?? 40);
const LAUNCHERS = Number(process.env.BENCH_API_MIXED_LAUNCHERS ?? 1);
const UPLOAD_EVERY = Number(process.env.BENCH_API_MIXED_UPLOAD_EVERY ?? 10);
const NICES = (process.env.BENCH_API_MIXED_NICE ?? '0,10').split(',');
const POLL_MS = 3000;

const percentile = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

interface Outcome {
  users: number;
  nice: string;
  calls: Map<string, { ms: number[]; errors: number }>;
  missed: number;
  polls: number;
  waits: number[];
  runs: number[];
  notStarted: number;
}

async function scenario(ready: Ready, users: number, nice: string, image: (seed: number) => Promise<Buffer>): Promise<Outcome> {
  const calls = new Map<string, { ms: number[]; errors: number }>();
  const record = (name: string, ms: number, ok: boolean) => {
    let c = calls.get(name);
    if (!c) calls.set(name, (c = { ms: [], errors: 0 }));
    c.ms.push(ms);
    if (!ok) c.errors += 1;
  };
  const timed = async (name: string, path: string, cookie: string, init: RequestInit = {}): Promise<Response | null> => {
    const t0 = performance.now();
    try {
      const res = await fetch(ready.baseUrl + path, {
        ...init,
        headers: { cookie, 'accept-encoding': 'gzip, deflate, br', ...(init.headers as Record<string, string>) },
      });
      const body = await res.arrayBuffer();
      record(name, performance.now() - t0, res.ok);
      return res.ok ? new Response(body, { headers: res.headers }) : null;
    } catch {
      record(name, performance.now() - t0, false);
      return null;
    }
  };
  const started: Array<{ cookie: string; id: string }> = [];
  let missed = 0;
  let polls = 0;
  const end = Date.now() + SECONDS * 1000;
  const user = async (i: number) => {
    const cookie = ready.accounts[i % ready.accounts.length];
    // one upload per account at most (a demo licence counts images), each its own image (an identical one would be
    // answered from the cache at once, CACHED, and never wait for a launcher)
    const uploads = i % UPLOAD_EVERY === 0 && i / UPLOAD_EVERY < ready.accounts.length;
    const uploadAt = uploads ? Date.now() + Math.random() * SECONDS * 700 : Infinity;
    let next = Date.now() + Math.random() * POLL_MS;
    while (Date.now() < end) {
      await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
      if (Date.now() >= end) break;
      polls += 1;
      await Promise.all([timed('GET /api/jobs', '/api/jobs?pageSize=10', cookie), timed('GET /api/notifications', '/api/notifications', cookie)]);
      next += POLL_MS;
      // a poll answered after the next one was due is a missed poll (the page shows old data for a whole period)
      while (Date.now() > next) {
        missed += 1;
        next += POLL_MS;
      }
      if (Date.now() >= uploadAt) {
        const form = new FormData();
        form.append('files', new Blob([new Uint8Array(await image(i))], { type: 'image/png' }), `bench-${i}.png`);
        const up = await timed('POST /api/images', '/api/images', cookie, { method: 'POST', body: form });
        const uploaded = up ? ((await up.json()) as Array<{ id: string }>)[0] : undefined;
        if (uploaded) {
          const res = await timed('POST /api/jobs', '/api/jobs', cookie, {
            method: 'POST',
            body: JSON.stringify({ imageIds: [uploaded.id], modelIds: [ready.modelId] }),
            headers: { 'content-type': 'application/json' },
          });
          const job = res ? ((await res.json()) as Array<{ id: string }>)[0] : undefined;
          if (job) started.push({ cookie, id: job.id });
        }
        break;
      }
    }
    // keep polling after the upload until the end
    while (Date.now() < end) {
      await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
      if (Date.now() >= end) break;
      polls += 1;
      await Promise.all([timed('GET /api/jobs', '/api/jobs?pageSize=10', cookie), timed('GET /api/notifications', '/api/notifications', cookie)]);
      next += POLL_MS;
      while (Date.now() > next) {
        missed += 1;
        next += POLL_MS;
      }
    }
  };
  await Promise.all(Array.from({ length: users }, (_, i) => user(i)));
  // the jobs' waiting (created → started) and run (started → finished) times, as the API tells them
  const waits: number[] = [];
  const runs: number[] = [];
  let notStarted = 0;
  const now = Date.now();
  for (const { cookie, id } of started) {
    const res = await fetch(`${ready.baseUrl}/api/jobs/${id}`, { headers: { cookie } });
    const j = (await res.json()) as { createdAt: string; startedAt: string | null; finishedAt: string | null };
    if (!j.startedAt) {
      notStarted += 1;
      waits.push(now - Date.parse(j.createdAt));
      continue;
    }
    waits.push(Date.parse(j.startedAt) - Date.parse(j.createdAt));
    if (j.finishedAt) runs.push(Date.parse(j.finishedAt) - Date.parse(j.startedAt));
  }
  return { users, nice, calls, missed, polls, waits, runs, notStarted };
}

export async function benchMixed(deps: Deps): Promise<boolean> {
  await deps.ensureDatabase(deps.url);
  // dark pores on a grey matrix, placed by the seed: every upload a different image
  const image = (seed: number) =>
    sharp({ create: { width: 512, height: 512, channels: 3, background: { r: 120 + (seed % 50), g: 120, b: 120 } } })
      .composite(
        Array.from({ length: 40 }, (_, k) => ({
          input: Buffer.from(`<svg width="20" height="20"><circle cx="10" cy="10" r="${4 + ((k + seed) % 5)}" fill="black"/></svg>`),
          left: 20 + ((k * 97 + seed * 13) % 460),
          top: 20 + ((k * 53 + seed * 7) % 460),
        })),
      )
      .png()
      .toBuffer();
  const outcomes: Outcome[] = [];
  for (const nice of NICES) {
    process.stderr.write(`mixed: server with ${LAUNCHERS} launcher(s), LAUNCHER_NICE=${nice}…\n`);
    const { child, ready } = await deps.startServer({
      TEST_DATABASE_URL: deps.url,
      BENCH_API_ACCOUNTS: String(ACCOUNTS),
      BENCH_API_LAUNCHERS: String(LAUNCHERS),
      LAUNCHER_NICE: nice,
    });
    try {
      for (const users of USERS) {
        outcomes.push(await scenario(ready, users, nice, image));
        process.stderr.write('.');
      }
    } finally {
      await deps.stopServer(child);
    }
  }
  console.log(
    `\nMixed load — PostgreSQL, ${LAUNCHERS} local launcher(s), ${ACCOUNTS} accounts, polls every 3 s (jobs + notifications), one user in ${UPLOAD_EVERY} uploads and starts a job; ${SECONDS} s each`,
  );
  console.log('targets: 200 users reads p99 < 50 ms while jobs run; 1,000 users no missed poll and no error (LAUNCHER_NICE=0: as before issue 30)');
  console.log('users | nice | call                   | requests |  p50 ms |  p99 ms | errors');
  console.log('------|------|------------------------|----------|---------|---------|-------');
  let ok = true;
  for (const o of outcomes) {
    for (const [name, c] of o.calls)
      console.log(
        `${String(o.users).padStart(5)} | ${o.nice.padStart(4)} | ${name.padEnd(22)} | ${String(c.ms.length).padStart(8)} | ${percentile(c.ms, 50).toFixed(1).padStart(7)} | ${percentile(c.ms, 99).toFixed(1).padStart(7)} | ${String(c.errors).padStart(6)}`,
      );
    const reads = [...o.calls].filter(([n]) => n.startsWith('GET')).flatMap(([, c]) => c.ms);
    const errors = [...o.calls.values()].reduce((n, c) => n + c.errors, 0);
    const pass = o.nice === '0' ? true : o.users <= 200 ? percentile(reads, 99) < 50 && errors === 0 : o.missed === 0 && errors === 0;
    if (!pass) ok = false;
    console.log(
      `${String(o.users).padStart(5)} | ${o.nice.padStart(4)} | reads p99 ${percentile(reads, 99).toFixed(1)} ms; polls ${o.polls}, missed ${o.missed}; jobs ${o.waits.length}: wait p50 ${(percentile(o.waits, 50) / 1000).toFixed(1)} s, max ${(Math.max(0, ...o.waits) / 1000).toFixed(1)} s (${o.notStarted} not started at the end); run p50 ${(percentile(o.runs, 50) / 1000).toFixed(1)} s → ${o.nice === '0' ? 'before' : pass ? 'PASS' : 'FAIL'}`,
    );
  }
  return ok;
}
