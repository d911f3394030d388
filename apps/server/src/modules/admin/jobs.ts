import { Readable } from 'node:stream';
import { and, asc, desc, eq } from 'drizzle-orm';
import { Type } from 'typebox';
import type { App, Ctx } from '../../app.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { forbidden, notFound } from '../../platform/http/errors.ts';
import {
  adminFeedback,
  computeModels,
  executors,
  images,
  jobs,
  masks,
  nodes,
  projects,
  results,
  userFeedback,
  users,
} from '../../platform/db/schema/index.ts';
import { FieldErrors, JOB_READ, isUuid, message } from './common.ts';
import {
  SORTS,
  jobBatches,
  jobCursor,
  jobsByIds,
  listJobs,
  lockJob,
  masksOfJobs,
  parseFilters,
  refreshJobAggregates,
  type JobListRow,
} from './jobs-repo.ts';

const tags = ['admin-jobs'];
const Id = Type.Object({ id: Type.String({ format: 'uuid' }) });
const MAX_PAGE_SIZE = 1000;

const iso = (v: string | Date | null | undefined): string | null => (v === null || v === undefined ? null : new Date(v).toISOString());
const num = (v: string | number | null | undefined): number | null => (v === null || v === undefined ? null : Number(v));

/** A row of the jobs table (back-office §2 "Jobs list" columns). Durations are milliseconds. */
export function presentRow(r: JobListRow) {
  const adminMean = num(r.admin_mean);
  return {
    id: r.id,
    createdAt: iso(r.created_at),
    startedAt: iso(r.started_at),
    finishedAt: iso(r.finished_at),
    status: r.status,
    source: r.source,
    modelVersion: r.model_version,
    model: { id: r.model_id, name: r.model_name, displayName: r.model_display_name },
    owner: { id: r.owner_id, name: r.owner_name, surname: r.owner_surname, email: r.owner_email, company: r.company },
    company: r.company,
    project: r.project_id ? { id: r.project_id, name: r.project_name } : null,
    image: { id: r.image_id, orginalFilename: r.image_original, filename: r.image_filename },
    userRating: r.user_rating,
    userFeedback: r.user_rating === null ? null : { rating: r.user_rating, comment: r.user_comment },
    adminRating: { mean: adminMean === null ? null : Math.round(adminMean * 100) / 100, count: Number(r.admin_count) },
    durationMs: num(r.duration_ms),
    waitMs: num(r.wait_ms),
    deleted: r.deleted,
    archived: r.archived,
    submittedMasks: Number(r.submitted_masks),
    masksCount: Number(r.masks_count),
  };
}

/** CSV cell: quoted when needed; text that a spreadsheet would run as a formula gets a leading apostrophe. */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  let s = v instanceof Date ? v.toISOString() : String(v);
  if (typeof v === 'string' && /^[=+@\t\r]|^-[^0-9]/.test(s)) s = `'${s}`;
  return /[",\r\n;]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
const line = (cells: unknown[]) => cells.map(csvCell).join(',') + '\r\n';
const secs = (ms: number | null) => (ms === null ? null : (ms / 1000).toFixed(1));

const REPORT_HEADER = [
  'Job ID',
  'Job Date',
  'Owner',
  'Owner e-mail',
  'Company',
  'User Rating',
  'Admin Rating',
  'Admin Votes',
  'Duration (s)',
  'Wait Time (s)',
  'Status',
  'Source',
  'Model',
  'Model Version',
  'Project',
  'Image',
  'Deleted',
  'Submitted Masks',
];
const MASKS_HEADER = [
  'Job ID',
  'Job Date',
  'Model',
  'Model Version',
  'Owner e-mail',
  'Company',
  'Image',
  'Mask ID',
  'Label',
  'Filename',
  'Edited From',
  'Submitted',
  'Mask Created At',
];

const ListQuery = Type.Object({
  sortKey: Type.Optional(Type.String({ maxLength: 40 })),
  sortOrder: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE })),
  columns: Type.Optional(Type.Unknown()),
  startDate: Type.Optional(Type.String()),
  endDate: Type.Optional(Type.String()),
  modelId: Type.Optional(Type.String()),
  userId: Type.Optional(Type.String()),
  deleted: Type.Optional(Type.String()),
  company: Type.Optional(Type.String()),
  withUserFeedback: Type.Optional(Type.String()),
  withAdminFeedback: Type.Optional(Type.String()),
  withSubmittedMasks: Type.Optional(Type.String()),
  status: Type.Optional(Type.String()),
  source: Type.Optional(Type.String()),
});

/** Jobs pages (back-office §2 Jobs list and Job detail, §7 Jobs): ADMIN, or POWER_USER holding JOB.READ. */
export async function jobRoutes(app: App, ctx: Ctx): Promise<void> {
  const db = ctx.db;

  // `page` is 1-based (default 1); `columns` is accepted and ignored: every column is in every row (cheap).
  // Default order: Job Date, newest first. Unknown sort keys fall back to Job Date.
  app.get('/admin/jobs', { config: JOB_READ, schema: { tags, querystring: ListQuery } }, async (request) => {
    const q = request.query;
    const filters = parseFilters(q as Record<string, unknown>);
    const page = q.page ?? 1;
    const sortKey = q.sortKey && SORTS[q.sortKey] ? q.sortKey : 'createdAt';
    const { data, hasNextPage } = await listJobs(db, filters, sortKey, q.sortOrder ?? 'desc', page, q.pageSize ?? 100);
    return { data: data.map(presentRow), page, hasNextPage };
  });

  // Both reports stream in constant memory, newest first: on PostgreSQL through a server-side cursor over one
  // set-based query (500 rows per FETCH: smaller transient strings keep the peak under 300 MB with compression on); on the embedded PGlite by keyset batches of 5,000 jobs.
  const batchesOf = (filters: ReturnType<typeof parseFilters>, onlyWithMasks = false) =>
    ctx.database.kind === 'postgres' ? jobCursor(db, filters, { onlyWithMasks }) : jobBatches(db, filters);
  app.get('/admin/jobs/report', { config: JOB_READ, schema: { tags, querystring: ListQuery } }, async (request, reply) => {
    const filters = parseFilters(request.query as Record<string, unknown>);
    async function* csv() {
      yield '\uFEFF' + line(REPORT_HEADER);
      for await (const batch of batchesOf(filters)) {
        let chunk = '';
        for (const raw of batch) {
          const r = presentRow(raw);
          chunk += line([
            r.id,
            r.createdAt,
            [r.owner.name, r.owner.surname].filter(Boolean).join(' '),
            r.owner.email,
            r.company,
            r.userRating,
            r.adminRating.mean,
            r.adminRating.count,
            secs(r.durationMs),
            secs(r.waitMs),
            r.status,
            r.source,
            r.model.displayName,
            r.modelVersion,
            r.project?.name,
            r.image.orginalFilename,
            r.deleted,
            r.submittedMasks,
          ]);
        }
        yield chunk;
      }
    }
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="jobs-${new Date().toISOString().slice(0, 10)}.csv"`);
    return reply.send(Readable.from(csv()));
  });

  app.get('/admin/jobs/masks-report', { config: JOB_READ, schema: { tags, querystring: ListQuery } }, async (request, reply) => {
    const filters = parseFilters(request.query as Record<string, unknown>);
    async function* csv() {
      yield '\uFEFF' + line(MASKS_HEADER);
      for await (const batch of batchesOf(filters, true)) {
        const withMasks = batch.filter((r) => Number(r.masks_count) > 0);
        const list = await masksOfJobs(
          db,
          withMasks.map((r) => r.id),
        );
        const byJob = new Map(withMasks.map((r) => [r.id, presentRow(r)]));
        let chunk = '';
        for (const k of list) {
          const r = byJob.get(k.job_id)!;
          chunk += line([
            r.id,
            r.createdAt,
            r.model.displayName,
            r.modelVersion,
            r.owner.email,
            r.company,
            r.image.orginalFilename,
            k.id,
            k.label,
            k.filename,
            k.parent_id,
            k.is_submitted,
            iso(k.created_at),
          ]);
        }
        if (chunk) yield chunk;
      }
    }
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="masks-${new Date().toISOString().slice(0, 10)}.csv"`);
    return reply.send(Readable.from(csv()));
  });

  app.get('/admin/jobs/:id', { config: JOB_READ, schema: { tags, params: Id } }, async (request) => {
    const [row] = await jobsByIds(db, [request.params.id]);
    if (!row) throw notFound('job');
    const [j] = await db
      .select({
        job: jobs,
        image: images,
        executor: { id: executors.id, port: executors.port, version: executors.version },
        nodeName: nodes.name,
        nodeId: nodes.id,
        model: computeModels,
      })
      .from(jobs)
      .innerJoin(images, eq(images.id, jobs.imageId))
      .innerJoin(computeModels, eq(computeModels.id, jobs.modelId))
      .leftJoin(executors, eq(executors.id, jobs.executorId))
      .leftJoin(nodes, eq(nodes.id, executors.nodeId))
      .where(eq(jobs.id, request.params.id));
    const [result] = j.job.resultId ? await db.select().from(results).where(eq(results.id, j.job.resultId)) : [];
    const maskRows = await db.select().from(masks).where(eq(masks.jobId, j.job.id)).orderBy(asc(masks.createdAt));
    const [uf] = await db.select().from(userFeedback).where(eq(userFeedback.jobId, j.job.id)).orderBy(desc(userFeedback.createdAt)).limit(1);
    const afs = await db
      .select({ f: adminFeedback, name: users.name, surname: users.surname })
      .from(adminFeedback)
      .leftJoin(users, eq(users.id, adminFeedback.userId))
      .where(eq(adminFeedback.jobId, j.job.id))
      .orderBy(asc(adminFeedback.createdAt));
    const [project] = j.job.projectId
      ? await db.select({ id: projects.id, name: projects.name }).from(projects).where(eq(projects.id, j.job.projectId))
      : [];
    const startedAt = j.job.startedAt;
    const finishedAt = j.job.finishedAt;
    const presentMask = (m: typeof masks.$inferSelect) => ({
      id: m.id,
      label: m.label,
      filename: m.filename,
      isSubmitted: m.isSubmitted,
      parentId: m.parentId,
      createdAt: m.createdAt.toISOString(),
    });
    return {
      ...presentRow(row),
      model: { id: j.model.id, name: j.model.internalName, displayName: j.model.displayName, currentVersion: j.model.version },
      isOutdated: j.job.modelVersion !== j.model.version,
      // "Compute on" (node name) and "Launcher ID" (copy button).
      executor: j.executor?.id
        ? {
            id: j.executor.id,
            port: j.executor.port,
            version: j.executor.version,
            nodeId: j.nodeId,
            nodeName: j.nodeName,
            node: { name: j.nodeName },
          }
        : null,
      computeOn: j.nodeName ?? null,
      launcherId: j.executor?.id ?? null,
      // "Started at (with delay in seconds)", "Finished at (with duration in seconds)".
      startDelaySeconds: startedAt ? Math.round((startedAt.getTime() - j.job.createdAt.getTime()) / 100) / 10 : null,
      durationSeconds: startedAt && finishedAt ? Math.round((finishedAt.getTime() - startedAt.getTime()) / 100) / 10 : null,
      image: {
        id: j.image.id,
        orginalFilename: j.image.orginalFilename,
        filename: j.image.filename,
        width: j.image.width,
        height: j.image.height,
        format: j.image.format,
        size: j.image.size,
        meta: { width: j.image.width, height: j.image.height, format: j.image.format },
        allowedTrainingUse: j.image.allowedTrainingUse,
        isDeleted: j.image.isDeleted,
      },
      // Errors are shown only for FAILED jobs (§4).
      error: j.job.status === 'FAILED' ? j.job.error : null,
      settings: j.job.settings,
      customizationId: j.job.customizationId,
      crop: j.job.crop,
      result: result ? { id: result.id, items: result.items, measurements: result.measurements, files: Object.keys(result.files) } : null,
      // "Masks" are the job's masks; "Edited masks" the ones edited from another mask (parentId set).
      masks: maskRows.filter((m) => !m.parentId).map(presentMask),
      editedMasks: maskRows.filter((m) => m.parentId).map(presentMask),
      userFeedback: uf ? { rating: uf.rating, comment: uf.comment, createdAt: uf.createdAt.toISOString() } : null,
      adminFeedback: afs.map(({ f, name, surname }) => presentFeedback(f, name, surname)),
      project: project ?? null,
    };
  });

  app.post(
    '/admin/jobs/:jobId/feedback',
    {
      config: JOB_READ,
      schema: {
        tags,
        params: Type.Object({ jobId: Type.String({ format: 'uuid' }) }),
        body: Type.Object({
          scaleNumber: Type.Optional(Type.Unknown()),
          scaleLength: Type.Optional(Type.Unknown()),
          resin: Type.Optional(Type.Unknown()),
          results: Type.Optional(Type.Unknown()),
          comment: Type.Optional(Type.Unknown()),
        }),
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const b = request.body;
      const e = new FieldErrors();
      const rating = (field: 'scaleNumber' | 'scaleLength' | 'resin' | 'results', key: string) => {
        const v = Number(b[field]);
        if (b[field] === null || b[field] === undefined || b[field] === '' || !Number.isInteger(v) || v < 1 || v > 5) {
          e.add(field, key);
          return 0;
        }
        return v;
      };
      const values = {
        scaleNumber: rating('scaleNumber', 'scaleNumberRequired'),
        scaleLength: rating('scaleLength', 'scaleLengthRequired'),
        resin: rating('resin', 'resinRequired'),
        results: rating('results', 'resultsRequired'),
      };
      if (b.comment !== undefined && b.comment !== null && (typeof b.comment !== 'string' || b.comment.length > 5000))
        e.add('comment', 'commentInvalid');
      e.throwIfAny();
      const comment = typeof b.comment === 'string' && b.comment.trim() ? b.comment.trim() : null;
      // The job's admin_rating_mean follows in the same transaction (the job row locked first).
      const f = await db.transaction(async (tx) => {
        if (!(await lockJob(tx, request.params.jobId))) throw notFound('job');
        const [row] = await tx
          .insert(adminFeedback)
          .values({ jobId: request.params.jobId, userId: auth.user.id, ...values, comment })
          .returning();
        await refreshJobAggregates(tx, row.jobId, ['adminRating']);
        return row;
      });
      return { ...presentFeedback(f, auth.user.name, auth.user.surname), message: message(request, 'feedbackAdded') };
    },
  );

  // ADMIN deletes any administrator feedback; a power user only their own.
  app.delete('/admin/feedback/admin/:id', { config: JOB_READ, schema: { tags, params: Id } }, async (request) => {
    const auth = requireAuth(request);
    if (!isUuid(request.params.id)) throw notFound('feedback');
    const [f] = await db.select().from(adminFeedback).where(eq(adminFeedback.id, request.params.id));
    if (!f) throw notFound('feedback');
    if (auth.user.role !== 'ADMIN' && f.userId !== auth.user.id) throw forbidden();
    await db.transaction(async (tx) => {
      await lockJob(tx, f.jobId);
      await tx.delete(adminFeedback).where(and(eq(adminFeedback.id, f.id)));
      await refreshJobAggregates(tx, f.jobId, ['adminRating']);
    });
    return { id: f.id, deleted: true, message: message(request, 'feedbackDeleted') };
  });
}

function presentFeedback(f: typeof adminFeedback.$inferSelect, name: string | null, surname: string | null) {
  return {
    id: f.id,
    jobId: f.jobId,
    scaleNumber: f.scaleNumber,
    scaleLength: f.scaleLength,
    resin: f.resin,
    results: f.results,
    /** The displayed rating: mean of the four scores. */
    rating: (f.scaleNumber + f.scaleLength + f.resin + f.results) / 4,
    comment: f.comment,
    createdAt: f.createdAt.toISOString(),
    userId: f.userId,
    user: f.userId ? { name, surname } : null,
  };
}
