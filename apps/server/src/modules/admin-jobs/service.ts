import { translate, type Language } from '@lamella/i18n';
import type {
  AdminFeedback,
  AdminFeedbackAdded,
  AdminFeedbackBody,
  AdminFeedbackDeleted,
  AdminJobAttempt,
  AdminJobDetail,
  AdminJobRerun,
  AdminNextJob,
  AdminJobRow,
  AdminJobsCount,
  AdminJobsPage,
  AdminJobsQuery,
} from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { CHANNELS, ChangeCache } from '../../platform/db/change-cache.ts';
import type { AuthContext } from '../../platform/auth/session.ts';
import { AppError, forbidden, notFound } from '../../platform/http/errors.ts';
import { FieldErrors } from '../../platform/http/field-errors.ts';
import { round2, seconds, type Cell, type StreamedTable } from '../../platform/http/spreadsheet.ts';
import { recordAudit } from '../audit/service.ts';
import type { JobEvents } from '../jobs/dispatcher.ts';
import { localiseModelName } from '../jobs/localise.ts';
import * as repo from './repo.ts';
import { DELETED, JOB_SOURCES, JOB_STATUSES, SORTS, type JobFilters, type JobListRow } from './repo.ts';

/**
 * Admin jobs (back-office.md §2 Jobs list and Job detail, §7 Jobs). Reading: JOB.READ; administrator feedback
 * (add, delete): JOB.WRITE, recorded in the audit log. ADMIN deletes any administrator feedback, a power user
 * only their own.
 */

/** Other domains whose writes change a job's aggregate columns (user feedback, masks) use these. */
export { lockJob, refreshJobAggregates, type JobAggregate } from './repo.ts';

const MAX_PAGE_SIZE = 1000;
const isUuid = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);
const iso = (v: string | Date | null | undefined): string | null => (v === null || v === undefined ? null : new Date(v).toISOString());
const num = (v: string | number | null | undefined): number | null => (v === null || v === undefined ? null : Number(v));
const message = (lang: Language, key: string) => translate(lang, `adminMessages.${key}`);

/** The staff member behind a request: the impersonating admin when impersonating. */
const actorOf = (auth: AuthContext) => auth.impersonatorId ?? auth.user.id;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const flag = (v: unknown) => v === true || v === 'true' || v === '1';

/** Reads the filters of the query string (flat: ?status=FAILED&deleted=ALL...); 400 naming a bad field. */
export function parseFilters(q: Record<string, unknown>): JobFilters {
  const e = new FieldErrors();
  const str = (k: string) => (typeof q[k] === 'string' && (q[k] as string).trim() ? (q[k] as string).trim() : undefined);
  const f: JobFilters = {
    startDate: str('startDate'),
    endDate: str('endDate'),
    modelId: str('modelId'),
    userId: str('userId'),
    deleted: (str('deleted') ?? 'NOT_DELETED') as JobFilters['deleted'],
    company: str('company'),
    withUserFeedback: flag(q.withUserFeedback),
    withAdminFeedback: flag(q.withAdminFeedback),
    withSubmittedMasks: flag(q.withSubmittedMasks),
    status: str('status'),
    source: str('source'),
  };
  const bad = (field: string, key: string) => e.add(field, `adminErrors.${key}`);
  for (const k of ['startDate', 'endDate'] as const) if (f[k] && (!DATE.test(f[k]!) || Number.isNaN(Date.parse(f[k]!)))) bad(k, 'dateInvalid');
  for (const k of ['modelId', 'userId'] as const) if (f[k] && !isUuid(f[k])) bad(k, 'filterInvalid');
  if (!DELETED.includes(f.deleted)) bad('deleted', 'filterInvalid');
  if (f.status && !JOB_STATUSES.includes(f.status as 'NEW')) bad('status', 'filterInvalid');
  if (f.source && !JOB_SOURCES.includes(f.source as 'WEB')) bad('source', 'filterInvalid');
  if (f.company && f.company.length > 200) bad('company', 'filterInvalid');
  e.throwIfAny();
  return f;
}

/** A row of the jobs table (back-office §2 "Jobs list" columns). Durations are milliseconds. */
export function presentRow(r: JobListRow): AdminJobRow {
  const adminMean = num(r.admin_mean);
  return {
    id: r.id,
    createdAt: iso(r.created_at)!,
    startedAt: iso(r.started_at),
    finishedAt: iso(r.finished_at),
    status: r.status,
    source: r.source,
    modelVersion: r.model_version,
    model: { id: r.model_id, name: r.model_name, displayName: r.model_display_name, displayNameDe: r.model_display_name_de },
    owner: { id: r.owner_id, name: r.owner_name, surname: r.owner_surname, email: r.owner_email, company: r.company },
    company: r.company,
    project: r.project_id ? { id: r.project_id, name: r.project_name } : null,
    image: { id: r.image_id, orginalFilename: r.image_original, filename: r.image_filename },
    userRating: r.user_rating,
    userFeedback: r.user_rating === null ? null : { rating: r.user_rating, comment: r.user_comment },
    adminRating: { mean: adminMean === null ? null : round2(adminMean), count: Number(r.admin_count) },
    durationMs: num(r.duration_ms),
    waitMs: num(r.wait_ms),
    deleted: r.deleted,
    archived: r.archived,
    submittedMasks: Number(r.submitted_masks),
    masksCount: Number(r.masks_count),
  };
}

/**
 * One page of the list. `page` is 1-based (default 1); `columns` is accepted and ignored (every column is in
 * every row). Default order: Job Date, newest first. A sort key that is not a column of the list (including
 * prototype names such as `constructor`) is a 400 naming `sortKey`.
 */
export async function list(db: Db, q: AdminJobsQuery): Promise<AdminJobsPage> {
  const filters = parseFilters(q);
  const page = q.page ?? 1;
  if (q.sortKey !== undefined && !Object.hasOwn(SORTS, q.sortKey))
    new FieldErrors().add('sortKey', 'errors.invalidField', { reason: 'not a column of the list' }).throwIfAny();
  const sortKey = q.sortKey ?? 'createdAt';
  const pageSize = Math.min(q.pageSize ?? 100, MAX_PAGE_SIZE);
  const { data, hasNextPage } = await repo.listJobs(db, filters, sortKey, q.sortOrder ?? 'desc', page, pageSize);
  return { data: data.map(presentRow), page, hasNextPage };
}

/** How many jobs match the list's filters (paging, sort and columns ignored), from `cache` while nothing changed. */
export async function count(db: Db, cache: ChangeCache<string> | null, q: AdminJobsQuery): Promise<AdminJobsCount> {
  const filters = parseFilters(q);
  const key = `count:${JSON.stringify(filters)}`;
  const kept = cache?.get(key);
  if (kept) return JSON.parse(kept) as AdminJobsCount;
  const startedAt = cache?.begin() ?? 0;
  const answer: AdminJobsCount = { total: await repo.countJobs(db, filters) };
  cache?.set(key, 'list', JSON.stringify(answer), startedAt);
  return answer;
}

/**
 * The list pages answered (serialised), per query: every admin reads the same page. Any change of a job or of what
 * the list shows (owners, models, images, projects, ratings, masks) drops them all: `lamella_jobs` and `lamella_auth`
 * notifications from any server, and this server's writes and job events (app.ts).
 */
export const adminListCache = (ttlSeconds: number) =>
  new ChangeCache<string>({
    channels: [CHANNELS.jobs, CHANNELS.auth],
    ttlSeconds,
    maxSize: 64 * 1024 * 1024,
    sizeOf: (body) => body.length,
    scopeOf: () => '*',
  });

/** A page of the list serialised by `serialize` (the route's schema), from `cache` while nothing changed. */
export async function listAnswer(db: Db, cache: ChangeCache<string> | null, q: AdminJobsQuery, serialize: (page: AdminJobsPage) => string) {
  const key = JSON.stringify(q);
  const kept = cache?.get(key);
  if (kept) return kept;
  const startedAt = cache?.begin() ?? 0;
  const body = serialize(await list(db, q));
  cache?.set(key, 'list', body, startedAt);
  return body;
}

/**
 * Both reports stream in constant memory, newest first: on PostgreSQL through a server-side cursor over one
 * set-based query (500 rows per FETCH: smaller transient strings keep the peak under 300 MB with compression
 * on); on the embedded PGlite by keyset batches of 5,000 jobs. The table (headers in the reader's language with
 * units, values rounded as the jobs table: 2 decimals, counts as integers, dates ISO 8601 UTC in CSV and dates in
 * XLSX) is written by platform/http/spreadsheet.ts as CSV (formula cells neutralised, the reader's separator) or
 * XLSX. Model names are the stored display names, as the back-office shows them.
 */
export type DatabaseKind = 'postgres' | 'pglite';

function batchesOf(db: Db, kind: DatabaseKind, filters: JobFilters, onlyWithMasks = false) {
  return kind === 'postgres' ? repo.jobCursor(db, filters, { onlyWithMasks }) : repo.jobBatches(db, filters);
}

const JOB_HEADERS = [
  'adminReports.jobs.jobId',
  'adminReports.jobs.jobDate',
  'adminReports.jobs.owner',
  'adminReports.jobs.ownerEmail',
  'adminReports.jobs.company',
  'adminReports.jobs.userRating',
  'adminReports.jobs.adminRating',
  'adminReports.jobs.adminVotes',
  'adminReports.jobs.duration',
  'adminReports.jobs.waitTime',
  'adminReports.jobs.status',
  'adminReports.jobs.source',
  'adminReports.jobs.model',
  'adminReports.jobs.modelVersion',
  'adminReports.jobs.project',
  'adminReports.jobs.image',
  'adminReports.jobs.deleted',
  'adminReports.jobs.submittedMasks',
];
const MASK_HEADERS = [
  'adminReports.jobs.jobId',
  'adminReports.jobs.jobDate',
  'adminReports.jobs.model',
  'adminReports.jobs.modelVersion',
  'adminReports.jobs.ownerEmail',
  'adminReports.jobs.company',
  'adminReports.jobs.image',
  'adminReports.masks.maskId',
  'adminReports.masks.label',
  'adminReports.masks.filename',
  'adminReports.masks.editedFrom',
  'adminReports.masks.submitted',
  'adminReports.masks.createdAt',
];

const date = (v: string | Date | null | undefined): Date | null => (v === null || v === undefined ? null : new Date(v));

/** The job's model named in the report's language (a German report: the German name, as on the German screens). */
const modelNameIn = (m: AdminJobRow['model'], lng: Language): string | null =>
  m.name && m.displayName ? localiseModelName({ name: m.name, displayName: m.displayName, displayNameDe: m.displayNameDe }, lng) : m.displayName;

/** A job row of the jobs report, in `lng`. */
export function jobReportRow(r: AdminJobRow, lng: Language): Cell[] {
  return [
    r.id,
    date(r.createdAt),
    [r.owner.name, r.owner.surname].filter(Boolean).join(' '),
    r.owner.email,
    r.company,
    r.userRating,
    r.adminRating.mean,
    r.adminRating.count,
    seconds(r.durationMs),
    seconds(r.waitMs),
    translate(lng, `admin.jobs.statuses.${r.status}`),
    translate(lng, `admin.jobs.sources.${r.source}`),
    modelNameIn(r.model, lng),
    r.modelVersion,
    r.project?.name,
    r.image.orginalFilename,
    r.deleted,
    r.submittedMasks,
  ];
}

/** The jobs report (one row per job, the list's filters), in `lng`. */
export function jobsReport(db: Db, kind: DatabaseKind, q: AdminJobsQuery, lng: Language): StreamedTable {
  const filters = parseFilters(q);
  return {
    headers: JOB_HEADERS.map((k) => translate(lng, k)),
    batches: (async function* () {
      for await (const batch of batchesOf(db, kind, filters)) yield batch.map((raw) => jobReportRow(presentRow(raw), lng));
    })(),
  };
}

/** The masks report (one row per mask of the jobs matching the filters), in `lng`. */
export function masksReport(db: Db, kind: DatabaseKind, q: AdminJobsQuery, lng: Language): StreamedTable {
  const filters = parseFilters(q);
  return {
    headers: MASK_HEADERS.map((k) => translate(lng, k)),
    batches: (async function* () {
      for await (const batch of batchesOf(db, kind, filters, true)) {
        const withMasks = batch.filter((r) => Number(r.masks_count) > 0);
        if (!withMasks.length) continue;
        const list = await repo.masksOfJobs(
          db,
          withMasks.map((r) => r.id),
        );
        const byJob = new Map(withMasks.map((r) => [r.id, presentRow(r)]));
        const rows: Cell[][] = [];
        for (const k of list) {
          const r = byJob.get(k.job_id)!;
          rows.push([
            r.id,
            date(r.createdAt),
            modelNameIn(r.model, lng),
            r.modelVersion,
            r.owner.email,
            r.company,
            r.image.orginalFilename,
            k.id,
            k.label,
            k.filename,
            k.parent_id,
            k.is_submitted,
            date(k.created_at),
          ]);
        }
        if (rows.length) yield rows;
      }
    })(),
  };
}

/** The sheet name of a report in `lng`. */
export const reportSheet = (kind: 'jobs' | 'masks', lng: Language) =>
  translate(lng, kind === 'jobs' ? 'adminReports.sheets.jobs' : 'adminReports.sheets.masks');

function presentFeedback(f: repo.AdminFeedbackRow, name: string | null, surname: string | null): AdminFeedback {
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

const presentMask = (m: repo.MaskRow) => ({
  id: m.id,
  label: m.label,
  filename: m.filename,
  isSubmitted: m.isSubmitted,
  parentId: m.parentId,
  createdAt: m.createdAt.toISOString(),
});

/** The job detail page (back-office §2 "Job detail"). */
export async function detail(db: Db, id: string): Promise<AdminJobDetail> {
  const [row] = await repo.jobsByIds(db, [id]);
  const j = row ? await repo.jobDetail(db, id) : null;
  if (!row || !j) throw notFound('job');
  const [c, attempts] = await Promise.all([repo.jobChildren(db, j.job), repo.attemptsOf(db, id)]);
  const { startedAt, finishedAt } = j.job;
  return {
    ...presentRow(row),
    attempts: attempts.map((a): AdminJobAttempt => ({
      attempt: a.attempt,
      launcherId: a.executorId,
      launcher: a.launcher,
      startedAt: a.startedAt.toISOString(),
      endedAt: iso(a.endedAt),
      outcome: a.outcome,
      reason: a.reason,
    })),
    parentJobId: j.job.parentJobId,
    model: {
      id: j.model.id,
      name: j.model.internalName,
      displayName: j.model.displayName,
      displayNameDe: j.model.displayNameDe,
      currentVersion: j.model.version,
    },
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
    heartbeatAt: iso(j.job.heartbeatAt),
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
    crop: j.job.crop ?? null,
    result: c.result ? { id: c.result.id, items: c.result.items, measurements: c.result.measurements, files: Object.keys(c.result.files) } : null,
    // "Masks" are the job's masks; "Edited masks" the ones edited from another mask (parentId set).
    masks: c.masks.filter((m) => !m.parentId).map(presentMask),
    editedMasks: c.masks.filter((m) => m.parentId).map(presentMask),
    userFeedback: c.userFeedback
      ? { rating: c.userFeedback.rating, comment: c.userFeedback.comment, createdAt: c.userFeedback.createdAt.toISOString() }
      : null,
    adminFeedback: c.adminFeedback.map(({ f, name, surname }) => presentFeedback(f, name, surname)),
    project: c.project,
  };
}

const SCORES = [
  ['scaleNumber', 'scaleNumberRequired'],
  ['scaleLength', 'scaleLengthRequired'],
  ['resin', 'resinRequired'],
  ['results', 'resultsRequired'],
] as const;

/** Adds an administrator feedback (four scores 1..5, optional comment); the job's mean follows in the same transaction. */
export async function addFeedback(db: Db, auth: AuthContext, jobId: string, b: AdminFeedbackBody, lang: Language): Promise<AdminFeedbackAdded> {
  const e = new FieldErrors();
  const scores = { scaleNumber: 0, scaleLength: 0, resin: 0, results: 0 };
  for (const [field, key] of SCORES) {
    const v = b[field];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 5) e.add(field, `adminErrors.${key}`);
    else scores[field] = v;
  }
  if (typeof b.comment === 'string' && b.comment.length > 5000) e.add('comment', 'adminErrors.commentInvalid');
  e.throwIfAny();
  const comment = typeof b.comment === 'string' && b.comment.trim() ? b.comment.trim() : null;
  // The job row is locked first; its admin_rating_mean and the audit entry go in the same transaction.
  const f = await db.transaction(async (t) => {
    const tx = t as unknown as Db;
    if (!(await repo.lockJob(tx, jobId))) throw notFound('job');
    const row = await repo.insertAdminFeedback(tx, { jobId, userId: auth.user.id, ...scores, comment });
    await repo.refreshJobAggregates(tx, jobId, ['adminRating']);
    await recordAudit(tx, {
      actorId: actorOf(auth),
      action: 'job.feedback.add',
      targetType: 'job',
      targetId: jobId,
      details: { feedbackId: row.id, ...scores },
    });
    return row;
  });
  return { ...presentFeedback(f, auth.user.name, auth.user.surname), message: message(lang, 'feedbackAdded') };
}

/** Deletes an administrator feedback: ADMIN any, a power user only their own (403 otherwise). */
export async function removeFeedback(db: Db, auth: AuthContext, id: string, lang: Language): Promise<AdminFeedbackDeleted> {
  const f = await repo.findAdminFeedback(db, id);
  if (!f) throw notFound('feedback');
  if (auth.user.role !== 'ADMIN' && f.userId !== auth.user.id) throw forbidden();
  await db.transaction(async (t) => {
    const tx = t as unknown as Db;
    await repo.lockJob(tx, f.jobId);
    await repo.deleteAdminFeedback(tx, f.id);
    await repo.refreshJobAggregates(tx, f.jobId, ['adminRating']);
    await recordAudit(tx, {
      actorId: actorOf(auth),
      action: 'job.feedback.delete',
      targetType: 'job',
      targetId: f.jobId,
      details: { feedbackId: f.id },
    });
  });
  return { id: f.id, deleted: true, message: message(lang, 'feedbackDeleted') };
}

/** Queues the new job (the dispatcher's wake-up). */
export interface RerunDeps {
  db: Db;
  jobEvents: Pick<JobEvents, 'created'>;
}

/**
 * "Re-run for the customer" (JOB.WRITE): a new job of the owner with the original's image, model, settings, crop
 * and mask, linked to it (parentJobId). No licence unit is charged (staff re-run it, the customer asked nothing);
 * audited in the same transaction. A deleted job, or one whose image is gone, cannot be re-run (409).
 */
export async function rerun(deps: RerunDeps, actorId: string, id: string, lng: Language): Promise<AdminJobRerun> {
  const j = isUuid(id) ? await repo.jobDetail(deps.db, id) : null;
  if (!j) throw notFound('job');
  if (j.job.deleted || j.image.isDeleted) throw new AppError(409, 'JOB_NOT_RERUNNABLE', 'adminJobs.rerun.notRerunnable');
  const settings = j.job.settings as Record<string, unknown>;
  const version = typeof settings.modelVersion === 'string' ? settings.modelVersion : j.model.version;
  const row = await repo.inTransaction(deps.db, async (tx) => {
    const created = await repo.insertRerun(tx, j.job, version);
    await recordAudit(tx, {
      actorId,
      action: 'job.rerun',
      targetType: 'job',
      targetId: j.job.id,
      details: { newJobId: created.id, ownerId: j.job.ownerId, model: j.model.internalName, modelVersion: version },
    });
    return created;
  });
  deps.jobEvents.created([row]);
  return { id: row.id, parentJobId: j.job.id, message: translate(lng, 'adminJobs.rerun.done') };
}

/** "Next job" of the rating queue, after the job shown now (or the newest unrated finished job). */
export async function nextToRate(db: Db, after: string | undefined): Promise<AdminNextJob> {
  let from: { createdAt: Date; id: string } | null = null;
  if (after) {
    const j = await repo.jobDetail(db, after);
    if (!j) throw notFound('job');
    from = { createdAt: j.job.createdAt, id: j.job.id };
  }
  return { id: await repo.nextToRate(db, from) };
}
