import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LauncherSupervisor } from '../src/platform/compute/supervisor.ts';

/** Issue 28 item 9: the supervisor kills a hung local launcher (it answered, then stopped answering) and starts it again. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

const healthy = async (port: number) => {
  try {
    return (await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1000) })).ok;
  } catch {
    return false;
  }
};

async function until(check: () => Promise<boolean> | boolean, ms: number) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

let supervisor: LauncherSupervisor | undefined;
const logs: string[] = [];
afterAll(() => supervisor?.stopAll());

describe('a hung local launcher', () => {
  it('is killed and started again; one that never answered yet is left to start', async () => {
    const port = await freePort();
    supervisor = new LauncherSupervisor({
      restartDelayMs: 100,
      hangCheckMs: 300,
      hangMisses: 3,
      stateDir: await mkdtemp(join(tmpdir(), 'lamella-hang-')),
      env: { LAUNCHER_THREADS: '1' },
      log: (m) => logs.push(m),
    });
    supervisor.start('hang-test', port);
    // a slow start (no answer yet) is not a hang: it comes up in its own time
    await until(() => healthy(port), 240_000);
    const first = supervisor.pid('hang-test')!;
    expect(first).toBeGreaterThan(0);
    // the supervisor's own check has seen it answer (a few check periods)
    await new Promise((r) => setTimeout(r, 3000));
    process.kill(-first, 'SIGSTOP');
    await until(() => supervisor!.pid('hang-test') !== undefined && supervisor!.pid('hang-test') !== first, 60_000).catch((e: Error) => {
      throw new Error(`${e.message}: ${logs.filter((l) => !l.startsWith('[launcher')).join(' | ')}`);
    });
    await until(() => healthy(port), 240_000);
    expect(supervisor.pid('hang-test')).not.toBe(first);
    expect(supervisor.isRunning('hang-test')).toBe(true);
  }, 600_000);
});
