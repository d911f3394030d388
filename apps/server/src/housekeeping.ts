import type { Db } from './platform/db/client.ts';
import type { Storage } from './platform/storage/storage.ts';
import { purgeDueUsers } from './modules/admin-users/service.ts';
import { DEFAULT_SWEEP_MINUTES, sweep } from './modules/storage-usage/service.ts';

const HOUR = 3_600_000;

/**
 * Background work of a running server (npm start): the storage sweep at start and every STORAGE_SWEEP_MINUTES
 * (default 360; 0: only at start), and the purge of accounts whose deletion grace period has ended, hourly.
 * Several replicas may run it: the sweep only removes files no row refers to, and a purge deletes each account
 * once (the second finds it gone). Answers a stop function.
 */
export function startHousekeeping(deps: { db: Db; storage: Storage; log: (message: string) => void }): () => void {
  const minutes = Number(process.env.STORAGE_SWEEP_MINUTES ?? DEFAULT_SWEEP_MINUTES);
  const runSweep = () =>
    sweep(deps.db, deps.storage)
      .then((r) => r.removed && deps.log(`storage sweep: ${r.removed} orphaned files removed (${r.removedBytes} bytes) of ${r.files}`))
      .catch((err: Error) => deps.log(`storage sweep failed: ${err.message}`));
  const runPurge = () =>
    purgeDueUsers(deps.db, deps.storage)
      .then((n) => n && deps.log(`${n} accounts deleted after their grace period`))
      .catch((err: Error) => deps.log(`account purge failed: ${err.message}`));
  void runSweep();
  void runPurge();
  const timers = [setInterval(() => void runPurge(), HOUR)];
  if (Number.isFinite(minutes) && minutes > 0) timers.push(setInterval(() => void runSweep(), minutes * 60_000));
  for (const t of timers) t.unref();
  return () => timers.forEach((t) => clearInterval(t));
}
