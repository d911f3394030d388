import { and, eq, inArray, desc, isNotNull, or } from 'drizzle-orm';
import type { Ctx } from '../../app.ts';
import type { AuthContext } from '../../platform/auth/session.ts';
import { AppError, notFound, validationFailed } from '../../platform/http/errors.ts';
import { images, jobs, masks, projectShares, projects, results } from '../../platform/db/schema/index.ts';
import { listAccessibleModels } from '../catalog/repo.ts';
import { deepMerge } from '../admin/settings-schema.ts';
import { jobCacheKey } from './cache-key.ts';
import { chargeLicense } from './license.ts';
import type { JobRow } from './present.ts';

export type JobSource = JobRow['source'];
export type Crop = { x: number; y: number; width: number; height: number };

export interface CreateJobsInput {
  imageIds: string[];
  modelIds: string[];
  projectId?: string | null;
  source: JobSource;
  crop?: Crop | null;
  maskId?: string | null;
  parentJobId?: string | null;
  /** Explicit model versions (sandbox versions compare); otherwise the settings' or the model's current. */
  versions?: string[] | null;
  /** Settings variants (params identification); each runs as its own job. */
  settingsVariants?: Array<Record<string, unknown>> | null;
  customizationId?: string | null;
}

/**
 * Resolves the customization settings a user's jobs of a model run with (customization groups, issue 5);
 * `customizationId` asks for that group (the admin sandbox) when it belongs to the model. Wired by
 * modules/admin/customizations.ts.
 */
export type SettingsResolver = (
  db: Ctx['db'],
  userId: string,
  modelId: string,
  customizationId?: string | null,
) => Promise<{ customizationId: string | null; settings: Record<string, unknown> }>;
let resolver: SettingsResolver = async () => ({ customizationId: null, settings: {} });
export function setSettingsResolver(fn: SettingsResolver): void {
  resolver = fn;
}

/**
 * Creates one job per image × model (× version × settings variant), checks the license and inserts the jobs
 * in one transaction; the NEW rows are the queue. Identical input to an earlier finished job is answered from
 * its result at once (status CACHED).
 */
export async function createJobs(ctx: Ctx, auth: AuthContext, input: CreateJobsInput): Promise<JobRow[]> {
  const imageIds = [...new Set(input.imageIds)];
  const modelIds = [...new Set(input.modelIds)];
  const errors = [];
  if (!imageIds.length) errors.push({ field: 'imageIds', key: 'validation.requiredPlain' });
  if (!modelIds.length) errors.push({ field: 'modelIds', key: 'validation.requiredPlain' });
  if (errors.length) throw validationFailed(errors);
  const user = auth.user;
  const imgs = await ctx.db
    .select()
    .from(images)
    .where(and(inArray(images.id, imageIds), eq(images.isDeleted, false)));
  if (imgs.length !== imageIds.length || imgs.some((i) => i.ownerId !== user.id)) throw notFound('image');
  const accessible = await listAccessibleModels(ctx.db, user.id, user.role === 'ADMIN');
  const models = modelIds.map((id) => accessible.find((m) => m.id === id));
  if (models.some((m) => !m)) throw notFound('model');
  if (input.projectId) {
    const [project] = await ctx.db
      .select({ id: projects.id })
      .from(projects)
      .leftJoin(projectShares, and(eq(projectShares.projectId, projects.id), eq(projectShares.userId, user.id), eq(projectShares.role, 'EDITOR')))
      .where(and(eq(projects.id, input.projectId), or(eq(projects.ownerId, user.id), isNotNull(projectShares.userId))));
    if (!project) throw notFound('project');
  }
  let maskSha: string | null = null;
  if (input.maskId) {
    const [mask] = await ctx.db
      .select()
      .from(masks)
      .where(and(eq(masks.id, input.maskId), eq(masks.ownerId, user.id)));
    if (!mask) throw notFound('mask');
    maskSha = mask.storageKey;
  }

  const planned: Array<typeof jobs.$inferInsert & { cacheKey: string }> = [];
  for (const model of models as NonNullable<(typeof models)[number]>[]) {
    const resolved = await resolver(ctx.db, user.id, model.id, input.customizationId ?? null);
    const variants = input.settingsVariants?.length ? input.settingsVariants : [{}];
    const versions = input.versions?.length ? input.versions : [null];
    for (const image of imgs) {
      for (const version of versions) {
        for (const variant of variants) {
          // Deep: a variant setting one nested value (segmentation.minScore) keeps the group's other values.
          const settings = deepMerge(resolved.settings, variant);
          const modelVersion = version ?? (typeof settings.modelVersion === 'string' ? settings.modelVersion : model.version);
          planned.push({
            ownerId: user.id,
            imageId: image.id,
            modelId: model.id,
            modelVersion,
            projectId: input.projectId ?? null,
            source: input.source,
            settings,
            customizationId: resolved.customizationId,
            crop: input.crop ?? null,
            maskId: input.maskId ?? null,
            parentJobId: input.parentJobId ?? null,
            cacheKey: jobCacheKey({
              imageSha256: image.sha256,
              model: model.internalName,
              version: modelVersion,
              settings,
              crop: input.crop ?? null,
              maskSha256: maskSha,
            }),
          });
        }
      }
    }
  }
  if (planned.length > 500) throw new AppError(400, 'TOO_MANY_JOBS', 'errors.validationFailed', { fields: 'imageIds, modelIds' });

  const keys = [...new Set(planned.map((p) => p.cacheKey))];
  const cached = await ctx.db
    .select({ id: results.id, cacheKey: results.cacheKey })
    .from(results)
    .where(and(inArray(results.cacheKey, keys), isNotNull(results.cacheKey)))
    .orderBy(desc(results.createdAt));
  const cacheMap = new Map<string, string>();
  for (const c of cached) if (c.cacheKey && !cacheMap.has(c.cacheKey)) cacheMap.set(c.cacheKey, c.id);

  const now = new Date();
  const rows = await ctx.db.transaction(async (tx) => {
    await chargeLicense(
      tx as never,
      user,
      imgs.map((i) => i.id),
    );
    return tx
      .insert(jobs)
      .values(
        planned.map(({ cacheKey, ...p }) => {
          const resultId = cacheMap.get(cacheKey);
          return resultId ? { ...p, status: 'CACHED' as const, resultId, startedAt: now, finishedAt: now, durationMs: 0, waitMs: 0 } : p;
        }),
      )
      .returning();
  });
  ctx.jobEvents.created(rows);
  return rows;
}

/** Runs jobs again (optionally with a crop box or the job's latest user mask); returns the new jobs. */
export async function rerunJobs(
  ctx: Ctx,
  auth: AuthContext,
  body: { jobsIds: string[]; withCrop?: Crop | boolean | null; withUserMasks?: boolean; modelId?: string },
): Promise<JobRow[]> {
  if (body.withCrop && typeof body.withCrop === 'object' && body.withUserMasks) {
    throw validationFailed([{ field: 'withUserMasks', key: 'errors.cropOrMasks' }]);
  }
  const own = await ctx.db
    .select()
    .from(jobs)
    .where(and(inArray(jobs.id, body.jobsIds), eq(jobs.ownerId, auth.user.id), eq(jobs.deleted, false)));
  if (own.length !== new Set(body.jobsIds).size) throw notFound('job');
  const created: JobRow[] = [];
  for (const job of own) {
    let crop: Crop | null = null;
    if (body.withCrop && typeof body.withCrop === 'object') {
      const [image] = await ctx.db.select().from(images).where(eq(images.id, job.imageId));
      crop = clampCrop(body.withCrop, image.width, image.height);
    }
    let maskId: string | null = null;
    if (body.withUserMasks) {
      const [mask] = await ctx.db
        .select()
        .from(masks)
        .where(and(eq(masks.jobId, job.id), eq(masks.ownerId, auth.user.id)))
        .orderBy(desc(masks.createdAt))
        .limit(1);
      if (!mask) throw new AppError(400, 'NO_MASK', 'errors.noMask', {}, [{ field: 'withUserMasks', key: 'errors.noMask' }]);
      maskId = mask.id;
    }
    created.push(
      ...(await createJobs(ctx, auth, {
        imageIds: [job.imageId],
        modelIds: [body.modelId ?? job.modelId],
        projectId: job.projectId,
        source: job.source === 'SANDBOX' ? 'SANDBOX' : auth.via === 'key' ? 'API' : 'WEB',
        crop,
        maskId,
        parentJobId: job.id,
      })),
    );
  }
  return created;
}

/** A crop box in natural pixels, clamped inside the image, at least 1×1. */
export function clampCrop(c: Crop, width: number, height: number): Crop {
  const x = Math.max(0, Math.min(Math.round(c.x), width - 1));
  const y = Math.max(0, Math.min(Math.round(c.y), height - 1));
  return { x, y, width: Math.max(1, Math.min(Math.round(c.width), width - x)), height: Math.max(1, Math.min(Math.round(c.height), height - y)) };
}

export async function setArchived(ctx: Ctx, auth: AuthContext, ids: string[], archived: boolean): Promise<number> {
  const rows = await ctx.db
    .update(jobs)
    .set({ archived })
    .where(and(inArray(jobs.id, ids), eq(jobs.ownerId, auth.user.id), eq(jobs.deleted, false)))
    .returning({ id: jobs.id });
  if (rows.length !== new Set(ids).size) throw notFound('job');
  return rows.length;
}

/** Users delete jobs softly (the admin jobs list can still show them with the Deleted filter). */
export async function deleteJobs(ctx: Ctx, auth: AuthContext, ids: string[]): Promise<number> {
  const rows = await ctx.db
    .update(jobs)
    .set({ deleted: true })
    .where(and(inArray(jobs.id, ids), eq(jobs.ownerId, auth.user.id), eq(jobs.deleted, false)))
    .returning({ id: jobs.id });
  if (rows.length !== new Set(ids).size) throw notFound('job');
  return rows.length;
}
