import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const launcherMain = fileURLToPath(new URL('../../../../launcher/src/main.ts', import.meta.url));

export interface LocalLauncher {
  executorId: string;
  port: number;
  child: ChildProcess | null;
  wanted: boolean;
  restarts: number;
  startedAt: number;
}

/**
 * Starts and stops launcher processes on this machine (the built-in `local` provider). A launcher that
 * exits without being asked to is started again after a short pause, so a crash costs one retried job.
 */
export class LauncherSupervisor {
  private readonly launchers = new Map<string, LocalLauncher>();
  constructor(private readonly opts: { log?: (msg: string) => void; env?: NodeJS.ProcessEnv; restartDelayMs?: number } = {}) {}

  start(executorId: string, port: number, env: Record<string, string> = {}): void {
    const existing = this.launchers.get(executorId);
    if (existing?.child && existing.wanted) return;
    const entry: LocalLauncher = existing ?? { executorId, port, child: null, wanted: true, restarts: 0, startedAt: 0 };
    entry.wanted = true;
    entry.port = port;
    this.launchers.set(executorId, entry);
    this.spawn(entry, env);
  }

  private spawn(entry: LocalLauncher, env: Record<string, string>): void {
    const child = spawn(process.execPath, ['--import', 'tsx', launcherMain], {
      env: { ...process.env, ...this.opts.env, ...env, LAUNCHER_PORT: String(entry.port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    entry.child = child;
    entry.startedAt = Date.now();
    child.stdout?.on('data', (d: Buffer) => this.opts.log?.(`[launcher ${entry.port}] ${d.toString().trim()}`));
    child.stderr?.on('data', (d: Buffer) => this.opts.log?.(`[launcher ${entry.port}] ${d.toString().trim()}`));
    child.on('exit', (code, signal) => {
      if (entry.child === child) entry.child = null;
      if (!entry.wanted) return;
      // A launcher that ran for a minute starts again at once; one that keeps dying waits longer each time.
      if (Date.now() - entry.startedAt > 60_000) entry.restarts = 0;
      const delay = Math.min(30_000, (this.opts.restartDelayMs ?? 1000) * 2 ** entry.restarts);
      entry.restarts += 1;
      this.opts.log?.(`launcher on port ${entry.port} exited (${signal ?? code}); starting it again in ${Math.round(delay / 1000)} s`);
      setTimeout(() => entry.wanted && !entry.child && this.spawn(entry, env), delay).unref();
    });
  }

  async stop(executorId: string): Promise<void> {
    const entry = this.launchers.get(executorId);
    if (!entry) return;
    entry.wanted = false;
    const child = entry.child;
    if (!child) return;
    await stopChild(child);
  }

  isRunning(executorId: string): boolean {
    return Boolean(this.launchers.get(executorId)?.child);
  }

  pid(executorId: string): number | undefined {
    return this.launchers.get(executorId)?.child?.pid;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.launchers.keys()].map((id) => this.stop(id)));
  }
}

/** Asks a child process to stop (SIGTERM), kills it after `graceMs`, and resolves once it has exited. */
export async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
