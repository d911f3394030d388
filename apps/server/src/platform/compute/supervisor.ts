import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const launcherMain = fileURLToPath(new URL('../../../../launcher/src/main.ts', import.meta.url));

/** A line of a launcher's output that says why it failed. */
const ERROR_LINE = /error|EADDRINUSE|in use/i;
/** A launcher that dies again within this time after a (re)start counts as failing. */
const FAILING_WITHIN_MS = 10_000;
const ADOPTED_CHECK_MS = 5_000;

export interface LocalLauncher {
  executorId: string;
  port: number;
  env: Record<string, string>;
  child: ChildProcess | null;
  /** A healthy launcher found on the port at start (left over by an earlier server process) and reused. */
  adopted: boolean;
  wanted: boolean;
  restarts: number;
  startedAt: number;
  /** The last lines the process wrote. */
  output: string[];
  /** The last line of this run that names an error (kept when later lines, e.g. a stack trace's, push it out of `output`). */
  errorLine: string | null;
  /** Why its last run ended, when it ended without being asked to. */
  failure: string | null;
  timer: NodeJS.Timeout | null;
  /** The health watch of a spawned launcher (a hung one is killed and started again). */
  watchdog: NodeJS.Timeout | null;
}

/** What the supervisor knows of a local launcher: stopped (not wanted), running, or failed (cannot start / keeps dying). */
export interface LocalLauncherStatus {
  state: 'stopped' | 'running' | 'failed';
  failure: string | null;
}

export interface SupervisorOptions {
  log?: (msg: string) => void;
  env?: NodeJS.ProcessEnv;
  restartDelayMs?: number;
  /** Where the process-group id of each port's launcher is kept, to end it after a crash of this server. */
  stateDir?: string;
  /** Whether a healthy launcher already answers on the port (default: GET http://127.0.0.1:port/health). */
  probe?: (port: number) => Promise<boolean>;
  /** How often a spawned launcher's health is checked (default 5 s). */
  hangCheckMs?: number;
  /** Checks in a row without an answer, after it answered once, that make a launcher hung (default 6, about 30 s). */
  hangMisses?: number;
}

async function healthyOnPort(port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1500) });
    if (!res.ok) return false;
    const body = (await res.json()) as { status?: string };
    return body.status === 'ok';
  } catch {
    return false;
  }
}

/**
 * Starts and stops launcher processes on this machine (the built-in `local` provider).
 * - Each launcher runs in its own process group; stopping it ends the whole group (no grandchild survives).
 * - A launcher that exits without being asked to is started again after a pause growing with each failure; one
 *   that answered its health check and then stops answering (hung, frozen) is killed and so started again too;
 *   while it keeps failing, `status()` reports `failed` with its last output (e.g. the port is taken).
 * - After a `kill -9` of the server its launchers may live on: at start, a healthy launcher already answering on
 *   the port is reused (adopted) instead of a new one failing on the taken port; stopping it ends its recorded
 *   process group.
 */
export class LauncherSupervisor {
  private readonly launchers = new Map<string, LocalLauncher>();
  private readonly stateDir: string;
  constructor(private readonly opts: SupervisorOptions = {}) {
    this.stateDir = opts.stateDir ?? join(tmpdir(), 'lamella-launchers');
  }

  start(executorId: string, port: number, env: Record<string, string> = {}): void {
    const existing = this.launchers.get(executorId);
    // Wanted already: running, reused, being started, or waiting to be started again.
    if (existing?.wanted) return;
    const entry: LocalLauncher = existing ?? {
      executorId,
      port,
      env,
      child: null,
      adopted: false,
      wanted: true,
      restarts: 0,
      startedAt: 0,
      output: [],
      errorLine: null,
      failure: null,
      timer: null,
      watchdog: null,
    };
    entry.wanted = true;
    entry.port = port;
    entry.env = env;
    entry.failure = null;
    entry.restarts = 0;
    entry.startedAt = Date.now();
    this.launchers.set(executorId, entry);
    void this.launch(entry);
  }

  /** Reuses a healthy launcher already on the port, else spawns one. */
  private async launch(entry: LocalLauncher): Promise<void> {
    const probe = this.opts.probe ?? healthyOnPort;
    if (await probe(entry.port)) {
      if (!entry.wanted || entry.child) return;
      entry.adopted = true;
      this.opts.log?.(`a launcher already answers on port ${entry.port}: reusing it`);
      this.watchAdopted(entry, probe);
      return;
    }
    if (!entry.wanted || entry.child) return;
    this.spawn(entry);
  }

  /** An adopted launcher is not our child: it is checked now and then and replaced when it stops answering. */
  private watchAdopted(entry: LocalLauncher, probe: (port: number) => Promise<boolean>): void {
    let misses = 0;
    const check = async () => {
      entry.timer = null;
      if (!entry.wanted || !entry.adopted) return;
      misses = (await probe(entry.port)) ? 0 : misses + 1;
      if (!entry.wanted || !entry.adopted) return;
      if (misses >= 2) {
        entry.adopted = false;
        this.opts.log?.(`the reused launcher on port ${entry.port} stopped answering; starting a new one`);
        this.spawn(entry);
        return;
      }
      entry.timer = setTimeout(() => void check(), ADOPTED_CHECK_MS);
      entry.timer.unref();
    };
    entry.timer = setTimeout(() => void check(), ADOPTED_CHECK_MS);
    entry.timer.unref();
  }

  private pidFile(port: number): string {
    return join(this.stateDir, `launcher-${port}.pid`);
  }

  private spawn(entry: LocalLauncher): void {
    const child = spawn(process.execPath, ['--import', 'tsx', launcherMain], {
      env: { ...process.env, ...this.opts.env, ...entry.env, LAUNCHER_PORT: String(entry.port) },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: stop() ends the group, so nothing it started outlives it.
      detached: true,
    });
    entry.child = child;
    entry.startedAt = Date.now();
    entry.output = [];
    entry.errorLine = null;
    if (child.pid) {
      try {
        mkdirSync(this.stateDir, { recursive: true });
        writeFileSync(this.pidFile(entry.port), String(child.pid));
      } catch {
        // best effort: only needed to end this launcher after a crash of the server
      }
    }
    const remember = (d: Buffer) => {
      const lines = d.toString().trim().split('\n').filter(Boolean);
      entry.output = [...entry.output, ...lines].slice(-5);
      entry.errorLine = lines.filter((l) => ERROR_LINE.test(l)).pop() ?? entry.errorLine;
      for (const line of lines) this.opts.log?.(`[launcher ${entry.port}] ${line}`);
    };
    child.stdout?.on('data', remember);
    child.stderr?.on('data', remember);
    child.on('error', (error) => {
      entry.failure = error.message;
    });
    let hung = false;
    this.watch(entry, child, () => {
      hung = true;
    });
    child.on('exit', (code, signal) => {
      if (entry.child === child) entry.child = null;
      if (!entry.wanted) return;
      const last = entry.errorLine ?? entry.output.at(-1);
      entry.failure = hung ? 'not responding: killed' : `exited (${signal ?? code})${last ? `: ${last.slice(0, 300)}` : ''}`;
      // A launcher that ran for a minute starts again at once; one that keeps dying waits longer each time.
      if (Date.now() - entry.startedAt > 60_000) entry.restarts = 0;
      const delay = Math.min(30_000, (this.opts.restartDelayMs ?? 1000) * 2 ** entry.restarts);
      entry.restarts += 1;
      this.opts.log?.(`launcher on port ${entry.port} exited (${signal ?? code}); starting it again in ${Math.round(delay / 1000)} s`);
      entry.timer = setTimeout(() => {
        entry.timer = null;
        if (entry.wanted && !entry.child) void this.launch(entry);
      }, delay);
      entry.timer.unref();
    });
  }

  /**
   * Checks a spawned launcher's health every `hangCheckMs`; once it has answered, `hangMisses` checks in a row without
   * an answer end its process group with SIGKILL (a hung launcher does not exit by itself), and the exit handler
   * starts it again (issue 28 item 9).
   */
  private watch(entry: LocalLauncher, child: ChildProcess, onHung: () => void): void {
    const probe = this.opts.probe ?? healthyOnPort;
    const every = this.opts.hangCheckMs ?? 5000;
    const limit = this.opts.hangMisses ?? 6;
    let answered = false;
    let misses = 0;
    const check = async () => {
      entry.watchdog = null;
      if (!entry.wanted || entry.child !== child) return;
      const ok = await probe(entry.port);
      if (!entry.wanted || entry.child !== child) return;
      if (ok) {
        answered = true;
        misses = 0;
      } else if (answered && ++misses >= limit) {
        this.opts.log?.(`launcher on port ${entry.port} stopped answering; killing it to start it again`);
        onHung();
        if (child.pid) signalGroup(child.pid, 'SIGKILL');
        return;
      }
      entry.watchdog = setTimeout(() => void check(), every);
      entry.watchdog.unref();
    };
    entry.watchdog = setTimeout(() => void check(), every);
    entry.watchdog.unref();
    child.once('exit', () => {
      if (entry.watchdog) clearTimeout(entry.watchdog);
      entry.watchdog = null;
    });
  }

  async stop(executorId: string): Promise<void> {
    const entry = this.launchers.get(executorId);
    if (!entry) return;
    entry.wanted = false;
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = null;
    if (entry.watchdog) clearTimeout(entry.watchdog);
    entry.watchdog = null;
    const child = entry.child;
    if (entry.adopted) {
      entry.adopted = false;
      await this.stopRecordedGroup(entry.port);
    }
    if (child) {
      await stopChild(child, 5000, true);
      this.forgetPid(entry.port, child.pid);
    }
  }

  /** Ends the process group recorded for the port (a launcher of an earlier server process). */
  private async stopRecordedGroup(port: number): Promise<void> {
    let pid = 0;
    try {
      pid = Number(readFileSync(this.pidFile(port), 'utf8').trim());
    } catch {
      return;
    }
    if (!Number.isInteger(pid) || pid <= 1) return;
    const alive = () => {
      try {
        process.kill(-pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    if (alive()) {
      signalGroup(pid, 'SIGTERM');
      const deadline = Date.now() + 5000;
      while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      if (alive()) signalGroup(pid, 'SIGKILL');
    }
    this.forgetPid(port, pid);
  }

  private forgetPid(port: number, pid: number | undefined): void {
    try {
      if (Number(readFileSync(this.pidFile(port), 'utf8').trim()) === pid) rmSync(this.pidFile(port), { force: true });
    } catch {
      // no record
    }
  }

  isRunning(executorId: string): boolean {
    const e = this.launchers.get(executorId);
    return Boolean(e?.child || e?.adopted);
  }

  /** Whether the launcher runs, is stopped, or cannot start (its process keeps exiting). */
  status(executorId: string): LocalLauncherStatus {
    const e = this.launchers.get(executorId);
    if (!e || !e.wanted) return { state: 'stopped', failure: null };
    const failing = e.restarts > 0 && (!e.child || Date.now() - e.startedAt < FAILING_WITHIN_MS);
    return failing ? { state: 'failed', failure: e.failure } : { state: 'running', failure: null };
  }

  pid(executorId: string): number | undefined {
    return this.launchers.get(executorId)?.child?.pid;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.launchers.keys()].map((id) => this.stop(id)));
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/**
 * Asks a child process to stop (SIGTERM), kills it after `graceMs`, and resolves once it has exited. With
 * `group`, the signals go to its whole process group (a child spawned `detached`).
 */
export async function stopChild(child: ChildProcess, graceMs = 5000, group = false): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const send = (signal: NodeJS.Signals) => (group && child.pid ? signalGroup(child.pid, signal) : child.kill(signal));
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => send('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    send('SIGTERM');
  });
}
