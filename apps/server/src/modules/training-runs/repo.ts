import { and, desc, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { TRAINING_MAX_ATTEMPTS } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { computeModels, modelVersionArtefacts, trainingRuns, users } from '../../platform/db/schema/index.ts';

/** The SQL of training runs and trained versions (tables training_runs and model_version_artefacts). */

export type RunRow = typeof trainingRuns.$inferSelect;
export type ArtefactRow = typeof modelVersionArtefacts.$inferSelect;
export type RunStatus = RunRow['status'];
export type Progress = NonNullable<RunRow['progress']>;

export function inTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => fn(tx as unknown as Db));
}

export interface RunWithNames {
  run: RunRow;
  model: { id: string; internalName: string; displayName: string };
  creatorEmail: string | null;
}

const withNames = (db: Db) =>
  db
    .select({
      run: trainingRuns,
      model: { id: computeModels.id, internalName: computeModels.internalName, displayName: computeModels.displayName },
      creatorEmail: users.email,
    })
    .from(trainingRuns)
    .innerJoin(computeModels, eq(computeModels.id, trainingRuns.modelId))
    .leftJoin(users, eq(users.id, trainingRuns.createdBy));

export async function listRuns(db: Db, f: { modelId?: string; status?: RunStatus }): Promise<RunWithNames[]> {
  const where: SQL[] = [];
  if (f.modelId) where.push(eq(trainingRuns.modelId, f.modelId));
  if (f.status) where.push(eq(trainingRuns.status, f.status));
  return withNames(db)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(trainingRuns.createdAt), desc(trainingRuns.id))
    .limit(500);
}

export async function findRun(db: Db, id: string): Promise<RunWithNames | undefined> {
  const [r] = await withNames(db).where(eq(trainingRuns.id, id));
  return r;
}

/** The candidate versions already taken for a model (names are unique per model). */
export async function candidateVersions(db: Db, modelId: string): Promise<string[]> {
  const runs = await db.select({ v: trainingRuns.candidateVersion }).from(trainingRuns).where(eq(trainingRuns.modelId, modelId));
  const arts = await db.select({ v: modelVersionArtefacts.version }).from(modelVersionArtefacts).where(eq(modelVersionArtefacts.modelId, modelId));
  return [...runs, ...arts].map((r) => r.v);
}

export async function insertRun(db: Db, values: typeof trainingRuns.$inferInsert): Promise<RunRow | null> {
  const [row] = await db.insert(trainingRuns).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

/** Cancels a run that has not ended: QUEUED or RUNNING → CANCELLED (a running dispatcher sees its fenced writes fail). */
export async function cancelRun(db: Db, id: string): Promise<RunRow | null> {
  const [row] = await db
    .update(trainingRuns)
    .set({ status: 'CANCELLED', finishedAt: sql`now()`, leaseUntil: null })
    .where(and(eq(trainingRuns.id, id), inArray(trainingRuns.status, ['QUEUED', 'RUNNING'])))
    .returning();
  return row ?? null;
}

// ---- Dispatch (lease and fencing) ---------------------------------------------------------------------------

/** Takes the oldest QUEUED run for a launcher: one statement, so two dispatchers never take the same run. */
export async function claimRun(db: Db, launcherId: string | null, leaseMs: number): Promise<RunRow | null> {
  const next = db
    .select({ id: trainingRuns.id })
    .from(trainingRuns)
    .where(eq(trainingRuns.status, 'QUEUED'))
    .orderBy(trainingRuns.createdAt)
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await db
    .update(trainingRuns)
    .set({
      status: 'RUNNING',
      launcherId,
      attempt: sql`${trainingRuns.attempt} + 1`,
      leaseUntil: new Date(Date.now() + leaseMs),
      heartbeatAt: null,
      startedAt: sql`coalesce(${trainingRuns.startedAt}, now())`,
      error: null,
    })
    .where(and(inArray(trainingRuns.id, next), eq(trainingRuns.status, 'QUEUED')))
    .returning();
  return row ?? null;
}

/** The running run as this claim holds it (fencing: still RUNNING under the same attempt). */
export const mine = (run: Pick<RunRow, 'id' | 'attempt'>) =>
  and(eq(trainingRuns.id, run.id), eq(trainingRuns.status, 'RUNNING'), eq(trainingRuns.attempt, run.attempt));

/** Renews the lease (a heartbeat), with the progress when a line brought one; false when the claim was lost. */
export async function renewLease(db: Db, run: Pick<RunRow, 'id' | 'attempt'>, leaseMs: number, progress?: Progress): Promise<boolean> {
  const rows = await db
    .update(trainingRuns)
    .set({ leaseUntil: new Date(Date.now() + leaseMs), heartbeatAt: sql`now()`, ...(progress ? { progress } : {}) })
    .where(mine(run))
    .returning({ id: trainingRuns.id });
  return rows.length > 0;
}

export async function setSelection(db: Db, run: Pick<RunRow, 'id' | 'attempt'>, imageIds: string[], holdoutImageIds: string[]): Promise<boolean> {
  const rows = await db.update(trainingRuns).set({ imageIds, holdoutImageIds }).where(mine(run)).returning({ id: trainingRuns.id });
  return rows.length > 0;
}

/** Gives a run back to the queue (fenced). `refund`: the attempt did not start (the launcher was busy). */
export async function requeue(db: Db, run: Pick<RunRow, 'id' | 'attempt'>, error: { code: string; message: string } | null, refund = false) {
  const [row] = await db
    .update(trainingRuns)
    .set({
      status: 'QUEUED',
      launcherId: null,
      leaseUntil: null,
      progress: null,
      error,
      ...(refund ? { attempt: sql`${trainingRuns.attempt} - 1` } : {}),
    })
    .where(mine(run))
    .returning();
  return row ?? null;
}

/** Ends a running run (fenced); null when the claim was lost meanwhile (cancelled, lease expired). */
export async function endRun(
  db: Db,
  run: Pick<RunRow, 'id' | 'attempt'>,
  status: 'FINISHED' | 'FAILED',
  error: { code: string; message: string } | null,
  progress?: Progress,
): Promise<RunRow | null> {
  const [row] = await db
    .update(trainingRuns)
    .set({ status, error, finishedAt: sql`now()`, leaseUntil: null, ...(progress ? { progress } : {}) })
    .where(mine(run))
    .returning();
  return row ?? null;
}

/** Runs whose dispatcher stopped renewing the lease: back to QUEUED, or FAILED after the last attempt. */
export async function expireLeases(db: Db): Promise<{ failed: RunRow[]; requeued: RunRow[] }> {
  const now = new Date();
  const failed = await db
    .update(trainingRuns)
    .set({
      status: 'FAILED',
      finishedAt: now,
      leaseUntil: null,
      error: {
        code: 'TRAINING_INTERRUPTED',
        message: `the run was interrupted ${TRAINING_MAX_ATTEMPTS} times (its launcher or server stopped answering)`,
      },
    })
    .where(and(eq(trainingRuns.status, 'RUNNING'), lt(trainingRuns.leaseUntil, now), sql`${trainingRuns.attempt} >= ${TRAINING_MAX_ATTEMPTS}`))
    .returning();
  const requeued = await db
    .update(trainingRuns)
    .set({
      status: 'QUEUED',
      launcherId: null,
      leaseUntil: null,
      progress: null,
      error: { code: 'LEASE_EXPIRED', message: 'the lease expired (its launcher or server stopped answering); queued again' },
    })
    .where(and(eq(trainingRuns.status, 'RUNNING'), lt(trainingRuns.leaseUntil, now)))
    .returning();
  return { failed, requeued };
}

/** Embedded database: this process is the only dispatcher, so RUNNING runs found at start are orphans. */
export async function requeueOrphans(db: Db): Promise<RunRow[]> {
  return db
    .update(trainingRuns)
    .set({ status: 'QUEUED', launcherId: null, leaseUntil: null, progress: null })
    .where(eq(trainingRuns.status, 'RUNNING'))
    .returning();
}

export async function hasQueued(db: Db): Promise<boolean> {
  const [r] = await db.select({ id: trainingRuns.id }).from(trainingRuns).where(eq(trainingRuns.status, 'QUEUED')).limit(1);
  return Boolean(r);
}

// ---- Trained versions ---------------------------------------------------------------------------------------

export async function insertArtefact(db: Db, values: typeof modelVersionArtefacts.$inferInsert): Promise<void> {
  await db.insert(modelVersionArtefacts).values(values);
}

export function listArtefacts(db: Db, modelId: string): Promise<ArtefactRow[]> {
  return db.select().from(modelVersionArtefacts).where(eq(modelVersionArtefacts.modelId, modelId)).orderBy(desc(modelVersionArtefacts.createdAt));
}

export async function findArtefact(db: Db, modelId: string, version: string): Promise<ArtefactRow | undefined> {
  const [a] = await db
    .select()
    .from(modelVersionArtefacts)
    .where(and(eq(modelVersionArtefacts.modelId, modelId), eq(modelVersionArtefacts.version, version)));
  return a;
}

export async function findArtefactBySha(db: Db, sha256: string): Promise<ArtefactRow | undefined> {
  const [a] = await db.select().from(modelVersionArtefacts).where(eq(modelVersionArtefacts.networkSha256, sha256)).limit(1);
  return a;
}

/** The artefact of each (model, version) asked for that has one (jobs of trained versions carry their network). */
export async function artefactOf(db: Db, modelId: string, version: string): Promise<Pick<ArtefactRow, 'networkSha256'> | undefined> {
  const [a] = await db
    .select({ networkSha256: modelVersionArtefacts.networkSha256 })
    .from(modelVersionArtefacts)
    .where(and(eq(modelVersionArtefacts.modelId, modelId), eq(modelVersionArtefacts.version, version)));
  return a;
}

export async function setArtefactStatus(
  db: Db,
  modelId: string,
  version: string,
  set: Partial<Pick<ArtefactRow, 'status' | 'previousVersion' | 'promotedAt'>>,
): Promise<void> {
  await db
    .update(modelVersionArtefacts)
    .set(set)
    .where(and(eq(modelVersionArtefacts.modelId, modelId), eq(modelVersionArtefacts.version, version)));
}

/** Every PROMOTED version of the model but `except` becomes RETIRED (one promoted version at a time). */
export async function retirePromoted(db: Db, modelId: string, except: string): Promise<void> {
  await db
    .update(modelVersionArtefacts)
    .set({ status: 'RETIRED' })
    .where(
      and(
        eq(modelVersionArtefacts.modelId, modelId),
        eq(modelVersionArtefacts.status, 'PROMOTED'),
        sql`${modelVersionArtefacts.version} <> ${except}`,
      ),
    );
}

/** Admin user ids (the socket's training events go to every admin). */
export async function adminIds(db: Db): Promise<string[]> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.role, 'ADMIN'));
  return rows.map((r) => r.id);
}
