import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configuredNice, defaultThreads } from './priority.ts';

const priorityModule = fileURLToPath(new URL('./priority.ts', import.meta.url));

describe('launcher worker threads by default', () => {
  it('leave one core to the server next to it, use every core on a machine of their own, and follow LAUNCHER_THREADS', () => {
    expect(defaultThreads({}, 2)).toBe(1);
    expect(defaultThreads({}, 1)).toBe(1);
    expect(defaultThreads({}, 16)).toBe(15);
    expect(defaultThreads({ LAUNCHER_SERVER_URL: 'http://server:8080' }, 16)).toBe(16);
    expect(defaultThreads({ LAUNCHER_THREADS: '3' }, 16)).toBe(3);
    expect(defaultThreads({ LAUNCHER_THREADS: 'lots' }, 4)).toBe(3);
    expect(configuredNice({})).toBe(10);
    expect(configuredNice({ LAUNCHER_NICE: '0' })).toBe(0);
    expect(configuredNice({ LAUNCHER_NICE: 'x' })).toBe(10);
  });
});

describe.runIf(process.platform === 'linux')('lowerPriority (a real process)', () => {
  it('nices every thread, worker threads started afterwards inherit it, and the autogroup is lowered where there is one', async () => {
    // A detached-like child: lowers itself, then starts a worker thread that reports its own nice value.
    const script = `
      import { getPriority } from 'node:os';
      import { readFileSync } from 'node:fs';
      import { Worker } from 'node:worker_threads';
      const { lowerPriority } = await import(${JSON.stringify(priorityModule)});
      const target = Math.min(19, getPriority(0) + 3);
      const report = lowerPriority(target);
      const worker = new Worker("import { parentPort } from 'node:worker_threads'; import { getPriority } from 'node:os'; parentPort.postMessage(getPriority(0));", { eval: true });
      const workerNice = await new Promise((r) => worker.once('message', r));
      await worker.terminate();
      let autogroup = null;
      try { autogroup = readFileSync('/proc/self/autogroup', 'utf8').trim(); } catch {}
      console.log(JSON.stringify({ target, report, main: getPriority(0), workerNice, autogroup }));`;
    // detached, as the supervisor starts launchers: its own session and autogroup (never the test runner's)
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      detached: true,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    expect(await new Promise((r) => child.once('exit', r))).toBe(0);
    const out = JSON.parse(stdout.trim().split('\n').pop()!) as {
      target: number;
      report: { nice: number; threads: number; autogroup: boolean };
      main: number;
      workerNice: number;
      autogroup: string | null;
    };
    expect(out.report.nice).toBe(out.target);
    expect(out.report.threads).toBeGreaterThan(1); // main thread and V8's / libuv's threads
    expect(out.main).toBe(out.target);
    expect(out.workerNice).toBe(out.target);
    expect(out.report.autogroup).toBe(existsSync('/proc/self/autogroup'));
    if (out.report.autogroup) expect(out.autogroup).toMatch(new RegExp(`nice ${out.target}$`));
  });
});
