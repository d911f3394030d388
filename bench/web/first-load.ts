/**
 * npm run bench:web — the web app's first load of /dashboard in Chromium (issue 30 item 5), and the server's start.
 *
 * First load: the real server (startTestApp on PGlite, serving apps/web/dist: run `npm run build` first) and a
 * verified user with the cookie notice accepted; each run is a fresh browser context (nothing cached) opening
 * /dashboard signed in. Prints the JavaScript it loaded (files, bytes as sent: compressed, as a browser asks, and
 * decompressed), the Largest Contentful Paint and DOMContentLoaded, median of BENCH_WEB_RUNS (default 5); next to
 * it the reference of the same run: the same browser loading a one-line page from the same server (/api/version).
 * Targets: ≤ 250 KB of JavaScript (compressed), LCP ≤ 0.5 s.
 *
 * Server start (BENCH_WEB_STARTUP=0 leaves it out, BENCH_WEB_ONLY=startup runs it alone): `apps/server/src/main.ts` as `npm start` runs it, on a fresh
 * PostgreSQL database (BENCH_DATABASE_URL's server, a scratch database per run) and again on the same database
 * (migrated already), BENCH_WEB_STARTS times each: the time from spawn to the first answer of /api/version, and the
 * phases the server logs (`startup` line). Target: ready ≤ 1.5 s on PostgreSQL.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import pg from 'pg';
import { factories } from '../../apps/server/test/factories.ts';
import { startTestApp } from '../../apps/server/test/test-app.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 5);
const STARTS = Number(process.env.BENCH_WEB_STARTS ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function firstLoad(): Promise<boolean> {
  const t = await startTestApp({ webDist: join(root, 'apps/web/dist') });
  const f = factories(t);
  const user = await f.user();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const runs: Array<{ files: number; sent: number; size: number; lcp: number; dcl: number; reference: number }> = [];
  const seen = new Map<string, number>();
  try {
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
      await context.addCookies([
        ...[...user.client.cookies].map(([name, value]) => ({ name, value, url: t.baseUrl })),
        { name: 'cookie-consent', value: 'true', url: t.baseUrl },
      ]);
      const page = await context.newPage();
      // the reference: the same browser and server, a one-line answer
      const r0 = performance.now();
      await page.goto(`${t.baseUrl}/api/version`);
      const reference = performance.now() - r0;
      const scripts: Array<Promise<{ url: string; sent: number; size: number }>> = [];
      page.on('response', (res) => {
        if (res.request().resourceType() !== 'script') return;
        scripts.push(
          (async () => {
            const sizes = await res.request().sizes();
            const body = await res.body().catch(() => Buffer.alloc(0));
            return { url: res.url(), sent: sizes.responseBodySize, size: body.length };
          })(),
        );
      });
      await page.goto(`${t.baseUrl}/dashboard`, { waitUntil: 'networkidle' });
      if (!/\/dashboard/.test(page.url())) throw new Error(`not signed in: at ${page.url()}`);
      const timing = await page.evaluate(
        () =>
          new Promise<{ lcp: number; dcl: number }>((resolve) => {
            const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
            new PerformanceObserver((list) => {
              const entries = list.getEntries();
              resolve({ lcp: entries[entries.length - 1].startTime, dcl: nav.domContentLoadedEventEnd });
            }).observe({ type: 'largest-contentful-paint', buffered: true });
          }),
      );
      const js = await Promise.all(scripts);
      for (const s of js) seen.set(s.url.replace(/^.*\/assets\//, ''), s.sent);
      runs.push({
        files: js.length,
        sent: js.reduce((n, s) => n + s.sent, 0),
        size: js.reduce((n, s) => n + s.size, 0),
        lcp: timing.lcp,
        dcl: timing.dcl,
        reference,
      });
      await context.close();
      process.stderr.write('.');
    }
  } finally {
    await browser.close();
    await t.close();
  }
  const m = {
    files: median(runs.map((r) => r.files)),
    sent: median(runs.map((r) => r.sent)),
    size: median(runs.map((r) => r.size)),
    lcp: median(runs.map((r) => r.lcp)),
    dcl: median(runs.map((r) => r.dcl)),
    reference: median(runs.map((r) => r.reference)),
  };
  const pass = m.sent <= 250 * 1024 && m.lcp <= 500;
  console.log(`\nFirst load of /dashboard, signed in, fresh browser context, Chromium; median of ${RUNS}`);
  console.log('targets: JavaScript ≤ 250 KB as sent (compressed), LCP ≤ 0.5 s');
  console.log(
    `JavaScript: ${m.files} files, ${(m.sent / 1024).toFixed(0)} KB as sent (${(m.size / 1024).toFixed(0)} KB decompressed); LCP ${m.lcp.toFixed(0)} ms, DOMContentLoaded ${m.dcl.toFixed(0)} ms; reference (/api/version in the same browser) ${m.reference.toFixed(0)} ms → ${pass ? 'PASS' : 'FAIL'}`,
  );
  console.log(
    'largest scripts as sent (KB): ' +
      [...seen]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([u, n]) => `${u} ${(n / 1024).toFixed(1)}`)
        .join(', '),
  );
  return pass;
}

async function startup(): Promise<boolean> {
  const base = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/lamella_bench_api';
  const admin = new URL(base);
  admin.pathname = '/postgres';
  const name = `lamella_bench_start_${process.pid}`;
  const url = new URL(base);
  url.pathname = `/${name}`;
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  await c.query(`drop database if exists "${name}"`);
  await c.query(`create database "${name}"`);
  const once = async (): Promise<{ ms: number; phases: string }> => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lamella-start-'));
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'apps/server/src/main.ts')], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: url.toString(),
        DATA_DIR: dataDir,
        PORT: '0',
        ADMIN_PASSWORD: 'Bench-Password-1',
        START_LOCAL_LAUNCHER: 'false',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    try {
      const port = await new Promise<number>((resolve, reject) => {
        const timer = setInterval(() => {
          const m = /listening at http:\/\/[^"\s]*:(\d+)/.exec(out);
          if (m) {
            clearInterval(timer);
            resolve(Number(m[1]));
          }
        }, 5);
        child.once('exit', (code) => {
          clearInterval(timer);
          reject(new Error(`server exited (${code}): ${out.slice(-800)}`));
        });
      });
      for (;;) {
        const ok = await fetch(`http://127.0.0.1:${port}/api/version`).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      const ms = performance.now() - t0;
      const phases = /"startupMs":(\{[^}]*\})/.exec(out)?.[1] ?? '';
      return { ms, phases };
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    }
  };
  const fresh: number[] = [];
  const again: number[] = [];
  let phases = '';
  try {
    fresh.push((await once()).ms); // creates and migrates the database
    for (let i = 0; i < STARTS; i++) {
      const r = await once();
      again.push(r.ms);
      phases = r.phases;
      process.stderr.write('.');
    }
  } finally {
    await c.query(`drop database if exists "${name}" with (force)`);
    await c.end();
  }
  const pass = median(again) <= 1500;
  console.log('\nServer start on PostgreSQL (spawn of apps/server/src/main.ts → first answer of /api/version)');
  console.log(
    `fresh database (migrations): ${fresh[0].toFixed(0)} ms; migrated database: median ${median(again).toFixed(0)} ms of ${again.map((x) => x.toFixed(0)).join(', ')} → ${pass ? 'PASS' : 'FAIL'} (target ≤ 1500 ms)`,
  );
  if (phases) console.log(`phases: ${phases}`);
  return pass;
}

let ok = process.env.BENCH_WEB_ONLY === 'startup' ? true : await firstLoad();
if (process.env.BENCH_WEB_STARTUP !== '0') ok = (await startup()) && ok;
process.exit(process.env.BENCH_STRICT === '1' && !ok ? 1 : 0);
