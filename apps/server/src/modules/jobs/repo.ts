import { and, asc, count, desc, eq, inArray, isNotNull, notInArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { computeModels, customizationGroups, images, jobs, masks, results } from '../../platform/db/schema/index.ts';

/**
 * All SQL of the jobs module. The jobs and results tables are this module's. The reads of other domains'
 * rows below (images, models, masks, customization group names) are read-only joins for the job's wire shape
 * and checks; they move behind those domains' service.ts as those get the batch reads (masks cannot yet: its
 * service imports this module's).
 */
export type JobRow = typeof jobs.$inferSelect;
export type JobInsert = typeof jobs.$inferInsert;
export type ResultRow = typeof results.$inferSelect;

const userVisible = notInArray(jobs.source, ['SANDBOX', 'IDENTIFICATION']);

export interface JobPageFilter {
  ownerId: string;
  archived: boolean;
  modelId?: string;
  sortBy: 'createdAt' | 'finishedAt' | 'status';
  sortOrder: 'asc' | 'desc';
  page: number;
  pageSize: number;
}

const sortColumns = { createdAt: jobs.createdAt, finishedAt: jobs.finishedAt, status: jobs.status } as const;

/**
 * One page of the user's own (not deleted, not sandbox) jobs and the total. The total is counted only when the
 * page does not tell it: a page that is not full (the usual poll of a user's first page) ends the list, so the
 * total is the rows before it plus its own, and no count(*) runs over the user's whole history.
 */
export async function pageOfJobs(db: Db, f: JobPageFilter): Promise<{ rows: JobRow[]; total: number }> {
  const where = and(
    eq(jobs.ownerId, f.ownerId),
    eq(jobs.deleted, false),
    eq(jobs.archived, f.archived),
    f.modelId ? eq(jobs.modelId, f.modelId) : undefined,
    userVisible,
  );
  // sortBy is validated against the three literal keys by the contract; Object.hasOwn keeps it that way.
  const column = Object.hasOwn(sortColumns, f.sortBy) ? sortColumns[f.sortBy] : jobs.createdAt;
  const dir = f.sortOrder === 'asc' ? asc : desc;
  const offset = (f.page - 1) * f.pageSize;
  const rows = await db
    .select()
    .from(jobs)
    .where(where)
    .orderBy(dir(column), dir(jobs.id))
    .limit(f.pageSize + 1)
    .offset(offset);
  if (rows.length <= f.pageSize && (rows.length > 0 || offset === 0)) return { rows, total: offset + rows.length };
  const [total] = await db.select({ n: count() }).from(jobs).where(where);
  return { rows: rows.slice(0, f.pageSize), total: Number(total.n) };
}

export async function findJob(db: Db, id: string): Promise<JobRow | undefined> {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id)).limit(1);
  return row;
}

export async function findOwnJob(db: Db, ownerId: string, id: string): Promise<JobRow | undefined> {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.id, id), eq(jobs.ownerId, ownerId), eq(jobs.deleted, false)))
    .limit(1);
  return row;
}

export function ownJobs(db: Db, ownerId: string, ids: string[]): Promise<JobRow[]> {
  return db
    .select()
    .from(jobs)
    .where(and(inArray(jobs.id, ids), eq(jobs.ownerId, ownerId), eq(jobs.deleted, false)));
}

/** A result readable by the caller: through one of their (not deleted) jobs, or any for `anyOwner` (ADMIN). */
export async function readableResult(db: Db, resultId: string, viewer: { userId: string; anyOwner: boolean }): Promise<ResultRow | undefined> {
  const [row] = await db
    .select({ result: results })
    .from(results)
    .innerJoin(jobs, eq(jobs.resultId, results.id))
    .where(
      and(
        eq(results.id, resultId),
        viewer.anyOwner ? undefined : eq(jobs.ownerId, viewer.userId),
        viewer.anyOwner ? undefined : eq(jobs.deleted, false),
      ),
    )
    .limit(1);
  return row?.result;
}

export function resultsByIds(db: Db, ids: string[]): Promise<ResultRow[]> {
  return ids.length ? db.select().from(results).where(inArray(results.id, ids)) : Promise.resolve([]);
}

/**
 * Earlier results for these cache keys, newest first, among the OWNER's own jobs only: result texts are
 * rendered in the owner's language and carry their feedback, so they are never handed to another user.
 */
export async function cachedResults(db: Db, ownerId: string, keys: string[]): Promise<Array<{ id: string; cacheKey: string | null }>> {
  if (!keys.length) return [];
  return db
    .selectDistinct({ id: results.id, cacheKey: results.cacheKey, createdAt: results.createdAt })
    .from(results)
    .innerJoin(jobs, eq(jobs.resultId, results.id))
    .where(and(inArray(results.cacheKey, keys), isNotNull(results.cacheKey), eq(jobs.ownerId, ownerId)))
    .orderBy(desc(results.createdAt));
}

export function insertJobs(tx: Db, values: JobInsert[]): Promise<JobRow[]> {
  return tx.insert(jobs).values(values).returning();
}

/** Sets `archived` or `deleted` on the owner's (not deleted) jobs; answers the ids changed. */
export async function updateOwnJobs(db: Db, ownerId: string, ids: string[], set: { archived: boolean } | { deleted: true }): Promise<string[]> {
  const rows = await db
    .update(jobs)
    .set(set)
    .where(and(inArray(jobs.id, ids), eq(jobs.ownerId, ownerId), eq(jobs.deleted, false)))
    .returning({ id: jobs.id });
  return rows.map((r) => r.id);
}

/** The rows of the user's CSV export: job, image name, model name, measurements. */
export function exportRows(db: Db, ownerId: string, ids: string[]) {
  return db
    .select({
      job: jobs,
      image: images.orginalFilename,
      model: computeModels.displayName,
      modelName: computeModels.internalName,
      measurements: results.measurements,
    })
    .from(jobs)
    .innerJoin(images, eq(images.id, jobs.imageId))
    .innerJoin(computeModels, eq(computeModels.id, jobs.modelId))
    .leftJoin(results, eq(results.id, jobs.resultId))
    .where(and(inArray(jobs.id, ids), eq(jobs.ownerId, ownerId), eq(jobs.deleted, false), userVisible));
}

// --- Read-only lookups in other domains' tables (see the note at the top). ---

export function ownImages(db: Db, ids: string[]) {
  return db
    .select()
    .from(images)
    .where(and(inArray(images.id, ids), eq(images.isDeleted, false)));
}

export async function ownMask(db: Db, ownerId: string, id: string) {
  const [row] = await db
    .select()
    .from(masks)
    .where(and(eq(masks.id, id), eq(masks.ownerId, ownerId)));
  return row;
}

export async function latestMaskOfJob(db: Db, ownerId: string, jobId: string) {
  const [row] = await db
    .select()
    .from(masks)
    .where(and(eq(masks.jobId, jobId), eq(masks.ownerId, ownerId)))
    .orderBy(desc(masks.createdAt))
    .limit(1);
  return row;
}

/** What the job's wire shape joins: images, models, masks and customization group names of a batch of jobs. */
export function presentationParts(db: Db, rows: JobRow[]) {
  const uniq = <T>(xs: T[]) => [...new Set(xs)];
  const ids = rows.map((r) => r.id);
  const cids = uniq(rows.map((r) => r.customizationId).filter((x): x is string => Boolean(x)));
  return Promise.all([
    db
      .select({ id: images.id, orginalFilename: images.orginalFilename, width: images.width, height: images.height })
      .from(images)
      .where(inArray(images.id, uniq(rows.map((r) => r.imageId)))),
    db
      .select()
      .from(computeModels)
      .where(inArray(computeModels.id, uniq(rows.map((r) => r.modelId)))),
    resultsByIds(db, uniq(rows.map((r) => r.resultId).filter((x): x is string => Boolean(x)))),
    db.select().from(masks).where(inArray(masks.jobId, ids)),
    cids.length ? db.select().from(customizationGroups).where(inArray(customizationGroups.id, cids)) : Promise.resolve([]),
  ]);
}

/** Archives the owner's (not deleted, not yet archived) user-visible jobs of these images (image library delete). */
export async function archiveJobsOfImages(db: Db, ownerId: string, imageIds: string[]): Promise<number> {
  const rows = await db
    .update(jobs)
    .set({ archived: true })
    .where(and(inArray(jobs.imageId, imageIds), eq(jobs.ownerId, ownerId), eq(jobs.deleted, false), eq(jobs.archived, false), userVisible))
    .returning({ id: jobs.id });
  return rows.length;
}

/** The user-visible, not deleted jobs of these images, newest first (a project's images and their jobs). */
export function jobsOfImages(db: Db, imageIds: string[]) {
  return db
    .select({ id: jobs.id, imageId: jobs.imageId, modelName: computeModels.displayName, status: jobs.status, createdAt: jobs.createdAt })
    .from(jobs)
    .innerJoin(computeModels, eq(computeModels.id, jobs.modelId))
    .where(and(inArray(jobs.imageId, imageIds), eq(jobs.deleted, false), userVisible))
    .orderBy(desc(jobs.createdAt))
    .limit(1000);
}
