import type { CreateJobsBody, Job, JobError, JobListRow, JobResult, ListJobsQuery, RerunJobsBody } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { CHANNELS, ChangeCache } from '../../platform/db/change-cache.ts';
import type { AuthContext } from '../../platform/auth/session.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { AppError, notFound, validationFailed } from '../../platform/http/errors.ts';
import { listAccessibleModels } from '../catalog/service.ts';
import { deepMerge } from '../compute-models/service.ts';
import { lockJob, refreshJobAggregates, type JobAggregate } from '../admin-jobs/service.ts';
import { dimensions, sidecarKey } from '../images/service.ts';
import { assertNotInMaintenance } from '../settings/service.ts';
import type { JobEvents } from './dispatcher.ts';
import { jobCacheKey } from './cache-key.ts';
import { chargeLicense } from './license.ts';
import type { Language } from '@lamella/i18n';
import { presentJobIds, presentJobs, presentPageOfJobs, presentReadableJob, presentResultSummary } from './present.ts';
import { templatePartFor, type ProjectLookup, type SettingsResolver } from './settings.ts';
import * as repo from './repo.ts';
import { readsAnyJob } from '../../platform/auth/staff.ts';
import { canReadProjectJob } from '../projects/access.ts';
import { maskIsModelSegmentation } from './mask-unchanged.ts';
import { recipeForJobs } from '../recipes/service.ts';

export type { ProjectLookup, SettingsResolver } from './settings.ts';
export type JobRow = repo.JobRow;
export type JobSource = JobRow['source'];
export type Crop = { x: number; y: number; width: number; height: number };

/** What creating jobs needs: the database, the queue's wake-up, and the customization settings of a user. */
export interface JobsDeps {
  db: Db;
  jobEvents: JobEvents;
  resolveSettings: SettingsResolver;
  /** Projects jobs may be added to, with their template (absent: no job can name a project). */
  projects?: ProjectLookup;
  /** Storage, to see which images have a sidecar text (part of the cache key); absent: none is looked for. */
  storage?: Storage;
}

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
  /** A recipe the caller may read (issue 22) and its version (default: current). */
  recipeId?: string | null;
  recipeVersion?: number | null;
}

export { presentJobs };

/**
 * Creates one job per image × model (× version × settings variant), checks the license and inserts the jobs
 * in one transaction; the NEW rows are the queue. Identical input to an earlier finished job of the same
 * owner is answered from its result at once (status CACHED).
 */
export async function createJobs(deps: JobsDeps, auth: AuthContext, input: CreateJobsInput): Promise<JobRow[]> {
  await assertNotInMaintenance(deps.db, input.modelIds, auth.user.language);
  const { db } = deps;
  const imageIds = [...new Set(input.imageIds)];
  const modelIds = [...new Set(input.modelIds)];
  const errors = [];
  if (!imageIds.length) errors.push({ field: 'imageIds', key: 'validation.requiredPlain' });
  if (!modelIds.length) errors.push({ field: 'modelIds', key: 'validation.requiredPlain' });
  if (errors.length) throw validationFailed(errors);
  const user = auth.user;
  const imgs = await repo.ownImages(db, imageIds);
  if (imgs.length !== imageIds.length || imgs.some((i) => i.ownerId !== user.id)) throw notFound('image');
  const accessible = await listAccessibleModels(db, user.id, user.role === 'ADMIN');
  const models = modelIds.map((id) => accessible.find((m) => m.id === id));
  if (models.some((m) => !m)) throw notFound('model');
  const project = input.projectId ? await deps.projects?.(db, user.id, input.projectId) : null;
  if (input.projectId && !project) throw notFound('project');
  // a recipe names the class every chosen model measures (recipes/service.ts checks it)
  const recipe = input.recipeId
    ? await recipeForJobs(
        db,
        user.id,
        input.recipeId,
        input.recipeVersion,
        (models as NonNullable<(typeof models)[number]>[]).map((m) => m.internalName),
      )
    : null;
  let maskSha: string | null = null;
  if (input.maskId) {
    const mask = await repo.ownMask(db, user.id, input.maskId);
    if (!mask) throw notFound('mask');
    maskSha = mask.storageKey;
  }

  const planned: Array<repo.JobInsert & { cacheKey: string }> = [];
  for (const model of models as NonNullable<(typeof models)[number]>[]) {
    const resolved = await deps.resolveSettings(db, user.id, model.id, input.customizationId ?? null);
    const variants = input.settingsVariants?.length ? input.settingsVariants : [{}];
    const versions = input.versions?.length ? input.versions : [null];
    for (const image of imgs) {
      const sidecarOf = deps.storage && (await deps.storage.exists(sidecarKey(image.filename))) ? image.id : null;
      for (const version of versions) {
        for (const variant of variants) {
          // Deep: a variant setting one nested value (segmentation.minScore) keeps the group's other values.
          // The project's settings template comes over the customization, a variant over both.
          const settings = deepMerge(deepMerge(resolved.settings, templatePartFor(project?.templateSettings ?? null, model.internalName)), variant);
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
            recipeId: recipe?.id ?? null,
            recipeVersion: recipe?.version ?? null,
            cacheKey: jobCacheKey({
              imageSha256: image.sha256,
              pixelSizeUm: image.pixelSizeUm,
              model: model.internalName,
              version: modelVersion,
              settings,
              crop: input.crop ?? null,
              maskSha256: maskSha,
              sidecarOf,
              recipe: recipe ? `${recipe.id}@${recipe.version}` : null,
            }),
          });
        }
      }
    }
  }
  if (planned.length > 500) throw new AppError(400, 'TOO_MANY_JOBS', 'errors.validationFailed', { fields: 'imageIds, modelIds' });

  const cached = await repo.cachedResults(db, user.id, [...new Set(planned.map((p) => p.cacheKey))]);
  const cacheMap = new Map<string, string>();
  for (const c of cached) if (c.cacheKey && !cacheMap.has(c.cacheKey)) cacheMap.set(c.cacheKey, c.id);

  const now = new Date();
  let accepted = new Set(imageIds);
  const rows = await db.transaction(async (tx) => {
    // the license may accept fewer images than asked (as many as remain): the others are not run
    accepted = new Set(await chargeLicense(tx as never, user, imageIds));
    return repo.insertJobs(
      tx as never,
      planned
        .filter((p) => accepted.has(p.imageId))
        .map(({ cacheKey, ...p }) => {
          const resultId = cacheMap.get(cacheKey);
          return resultId ? { ...p, status: 'CACHED' as const, resultId, startedAt: now, finishedAt: now, durationMs: 0, waitMs: 0 } : p;
        }),
    );
  });
  // Images analysed in a project belong to it (an upload straight into a project, a library image run there).
  await project?.addImages(imgs.map((i) => i.id).filter((id) => accepted.has(id)));
  deps.jobEvents.created(rows);
  return rows;
}

/** Runs jobs again (optionally with a crop box or the job's latest user mask); returns the new jobs. */
export async function rerunJobs(deps: JobsDeps, auth: AuthContext, body: RerunJobsBody): Promise<JobRow[]> {
  if (body.withCrop && typeof body.withCrop === 'object' && body.withUserMasks) {
    throw validationFailed([{ field: 'withUserMasks', key: 'errors.cropOrMasks' }]);
  }
  const own = await repo.ownJobs(deps.db, auth.user.id, body.jobsIds);
  if (own.length !== new Set(body.jobsIds).size) throw notFound('job');
  const created: JobRow[] = [];
  for (const job of own) {
    let crop: Crop | null = null;
    if (body.withCrop && typeof body.withCrop === 'object') {
      const image = await dimensions(deps.db, job.imageId);
      crop = clampCrop(body.withCrop, image?.width ?? 1, image?.height ?? 1);
    }
    let maskId: string | null = null;
    if (body.withUserMasks) {
      const mask = await repo.latestMaskOfJob(deps.db, auth.user.id, job.id);
      if (!mask) throw new AppError(400, 'NO_MASK', 'errors.noMask', {}, [{ field: 'withUserMasks', key: 'errors.noMask' }]);
      // the model's own segmentation, unchanged, is no correction: the model segments (exactly its numbers, issue 24 item 3)
      maskId = deps.storage && (await maskIsModelSegmentation(deps.db, deps.storage, job.resultId, mask.storageKey)) ? null : mask.id;
    }
    created.push(
      ...(await createJobs(deps, auth, {
        imageIds: [job.imageId],
        modelIds: [body.modelId ?? job.modelId],
        projectId: job.projectId,
        source: job.source === 'SANDBOX' ? 'SANDBOX' : auth.via === 'key' ? 'API' : 'WEB',
        crop,
        maskId,
        parentJobId: job.id,
        // the same recipe version: a rerun is reproducible
        recipeId: job.recipeId,
        recipeVersion: job.recipeVersion,
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

/** POST /jobs: the web app's and API's start of jobs. */
export async function startJobs(deps: JobsDeps, auth: AuthContext, body: CreateJobsBody, lng?: Language): Promise<Job[]> {
  return presentJobs(deps.db, await createJobs(deps, auth, { ...body, source: auth.via === 'key' ? 'API' : 'WEB' }), lng);
}

export async function rerun(deps: JobsDeps, auth: AuthContext, body: RerunJobsBody, lng?: Language): Promise<Job[]> {
  return presentJobs(deps.db, await rerunJobs(deps, auth, body), lng);
}

const DAY_MS = 24 * 60 * 60 * 1000;
const utcDay = (s: string) => new Date(`${s}T00:00:00.000Z`);

/** One page of the user's jobs and the paging headers' values. */
export async function listJobs(
  db: Db,
  userId: string,
  q: ListJobsQuery,
  lng?: Language,
): Promise<{ jobs: JobListRow[]; total: number; pageSize: number }> {
  const pageSize = q.pageSize ?? 10;
  // History filters: days inclusive (UTC), `to` before `from` is refused; the name is matched as typed, trimmed
  const from = q.from ? utcDay(q.from) : undefined;
  const to = q.to ? new Date(utcDay(q.to).getTime() + DAY_MS) : undefined;
  if (from && to && from >= to) throw validationFailed([{ field: 'to', key: 'library.errors.dateRange' }]);
  const { jobs, total } = await presentPageOfJobs(
    db,
    {
      ownerId: userId,
      archived: q.archived ?? false,
      modelId: q.modelId,
      status: q.status,
      from,
      to,
      name: q.name?.trim() || undefined,
      sortBy: q.sortBy ?? 'createdAt',
      sortOrder: q.sortOrder ?? 'desc',
      page: q.page ?? 1,
      pageSize,
    },
    lng,
  );
  return { jobs, total, pageSize };
}

/** A page of the job list as answered: the serialised body and its paging headers. */
export interface JobsPageAnswer {
  body: string;
  total: number;
  pageSize: number;
}

/**
 * The job lists answered, per (user, query, language), under the user's id: dropped when any of the user's jobs or
 * what their wire shape shows changes (migration 0018 NOTIFYs `lamella_jobs`; this server's writes and job events
 * empty it at once: app.ts). The usual poll of an unchanged list then reads nothing from the database.
 */
export const jobListCache = (ttlSeconds: number) =>
  new ChangeCache<JobsPageAnswer>({ channels: [CHANNELS.jobs], ttlSeconds, maxSize: 64 * 1024 * 1024, sizeOf: (a) => a.body.length });

/** A page of the user's jobs serialised by `serialize` (the route's schema), from `cache` while nothing changed. */
export async function listJobsAnswer(
  db: Db,
  cache: ChangeCache<JobsPageAnswer> | null,
  userId: string,
  q: ListJobsQuery,
  lng: Language | undefined,
  serialize: (jobs: JobListRow[]) => string,
): Promise<JobsPageAnswer> {
  const key = `${userId}\u0000${lng ?? ''}\u0000${JSON.stringify(q)}`;
  const kept = cache?.get(key);
  if (kept) return kept;
  if (!cache) return readPage(db, null, key, userId, q, lng, serialize);
  // Single flight: while one request reads this page, the others asking for it wait for its answer instead of
  // each going to the database (an expired entry under many polls; issue 30). Keyed by the cache's generation too,
  // so a request after an invalidation never joins a read that began before it.
  const flightKey = `${cache.begin()}\u0000${key}`;
  let reads = inFlight.get(cache);
  if (!reads) inFlight.set(cache, (reads = new Map()));
  let flight = reads.get(flightKey);
  if (!flight) {
    const own = reads;
    flight = readPage(db, cache, key, userId, q, lng, serialize).finally(() => own.delete(flightKey));
    reads.set(flightKey, flight);
  }
  return flight;
}

/** The page reads under way per cache, by generation and key (listJobsAnswer's single flight). */
const inFlight = new WeakMap<ChangeCache<JobsPageAnswer>, Map<string, Promise<JobsPageAnswer>>>();

async function readPage(
  db: Db,
  cache: ChangeCache<JobsPageAnswer> | null,
  key: string,
  userId: string,
  q: ListJobsQuery,
  lng: Language | undefined,
  serialize: (jobs: JobListRow[]) => string,
): Promise<JobsPageAnswer> {
  const startedAt = cache?.begin() ?? 0;
  const page = await listJobs(db, userId, q, lng);
  const answer = { body: serialize(page.jobs), total: page.total, pageSize: page.pageSize };
  cache?.set(key, userId, answer, startedAt);
  return answer;
}

/**
 * Another user's live job that the caller may read as a member of the project it was started in (issue 24:
 * members review the project's jobs read-only); undefined otherwise.
 */
async function projectMemberJob(db: Db, userId: string, id: string): Promise<JobRow | undefined> {
  const job = await repo.findJob(db, id);
  if (!job || job.deleted || job.source === 'SANDBOX' || job.source === 'IDENTIFICATION') return undefined;
  return (await canReadProjectJob(db, userId, job)) ? job : undefined;
}

/** A job the caller may read: their own (not deleted), any for ADMIN, or one of a project they are a member of. */
async function readableJob(db: Db, auth: AuthContext, id: string): Promise<JobRow> {
  const job =
    auth.user.role === 'ADMIN'
      ? await repo.findJob(db, id)
      : ((await repo.findOwnJob(db, auth.user.id, id)) ?? (await projectMemberJob(db, auth.user.id, id)));
  if (!job) throw notFound('job');
  return job;
}

/**
 * A job the caller may read (their own, not deleted, or any for ADMIN), presented in one statement; else one of a
 * project the caller is a member of (read-only: writes to jobs stay with their owner).
 */
export async function getJob(db: Db, auth: AuthContext, id: string, lng?: Language): Promise<Job> {
  const job = await presentReadableJob(db, id, { userId: auth.user.id, anyOwner: readsAnyJob(auth) }, lng);
  if (job) return job;
  if (auth.user.role !== 'ADMIN' && (await projectMemberJob(db, auth.user.id, id))) {
    const [shared] = await presentJobIds(db, [id], { lng, skipDeleted: true });
    if (shared) return shared;
  }
  throw notFound('job');
}

export async function getJobError(db: Db, auth: AuthContext, id: string): Promise<JobError> {
  const job = await readableJob(db, auth, id);
  return { error: job.status === 'FAILED' ? job.error : null };
}

async function readableResult(db: Db, auth: AuthContext, resultId: string): Promise<repo.ResultRow> {
  const result = await repo.readableResult(db, resultId, { userId: auth.user.id, anyOwner: readsAnyJob(auth) });
  if (result) return result;
  // a member of a project reads the results of the project's jobs (overlays, tables)
  for (const job of await repo.liveJobsOfResult(db, resultId)) {
    if (await canReadProjectJob(db, auth.user.id, job)) {
      const shared = await repo.readableResult(db, resultId, { userId: auth.user.id, anyOwner: true });
      if (shared) return shared;
    }
  }
  throw notFound('result');
}

export async function getResult(db: Db, auth: AuthContext, resultId: string, lng?: Language): Promise<JobResult> {
  const r = await readableResult(db, auth, resultId);
  return { ...presentResultSummary(r, lng), files: Object.keys(r.files) };
}

const fileTypes: Array<[string, string]> = [
  ['.png', 'image/png'],
  ['.json', 'application/json'],
  ['.csv', 'text/csv'],
];

/**
 * A result file by name. The name is looked up among the result's OWN keys (Object.hasOwn): `constructor`,
 * `__proto__` and other inherited names are unknown files (404), never a prototype member.
 */
export async function resultFile(
  db: Db,
  storage: Storage,
  auth: AuthContext,
  resultId: string,
  filename: string,
): Promise<{ stream: ReturnType<Storage['stream']>; type: string }> {
  const r = await readableResult(db, auth, resultId);
  const key = Object.hasOwn(r.files, filename) ? r.files[filename] : undefined;
  if (typeof key !== 'string') throw notFound('file');
  const type = fileTypes.find(([ext]) => filename.endsWith(ext))?.[1] ?? 'application/octet-stream';
  return { stream: storage.stream(key), type };
}

export async function setArchived(db: Db, auth: AuthContext, ids: string[], archived: boolean): Promise<number> {
  const changed = await repo.updateOwnJobs(db, auth.user.id, ids, { archived });
  if (changed.length !== new Set(ids).size) throw notFound('job');
  return changed.length;
}

/** Users delete jobs softly (the admin jobs list can still show them with the Deleted filter). */
export async function deleteJobs(db: Db, auth: AuthContext, ids: string[]): Promise<number> {
  const changed = await repo.updateOwnJobs(db, auth.user.id, ids, { deleted: true });
  if (changed.length !== new Set(ids).size) throw notFound('job');
  return changed.length;
}

/** The caller's own job (not deleted), for other domains (feedback, masks). */
export function findOwnJob(db: Db, ownerId: string, id: string): Promise<JobRow | undefined> {
  return repo.findOwnJob(db, ownerId, id);
}

/**
 * Writes a child row of a job (rating, mask…) under the job's row lock and recomputes the job's aggregates
 * in the same transaction; answers undefined when the job is gone.
 */
export async function writeUnderJobLock<T>(db: Db, jobId: string, aggregates: JobAggregate[], write: (tx: Db) => Promise<T>): Promise<T | undefined> {
  return db.transaction(async (tx) => {
    if (!(await lockJob(tx as never, jobId))) return undefined;
    const out = await write(tx as never);
    await refreshJobAggregates(tx as never, jobId, aggregates);
    return out;
  });
}

/** Archives the owner's jobs of images that are being deleted (image library); answers how many. */
export function archiveJobsOfImages(db: Db, ownerId: string, imageIds: string[]): Promise<number> {
  return imageIds.length ? repo.archiveJobsOfImages(db, ownerId, imageIds) : Promise.resolve(0);
}

/**
 * Jobs by id in the wire shape, for a domain that has checked the caller's access itself (a project's specimen
 * report: members read the jobs of the project's images). Unknown and deleted ids are left out.
 */
export function presentJobsByIds(db: Db, ids: string[]): Promise<Job[]> {
  return presentJobIds(db, ids, { skipDeleted: true });
}

/** The jobs started in a project on these images, newest first, presented (the project checked the caller's access). */
export async function presentProjectJobs(db: Db, projectId: string, imageIds: string[], lng?: Language): Promise<Job[]> {
  return presentJobIds(db, await repo.projectJobIds(db, projectId, imageIds), { lng, skipDeleted: true });
}
