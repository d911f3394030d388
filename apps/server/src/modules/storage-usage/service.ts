import type { Db } from '../../platform/db/client.ts';
import type { Storage, StoredFile } from '../../platform/storage/storage.ts';
import { METERED_PREFIXES, ownerOfKey } from './metered.ts';
import * as repo from './repo.ts';

export { meteredStorage, ownerOfKey } from './metered.ts';

/** Files younger than this are never swept: a write whose row is still being inserted is not an orphan. */
export const SWEEP_MIN_AGE_MS = 60 * 60 * 1000;
/** How often a running server sweeps (STORAGE_SWEEP_MINUTES, default 360; 0: only at start). */
export const DEFAULT_SWEEP_MINUTES = 360;
const BATCH = 500;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Bytes the user holds in storage (originals, renditions, sidecars, masks, logo, their jobs' result files). */
export const usedBytes = (db: Db, userId: string): Promise<number> => repo.usedBytes(db, userId);

/** Of a batch of stored keys, those a row still refers to. */
async function liveKeys(db: Db, files: StoredFile[]): Promise<Set<string>> {
  const keys = files.map((f) => f.key);
  const part = (i: number, k: string) => k.split('/')[i] ?? '';
  const imageIds = [...new Set(keys.filter((k) => k.startsWith('images/')).map((k) => part(2, k)))].filter((id) => UUID.test(id));
  const resultIds = [...new Set(keys.filter((k) => k.startsWith('results/')).map((k) => part(1, k)))].filter((id) => UUID.test(id));
  const [images, masks, logos, results, networks] = await Promise.all([
    repo.liveImageIds(db, imageIds),
    repo.liveMaskKeys(
      db,
      keys.filter((k) => k.startsWith('masks/')),
    ),
    repo.liveLogoKeys(
      db,
      keys.filter((k) => k.startsWith('logos/')),
    ),
    repo.resultFileKeys(db, resultIds),
    repo.liveNetworkKeys(
      db,
      keys.filter((k) => k.startsWith('networks/')),
    ),
  ]);
  return new Set(
    keys.filter((k) => {
      if (k.startsWith('images/')) return images.has(part(2, k)) && ownerOfKey(k) !== null;
      if (k.startsWith('masks/')) return masks.has(k);
      if (k.startsWith('logos/')) return logos.has(k);
      if (k.startsWith('networks/')) return networks.has(k);
      if (k.startsWith('results/')) return results.has(k);
      // a key of no known domain is never taken for an orphan
      return true;
    }),
  );
}

export interface SweepReport {
  /** Files examined. */
  files: number;
  /** Files removed because no row refers to them any more. */
  removed: number;
  removedBytes: number;
  /** Ledger rows added for stored files it missed (a crash between a write and its record). */
  recorded: number;
  /** Ledger rows dropped because their file is gone. */
  forgotten: number;
}

/**
 * Removes every stored file of a user domain (images/, masks/, logos/, results/) whose row is gone (a deleted
 * image, a purged user, a crash between a write and its row), and a trained network (networks/) that no version
 * row (model_version_artefacts.network_key, any status) names and no QUEUED or RUNNING run is writing, and makes
 * stored_objects agree with the store. Files younger than `minAgeMs` are left alone (a write in progress).
 * `storage` is the driver (not the metered one).
 */
export async function sweep(db: Db, storage: Storage, options: { minAgeMs?: number; now?: Date } = {}): Promise<SweepReport> {
  const cutoff = new Date((options.now ?? new Date()).getTime() - (options.minAgeMs ?? SWEEP_MIN_AGE_MS));
  const report: SweepReport = { files: 0, removed: 0, removedBytes: 0, recorded: 0, forgotten: 0 };
  const seen = new Set<string>();
  const handle = async (batch: StoredFile[]) => {
    const live = await liveKeys(db, batch);
    // at least minAgeMs old: a file stamped in the millisecond the sweep began is old enough for minAgeMs 0 (a stat's
    // mtime is a millisecond Date from a clock that lags Date.now(), never ahead of it)
    const dead = batch.filter((f) => !live.has(f.key) && f.modifiedAt <= cutoff);
    for (const f of dead) {
      await storage.delete(f.key);
      report.removed++;
      report.removedBytes += f.bytes;
    }
    await repo.forget(
      db,
      dead.map((f) => f.key),
    );
    const kept = batch.filter((f) => live.has(f.key));
    await repo.record(
      db,
      kept.map((f) => ({ key: f.key, ownerId: ownerOfKey(f.key), bytes: f.bytes })),
    );
    report.recorded += kept.length;
    for (const f of batch) if (!dead.includes(f)) seen.add(f.key);
  };
  for (const prefix of METERED_PREFIXES) {
    let batch: StoredFile[] = [];
    for await (const f of storage.list(prefix)) {
      report.files++;
      batch.push(f);
      if (batch.length >= BATCH) {
        await handle(batch);
        batch = [];
      }
    }
    if (batch.length) await handle(batch);
  }
  const gone = (await repo.ledgerKeysBefore(db, cutoff)).filter((k) => !seen.has(k));
  for (let i = 0; i < gone.length; i += BATCH) await repo.forget(db, gone.slice(i, i + BATCH));
  report.forgotten = gone.length;
  return report;
}

/** Removes a list of stored files now (after the rows that named them are gone); errors are the sweep's to mend. */
export async function removeFiles(storage: Storage, keys: Iterable<string>): Promise<void> {
  for (const key of keys) await storage.delete(key).catch(() => undefined);
}

/** Removes every file under a prefix (an image's folder: original, renditions, sidecar). */
export async function removePrefix(storage: Storage, prefix: string): Promise<void> {
  const keys: string[] = [];
  for await (const f of storage.list(prefix)) keys.push(f.key);
  await removeFiles(storage, keys);
}
