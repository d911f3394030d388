import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { computeModels, jobs, modelAccess, modelManuals, modelVersions } from '../../platform/db/schema/index.ts';
import { trainableCounts } from '../training-runs/trainable.ts';

export type ModelRow = typeof computeModels.$inferSelect;
export type ModelValues = Pick<
  typeof computeModels.$inferInsert,
  'internalName' | 'routingPath' | 'storagePath' | 'displayName' | 'displayNameDe' | 'version' | 'accessType' | 'isDefaultVisible'
>;
export type ManualPosition = 'TOP' | 'BOTTOM';

/** Runs `fn` in one transaction (the transaction handed over as a Db). */
export function inTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => fn(tx as unknown as Db));
}

async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

export function listModels(db: Db): Promise<ModelRow[]> {
  return db.select().from(computeModels).orderBy(asc(computeModels.displayName));
}

/** Models the user may run: PUBLIC ones and PRIVATE ones granted to them (ADMIN sees all). */
export async function listAccessibleModels(db: Db, userId: string, isAdmin: boolean): Promise<ModelRow[]> {
  // archived models are hidden from everyone who runs jobs (the back-office list still shows them)
  if (isAdmin) return (await listModels(db)).filter((m) => !m.archivedAt);
  const granted = db.select({ id: modelAccess.modelId }).from(modelAccess).where(eq(modelAccess.userId, userId));
  return db
    .select()
    .from(computeModels)
    .where(and(isNull(computeModels.archivedAt), or(eq(computeModels.accessType, 'PUBLIC'), inArray(computeModels.id, granted))))
    .orderBy(asc(computeModels.displayName));
}

/** Inserts a built-in model unless its name exists (existing rows keep the staff's edits), and its versions. */
/**
 * Registers a built-in model, or brings a registered one up to the version that ships (versions are dates, so a
 * later one sorts after: jobs of the older version then read as Outdated). Staff edits of its texts and access stay.
 */
export async function ensureModel(db: Db, values: ModelValues & { builtIn: boolean }, versions: string[]): Promise<void> {
  await db
    .insert(computeModels)
    .values(values)
    .onConflictDoUpdate({
      target: computeModels.internalName,
      set: { version: values.version },
      setWhere: sql`${computeModels.builtIn} and ${computeModels.version} < ${values.version}`,
    });
  // A built-in model registered before German names were stored gets its shipped German name, unless staff
  // renamed it (then German readers keep seeing the staff's name).
  if (values.displayNameDe)
    await db
      .update(computeModels)
      .set({ displayNameDe: values.displayNameDe })
      .where(
        and(
          eq(computeModels.internalName, values.internalName),
          eq(computeModels.builtIn, true),
          isNull(computeModels.displayNameDe),
          eq(computeModels.displayName, values.displayName),
        ),
      );
  const [row] = await db.select({ id: computeModels.id }).from(computeModels).where(eq(computeModels.internalName, values.internalName));
  for (const version of versions) await addVersion(db, row.id, version);
}

export function listModelIds(db: Db): Promise<Array<{ id: string }>> {
  return db.select({ id: computeModels.id }).from(computeModels);
}

export function listModelNames(db: Db): Promise<Array<{ id: string; displayName: string; name: string; displayNameDe: string | null }>> {
  return db
    .select({
      id: computeModels.id,
      displayName: computeModels.displayName,
      name: computeModels.internalName,
      displayNameDe: computeModels.displayNameDe,
    })
    .from(computeModels)
    .orderBy(asc(computeModels.displayName));
}

export async function findModel(db: Db, id: string): Promise<ModelRow | undefined> {
  const [m] = await db.select().from(computeModels).where(eq(computeModels.id, id));
  return m;
}

export async function insertModel(db: Db, values: ModelValues): Promise<ModelRow> {
  const [m] = await db.insert(computeModels).values(values).returning();
  return m;
}

export async function updateModel(db: Db, id: string, values: Partial<typeof computeModels.$inferInsert>): Promise<ModelRow> {
  const [m] = await db
    .update(computeModels)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(computeModels.id, id))
    .returning();
  return m;
}

/** Jobs, grants, manuals and groups of the model cascade. */
/** Whether any job (deleted ones included) ran or waits with the model. */
export async function hasJobs(db: Db, modelId: string): Promise<boolean> {
  const [row] = await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.modelId, modelId)).limit(1);
  return !!row;
}

export async function deleteModel(db: Db, id: string): Promise<void> {
  await db.delete(computeModels).where(eq(computeModels.id, id));
}

export async function addVersion(db: Db, modelId: string, version: string): Promise<void> {
  await db.insert(modelVersions).values({ modelId, version }).onConflictDoNothing();
}

/** Versions of known models as a launcher reports them (by internal name); unknown names are skipped. */
export async function addReportedVersions(db: Db, reported: Array<{ name: string; versions: string[] }>): Promise<void> {
  if (!reported.length) return;
  const known = await db
    .select({ id: computeModels.id, name: computeModels.internalName })
    .from(computeModels)
    .where(
      inArray(
        computeModels.internalName,
        reported.map((m) => m.name),
      ),
    );
  const values = known.flatMap((k) =>
    (reported.find((m) => m.name === k.name)?.versions ?? []).map((version) => ({ modelId: k.id, version: String(version) })),
  );
  if (values.length) await db.insert(modelVersions).values(values).onConflictDoNothing();
}

export function listVersions(db: Db, modelId: string) {
  return db
    .select()
    .from(modelVersions)
    .where(eq(modelVersions.modelId, modelId))
    .orderBy(sql`${modelVersions.version} desc`);
}

export async function findVersion(db: Db, modelId: string, version: string) {
  const [v] = await db
    .select()
    .from(modelVersions)
    .where(and(eq(modelVersions.modelId, modelId), eq(modelVersions.version, version)));
  return v;
}

export async function hasGrant(db: Db, modelId: string, userId: string): Promise<boolean> {
  const [g] = await db
    .select({ id: modelAccess.id })
    .from(modelAccess)
    .where(and(eq(modelAccess.modelId, modelId), eq(modelAccess.userId, userId)));
  return Boolean(g);
}

export function listGrants(db: Db, modelId: string) {
  return db.select().from(modelAccess).where(eq(modelAccess.modelId, modelId));
}

/** Adds a grant; false when the user does not exist (foreign key). */
export async function addGrant(db: Db, modelId: string, userId: string): Promise<boolean> {
  try {
    await db.insert(modelAccess).values({ modelId, userId }).onConflictDoNothing();
    return true;
  } catch (err) {
    const e = err as { code?: string; cause?: { code?: string } };
    if (e?.code === '23503' || e?.cause?.code === '23503') return false;
    throw err;
  }
}

export async function removeGrant(db: Db, modelId: string, userId: string): Promise<boolean> {
  const gone = await db
    .delete(modelAccess)
    .where(and(eq(modelAccess.modelId, modelId), eq(modelAccess.userId, userId)))
    .returning({ id: modelAccess.id });
  return gone.length > 0;
}

export async function findManual(db: Db, modelId: string, position: ManualPosition, language: string) {
  const [row] = await db
    .select()
    .from(modelManuals)
    .where(and(eq(modelManuals.modelId, modelId), eq(modelManuals.position, position), eq(modelManuals.language, language)));
  return row;
}

export async function upsertManual(db: Db, modelId: string, position: ManualPosition, language: string, text: string): Promise<void> {
  await db
    .insert(modelManuals)
    .values({ modelId, position, language, text })
    .onConflictDoUpdate({
      target: [modelManuals.modelId, modelManuals.position, modelManuals.language],
      set: { text, updatedAt: new Date() },
    });
}

export interface UsageRow {
  model_id: string;
  week: string;
  month: string;
  total: string;
  job: string | null;
  wait: string | null;
}

// Usage figures are aggregates over the jobs of each model (read-only; the jobs module owns the rows).
export function usageByModel(db: Db): Promise<UsageRow[]> {
  return rows<UsageRow>(
    db,
    sql`select model_id,
        count(*) filter (where created_at > now() - interval '7 days') as week,
        count(*) filter (where created_at > now() - interval '30 days') as month,
        count(*) as total,
        avg(extract(epoch from (finished_at - started_at))) filter (where finished_at is not null and started_at is not null) as job,
        avg(extract(epoch from (started_at - created_at))) filter (where started_at is not null) as wait
      from jobs group by model_id`,
  );
}

/** Trainable images per model: the training-runs module's one definition (consent, image flag, submitted mask of a job of the model). */
export function trainableByModel(db: Db): Promise<Array<{ model_id: string; n: string }>> {
  return trainableCounts(db);
}

/** The model row locked for the rest of the transaction (promote and rollback change its version one at a time). */
export async function lockModel(tx: Db, id: string): Promise<ModelRow | undefined> {
  const [m] = await tx.select().from(computeModels).where(eq(computeModels.id, id)).for('update');
  return m;
}

/** Makes `version` the model's current version (new jobs run with it; older jobs read Outdated). */
export async function setCurrentVersion(tx: Db, id: string, version: string): Promise<void> {
  await tx.update(computeModels).set({ version, updatedAt: new Date() }).where(eq(computeModels.id, id));
}
