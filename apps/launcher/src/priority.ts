import { availableParallelism, setPriority } from 'node:os';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';

/**
 * Analyses run below the server (issue 30 item 2): on a one-machine install the launcher's worker threads take the
 * cores the API needs, so every thread of the launcher gets a higher nice value, and worker threads started later
 * inherit it from the main thread. On Linux, nice is per thread and, with autogroup scheduling
 * (/proc/sys/kernel/sched_autogroup_enabled), the CPU is shared first between autogroups (sessions): the
 * supervisor starts each launcher detached (its own session, so its own autogroup), where nice alone only orders the
 * launcher's threads among themselves. The autogroup's own nice value (/proc/self/autogroup) is set too, so the
 * launcher's group yields to the server's (only by a launcher that leads its own session). Raising one's own niceness needs no privilege; anything refused is left
 * as it is (best effort) and reported.
 */
export interface PriorityReport {
  /** The nice value asked for. */
  nice: number;
  /** Threads of this process set to it. */
  threads: number;
  /** Whether the autogroup's nice value was set (false: no autogroup file, or refused). */
  autogroup: boolean;
}

export function lowerPriority(nice: number, procDir = '/proc/self'): PriorityReport {
  const value = Math.max(-20, Math.min(19, Math.round(nice)));
  let threads = 0;
  let tids: number[] = [];
  try {
    tids = readdirSync(`${procDir}/task`).map(Number).filter(Number.isInteger);
  } catch {
    tids = [];
  }
  if (!tids.length) tids = [0];
  for (const tid of tids) {
    try {
      setPriority(tid, value);
      threads += 1;
    } catch {
      // a thread that ended meanwhile, or a platform without per-thread priorities
    }
  }
  let autogroup = false;
  // only a process that leads its own session (started detached) owns its autogroup: another one would lower the
  // priority of the terminal or service that started it
  if (leadsOwnSession(procDir)) {
    try {
      writeFileSync(`${procDir}/autogroup`, String(value));
      autogroup = true;
    } catch {
      // no CONFIG_SCHED_AUTOGROUP, or not allowed: nice alone
    }
  }
  return { nice: value, threads, autogroup };
}

/** Whether this process is its session's leader (/proc/self/stat: the session id is its own pid). */
function leadsOwnSession(procDir: string): boolean {
  try {
    const fields = readFileSync(`${procDir}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[3]) === process.pid;
  } catch {
    return false;
  }
}

/**
 * The worker threads of a launcher when LAUNCHER_THREADS is not set: one core is left to the server on a
 * one-machine install (a launcher the server starts, no LAUNCHER_SERVER_URL), at least one; a launcher on a machine
 * of its own (it registers with LAUNCHER_SERVER_URL) uses every core.
 */
export function defaultThreads(env: NodeJS.ProcessEnv = process.env, cores = availableParallelism()): number {
  const configured = Number(env.LAUNCHER_THREADS);
  if (env.LAUNCHER_THREADS && Number.isInteger(configured) && configured > 0) return configured;
  return env.LAUNCHER_SERVER_URL ? cores : Math.max(1, cores - 1);
}

/** LAUNCHER_NICE (default 10; 0 leaves the priority as it is). */
export function configuredNice(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.LAUNCHER_NICE ?? 10);
  return Number.isFinite(n) ? n : 10;
}
