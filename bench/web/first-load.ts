/**
 * npm run bench:web — the web app's first load of /dashboard in Chromium (issue 30 item 5), and the server's start.
 *
 * First load: the real server (startTestApp on PGlite, serving apps/web/dist: run `npm run build` first) and a
 * verified user with the cookie notice accepted; each run is a fresh browser context (nothing cached) opening
 * /dashboard signed in. Prints the JavaScript it loaded (files, bytes as sent: compressed, as a browser asks, and
 * decompressed), the Largest Contentful Paint (and its element) and DOMContentLoaded, median of BENCH_WEB_RUNS
 * (default 5); next to it the reference of the same run: the same browser loading a one-line page from the same
 * server (/api/version). Targets: ≤ 250 KB of JavaScript (compressed), LCP ≤ 0.5 s.
 * BENCH_WEB_BASELINE=<another build's dist folder>: that build is loaded too, in turns (before/after as ratios of
 * one run); BENCH_WEB_TIMELINE=1 prints the last run's requests, BENCH_WEB_FILES=1 every script, and
 * BENCH_WEB_SHOTS=<folder> writes screenshots of /dashboard at 1280 and 375 px.
 *
 * Server start (BENCH_WEB_STARTUP=0 leaves it out, BENCH_WEB_ONLY=startup runs it alone): as `npm start` runs it
 * (node dist/server/main.js, built here first by scripts/build-server.ts) on a fresh PostgreSQL database
 * (BENCH_DATABASE_URL's server, a scratch database per run), then on the same database (migrated already) in turns
 * with the sources through tsx (`npm run dev`, or BENCH_WEB_START_BASELINE=<another checkout>'s), BENCH_WEB_STARTS
 * times each (default 5): the time from spawn to the first answer of /api/version, the server's CPU time until then
 * (steadier on a loaded machine), the phases the server logs (`startup` line) and the ratios. Target: ready ≤ 1.5 s
 * on PostgreSQL.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from '@playwright/test';
import pg from 'pg';
import { factories } from '../../apps/server/test/factories.ts';
import { startTestApp } from '../../apps/server/test/test-app.ts';
import { buildServer } from '../../scripts/build-server.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 5);
const STARTS = Number(process.env.BENCH_WEB_STARTS ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

type Run = { files: number; sent: number; size: number; lcp: number; dcl: number; reference: number; element: string };
type Variant = {
  name: string;
  t: Awaited<ReturnType<typeof startTestApp>>;
  cookies: Array<[string, string]>;
  runs: Run[];
  seen: Map<string, number>;
};

async function variant(name: string, webDist: string): Promise<Variant> {
  const t = await startTestApp({ webDist });
  const user = await factories(t).user();
  return { name, t, cookies: [...user.client.cookies], runs: [], seen: new Map() };
}

/** One first load of /dashboard in a fresh context: the scripts it loaded, LCP, DOMContentLoaded, the reference. */
async function loadOnce(browser: Browser, v: Variant, last: boolean): Promise<void> {
  const { t } = v;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  await context.addCookies([
    ...v.cookies.map(([name, value]) => ({ name, value, url: t.baseUrl })),
    { name: 'cookie-consent', value: 'true', url: t.baseUrl },
  ]);
  // each LCP element described as it is painted: the prerendered first screen's is gone (replaced) when it is read
  await context.addInitScript(() => {
    const seen: string[] = ((window as unknown as { __lcpElements: string[] }).__lcpElements = []);
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as Array<PerformanceEntry & { element?: Element | null; size?: number }>) {
        const el = e.element;
        const where = el?.closest('#first-screen') ? ', prerendered first screen' : '';
        seen.push(el ? `<${el.tagName.toLowerCase()}> "${(el.textContent ?? '').trim().slice(0, 40)}" (${e.size ?? 0} px²${where})` : '?');
      }
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });
  const page = await context.newPage();
  // the reference: the same browser and server, a one-line answer
  const r0 = performance.now();
  await page.goto(`${t.baseUrl}/api/version`);
  const reference = performance.now() - r0;
  const scripts: Array<Promise<{ url: string; sent: number; size: number }>> = [];
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script') return;
    // a script that arrives after the count (an idle-time import) may still be read when the context closes
    scripts.push(
      (async () => {
        const sizes = await res.request().sizes();
        const body = await res.body().catch(() => Buffer.alloc(0));
        return { url: res.url(), sent: sizes.responseBodySize, size: body.length };
      })().catch(() => ({ url: res.url(), sent: 0, size: 0 })),
    );
  });
  await page.goto(`${t.baseUrl}/dashboard`, { waitUntil: 'networkidle' });
  if (!/\/dashboard/.test(page.url())) throw new Error(`not signed in: at ${page.url()}`);
  const timing = await page.evaluate(
    () =>
      new Promise<{ lcp: number; dcl: number; element: string }>((resolve) => {
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        new PerformanceObserver((list) => {
          const entries = list.getEntries();
          const last = entries[entries.length - 1] as PerformanceEntry & { element?: Element | null; size?: number };
          const el = last.element;
          const described = (window as unknown as { __lcpElements?: string[] }).__lcpElements ?? [];
          const element = el
            ? `<${el.tagName.toLowerCase()}> "${(el.textContent ?? '').trim().slice(0, 40)}" (${last.size ?? 0} px²)`
            : (described[entries.length - 1] ?? described[described.length - 1] ?? '?');
          resolve({ lcp: last.startTime, dcl: nav.domContentLoadedEventEnd, element });
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      }),
  );
  // BENCH_WEB_TIMELINE=1: every request of the last run, when it started and ended (ms from navigation)
  if (process.env.BENCH_WEB_TIMELINE === '1' && last) {
    const entries = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => `${e.startTime.toFixed(0)}–${(e as PerformanceResourceTiming).responseEnd.toFixed(0)} ${e.name.replace(location.origin, '')}`),
    );
    console.log(`\n${v.name} timeline (LCP ${timing.lcp.toFixed(0)} ms, DOMContentLoaded ${timing.dcl.toFixed(0)} ms):\n  ${entries.join('\n  ')}`);
  }
  const js = await Promise.all(scripts);
  for (const s of js) v.seen.set(s.url.replace(/^.*\/assets\//, ''), s.sent);
  v.runs.push({
    files: js.length,
    sent: js.reduce((n, s) => n + s.sent, 0),
    size: js.reduce((n, s) => n + s.size, 0),
    lcp: timing.lcp,
    dcl: timing.dcl,
    element: timing.element,
    reference,
  });
  await context.close();
  process.stderr.write('.');
}

async function firstLoad(): Promise<boolean> {
  // BENCH_WEB_BASELINE=<another build's dist>: that build loads too, in turns with this one (before/after in one run)
  const variants = [await variant('this build', join(root, 'apps/web/dist'))];
  if (process.env.BENCH_WEB_BASELINE) variants.push(await variant('baseline', process.env.BENCH_WEB_BASELINE));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    for (let i = 0; i < RUNS; i++) for (const v of i % 2 ? [...variants].reverse() : variants) await loadOnce(browser, v, i === RUNS - 1);
    // BENCH_WEB_SHOTS=<folder>: /dashboard as it first loads, at desktop and phone widths
    const shots = process.env.BENCH_WEB_SHOTS;
    if (shots) {
      const { t, cookies } = variants[0];
      for (const width of [1280, 375]) {
        const context = await browser.newContext({ viewport: { width, height: width > 800 ? 800 : 740 }, locale: 'en-US' });
        await context.addCookies([
          ...cookies.map(([name, value]) => ({ name, value, url: t.baseUrl })),
          { name: 'cookie-consent', value: 'true', url: t.baseUrl },
        ]);
        const page = await context.newPage();
        await page.goto(`${t.baseUrl}/dashboard`, { waitUntil: 'networkidle' });
        await page.screenshot({ path: join(shots, `dashboard-${width}.png`), fullPage: true });
        await context.close();
      }
    }
  } finally {
    await browser.close();
    for (const v of variants) await v.t.close();
  }
  console.log(`\nFirst load of /dashboard, signed in, fresh browser context, Chromium; median of ${RUNS}`);
  console.log('targets: JavaScript ≤ 250 KB as sent (compressed), LCP ≤ 0.5 s');
  let pass = true;
  const medians = variants.map((v) => {
    const m = {
      files: median(v.runs.map((r) => r.files)),
      sent: median(v.runs.map((r) => r.sent)),
      size: median(v.runs.map((r) => r.size)),
      lcp: median(v.runs.map((r) => r.lcp)),
      dcl: median(v.runs.map((r) => r.dcl)),
      reference: median(v.runs.map((r) => r.reference)),
    };
    const ok = m.sent <= 250 * 1024 && m.lcp <= 500;
    if (v === variants[0]) pass = ok;
    console.log(
      `${v.name}: JavaScript: ${m.files} files, ${(m.sent / 1024).toFixed(0)} KB as sent (${(m.size / 1024).toFixed(0)} KB decompressed); LCP ${m.lcp.toFixed(0)} ms, DOMContentLoaded ${m.dcl.toFixed(0)} ms; reference (/api/version in the same browser) ${m.reference.toFixed(0)} ms → ${ok ? 'PASS' : 'FAIL'}`,
    );
    console.log(`  largest contentful paint: ${v.runs[v.runs.length - 1].element}`);
    if (process.env.BENCH_WEB_FILES === '1')
      console.log(`  scripts as sent (KB): ${[...v.seen].map(([u, n]) => `${u.replace(/\?.*$/, '')} ${(n / 1024).toFixed(1)}`).join(', ')}`);
    console.log(
      '  largest scripts as sent (KB): ' +
        [...v.seen]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 8)
          .map(([u, n]) => `${u} ${(n / 1024).toFixed(1)}`)
          .join(', '),
    );
    return m;
  });
  if (medians.length === 2) {
    const [a, b] = medians;
    console.log(
      `this build / baseline: JavaScript as sent ${(a.sent / b.sent).toFixed(2)}, files ${(a.files / b.files).toFixed(2)}, LCP ${(a.lcp / b.lcp).toFixed(2)}, DOMContentLoaded ${(a.dcl / b.dcl).toFixed(2)}`,
    );
  }
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
  const once = async (command: string[]): Promise<{ ms: number; cpu: number; phases: string }> => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lamella-start-'));
    const t0 = performance.now();
    const child = spawn(process.execPath, command, {
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
      // the CPU time the server spent until ready (user + system, /proc: ticks of 10 ms): steadier than the wall
      // time on a loaded machine
      const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      const cpu = (Number(stat[11]) + Number(stat[12])) * 10;
      const phases = /"startupMs":(\{[^}]*\})/.exec(out)?.[1] ?? '';
      return { ms, cpu, phases };
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    }
  };
  // as `npm start` runs it (the bundle, built here first), and in turns the sources through tsx (`npm run dev`; the
  // reference of the same run)
  await buildServer();
  const ways = [
    {
      name: 'npm start (node dist/server/main.js)',
      command: ['--enable-source-maps', join(root, 'dist/server/main.js')],
      fresh: 0,
      again: [] as number[],
      cpu: [] as number[],
      phases: '',
    },
    // BENCH_WEB_START_BASELINE=<another checkout (with node_modules)>: its sources through tsx (before/after)
    {
      name: process.env.BENCH_WEB_START_BASELINE
        ? `baseline: ${process.env.BENCH_WEB_START_BASELINE} through tsx`
        : 'sources through tsx (npm run dev)',
      command: ['--import', 'tsx', join(process.env.BENCH_WEB_START_BASELINE ?? root, 'apps/server/src/main.ts')],
      fresh: 0,
      again: [] as number[],
      cpu: [] as number[],
      phases: '',
    },
  ];
  try {
    ways[0].fresh = (await once(ways[0].command)).ms; // creates and migrates the database
    for (let i = 0; i < STARTS; i++)
      for (const w of i % 2 ? [...ways].reverse() : ways) {
        const r = await once(w.command);
        w.again.push(r.ms);
        w.cpu.push(r.cpu);
        w.phases = r.phases;
        process.stderr.write('.');
      }
  } finally {
    await c.query(`drop database if exists "${name}" with (force)`);
    await c.end();
  }
  const pass = median(ways[0].again) <= 1500;
  console.log(`\nServer start on PostgreSQL (spawn → first answer of /api/version); median of ${STARTS}, in turns`);
  console.log(`fresh database (migrations), npm start: ${ways[0].fresh.toFixed(0)} ms`);
  for (const w of ways) {
    console.log(
      `${w.name}, migrated database: median ${median(w.again).toFixed(0)} ms of ${w.again.map((x) => x.toFixed(0)).join(', ')}${w === ways[0] ? ` → ${pass ? 'PASS' : 'FAIL'} (target ≤ 1500 ms)` : ''}`,
    );
    console.log(`  CPU time until ready: median ${median(w.cpu).toFixed(0)} ms of ${w.cpu.join(', ')}`);
    if (w.phases) console.log(`  phases: ${w.phases}`);
  }
  console.log(
    `npm start / ${ways[1].name}: time to ready ${(median(ways[0].again) / median(ways[1].again)).toFixed(2)}, CPU time ${(median(ways[0].cpu) / median(ways[1].cpu)).toFixed(2)}`,
  );
  return pass;
}

let ok = process.env.BENCH_WEB_ONLY === 'startup' ? true : await firstLoad();
if (process.env.BENCH_WEB_STARTUP !== '0') ok = (await startup()) && ok;
process.exit(process.env.BENCH_STRICT === '1' && !ok ? 1 : 0);
