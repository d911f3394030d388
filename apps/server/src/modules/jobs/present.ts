import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { computeModels, customizationGroups, images, jobs, masks, results, userFeedback } from '../../platform/db/schema/index.ts';

export type JobRow = typeof jobs.$inferSelect;

const versionNumber = (v: string) => Number(v.replace(/\D/g, '')) || 0;

/** A model version older than the model's current one makes the job Outdated. */
export const isOutdated = (jobVersion: string, currentVersion: string) => versionNumber(jobVersion) < versionNumber(currentVersion);

/** The wire shape of user-app.md §3 "Job", for a batch of job rows (one query per joined table). */
export async function presentJobs(db: Db, rows: JobRow[], opts: { withResults?: boolean } = {}) {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const uniq = <T>(xs: T[]) => [...new Set(xs)];
  const [imgs, models, res, feedback, maskRows, customs] = await Promise.all([
    db
      .select({ id: images.id, orginalFilename: images.orginalFilename, width: images.width, height: images.height })
      .from(images)
      .where(inArray(images.id, uniq(rows.map((r) => r.imageId)))),
    db
      .select()
      .from(computeModels)
      .where(inArray(computeModels.id, uniq(rows.map((r) => r.modelId)))),
    opts.withResults === false
      ? Promise.resolve([])
      : (() => {
          const rids = uniq(rows.map((r) => r.resultId).filter((x): x is string => Boolean(x)));
          return rids.length ? db.select().from(results).where(inArray(results.id, rids)) : Promise.resolve([]);
        })(),
    db.select().from(userFeedback).where(inArray(userFeedback.jobId, ids)),
    db.select().from(masks).where(inArray(masks.jobId, ids)),
    (() => {
      const cids = uniq(rows.map((r) => r.customizationId).filter((x): x is string => Boolean(x)));
      return cids.length ? db.select().from(customizationGroups).where(inArray(customizationGroups.id, cids)) : Promise.resolve([]);
    })(),
  ]);
  const byId = <T extends { id: string }>(xs: T[]) => new Map(xs.map((x) => [x.id, x]));
  const imgMap = byId(imgs);
  const modelMap = byId(models);
  const resMap = byId(res);
  const customMap = byId(customs);
  return rows.map((j) => {
    const model = modelMap.get(j.modelId)!;
    const result = j.resultId ? resMap.get(j.resultId) : undefined;
    const fb = feedback.find((f) => f.jobId === j.id && f.userId === j.ownerId);
    const custom = j.customizationId ? customMap.get(j.customizationId) : undefined;
    const jobMasks = maskRows.filter((m) => m.jobId === j.id);
    return {
      id: j.id,
      status: j.status,
      source: j.source,
      imageId: j.imageId,
      image: imgMap.get(j.imageId) ?? { id: j.imageId, orginalFilename: '', width: 0, height: 0 },
      modelId: j.modelId,
      model: { id: model.id, name: model.internalName, displayName: model.displayName },
      modelVersion: j.modelVersion,
      createdAt: j.createdAt.toISOString(),
      startedAt: j.startedAt?.toISOString() ?? null,
      finishedAt: j.finishedAt?.toISOString() ?? null,
      progress: j.progress,
      resultId: j.resultId,
      result: result ? { id: result.id, results: result.items, feedback: result.feedback, measurements: result.measurements } : null,
      userFeedback: fb ? { rating: fb.rating, comment: fb.comment } : null,
      masks: jobMasks.map((m) => ({ id: m.id, label: m.label, filename: m.filename, parentId: m.parentId, isSubmitted: m.isSubmitted })),
      withMasks: Boolean(j.maskId),
      crop: j.crop ?? null,
      outdated: isOutdated(j.modelVersion, model.version),
      archived: j.archived,
      customization: custom
        ? { config: j.settings, template: { nameEn: custom.nameEn, nameDe: custom.nameDe } }
        : j.source === 'IDENTIFICATION'
          ? { config: j.settings, template: null }
          : null,
      failed: j.status === 'FAILED',
    };
  });
}

export async function findOwnJob(db: Db, ownerId: string, id: string): Promise<JobRow | undefined> {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.id, id), eq(jobs.ownerId, ownerId), eq(jobs.deleted, false)))
    .limit(1);
  return row;
}
