import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { images, masks, modelVersionArtefacts, results, storedObjects, trainingRuns, users } from '../../platform/db/schema/index.ts';

/**
 * The ledger of stored files (stored_objects) and the questions the sweep asks the other domains' tables: which
 * keys still have their row. Read-only over images, masks, results, users, model_version_artefacts and
 * training_runs; writes only stored_objects.
 */

export async function record(db: Db, rows: Array<{ key: string; ownerId: string | null; bytes: number }>): Promise<void> {
  if (!rows.length) return;
  await db
    .insert(storedObjects)
    .values(rows)
    .onConflictDoUpdate({ target: storedObjects.key, set: { bytes: sql`excluded.bytes`, ownerId: sql`excluded.owner_id` } });
}

export async function forget(db: Db, keys: string[]): Promise<void> {
  if (keys.length) await db.delete(storedObjects).where(inArray(storedObjects.key, keys));
}

/** Ledger rows older than `before` (the sweep drops those whose file is gone). */
export async function ledgerKeysBefore(db: Db, before: Date): Promise<string[]> {
  const rows = await db.select({ key: storedObjects.key }).from(storedObjects).where(lt(storedObjects.createdAt, before));
  return rows.map((r) => r.key);
}

/**
 * Bytes a user holds in storage: the files under their own keys (originals, renditions, sidecars, masks, logo) and
 * the result files of their jobs.
 */
export async function usedBytes(db: Db, ownerId: string): Promise<number> {
  const result = (await db.execute(sql`
    select
      (select coalesce(sum(${storedObjects.bytes}), 0) from ${storedObjects} where ${storedObjects.ownerId} = ${ownerId})
      + (select coalesce(sum(o.bytes), 0) from ${storedObjects} o where o.key in (
          select f.value from ${results} r cross join lateral jsonb_each_text(r.files) f
          where r.id in (select j.result_id from jobs j where j.owner_id = ${ownerId} and j.result_id is not null)
        )) as "used"`)) as unknown as { rows: Array<{ used: string | number }> };
  return Number(result.rows[0]?.used ?? 0);
}

/** Of these image ids, those whose row exists and is not deleted. */
export async function liveImageIds(db: Db, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db
    .select({ id: images.id })
    .from(images)
    .where(and(inArray(images.id, ids), eq(images.isDeleted, false)));
  return new Set(rows.map((r) => r.id));
}

export async function liveMaskKeys(db: Db, keys: string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows = await db.select({ key: masks.storageKey }).from(masks).where(inArray(masks.storageKey, keys));
  return new Set(rows.map((r) => r.key));
}

export async function liveLogoKeys(db: Db, keys: string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows = await db.select({ key: users.logoKey }).from(users).where(inArray(users.logoKey, keys));
  return new Set(rows.map((r) => r.key ?? ''));
}

/** Of these result ids, the file keys their rows list. */
export async function resultFileKeys(db: Db, resultIds: string[]): Promise<Set<string>> {
  if (!resultIds.length) return new Set();
  const rows = await db.select({ files: results.files }).from(results).where(inArray(results.id, resultIds));
  return new Set(rows.flatMap((r) => Object.values(r.files ?? {})));
}

const RUN_NETWORK = /^networks\/runs\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-(\d+)\.onnx$/i;

/**
 * Of these networks/ keys, those a trained version names (whatever its status: a retired version can be promoted
 * or rolled back to again) and those a run that is not over may still be writing (`networks/runs/<run>-<attempt>.onnx`).
 */
export async function liveNetworkKeys(db: Db, keys: string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const named = await db
    .select({ key: modelVersionArtefacts.networkKey })
    .from(modelVersionArtefacts)
    .where(inArray(modelVersionArtefacts.networkKey, keys));
  const live = new Set(named.map((r) => r.key));
  const runIds = [...new Set(keys.map((k) => RUN_NETWORK.exec(k)?.[1]?.toLowerCase()).filter((id): id is string => !!id))];
  if (runIds.length) {
    const active = await db
      .select({ id: trainingRuns.id })
      .from(trainingRuns)
      .where(and(inArray(trainingRuns.id, runIds), inArray(trainingRuns.status, ['QUEUED', 'RUNNING'])));
    const ids = new Set(active.map((r) => r.id));
    for (const k of keys) if (ids.has(RUN_NETWORK.exec(k)?.[1]?.toLowerCase() ?? '')) live.add(k);
  }
  return live;
}
