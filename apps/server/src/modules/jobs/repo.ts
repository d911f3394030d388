import { and, desc, eq, inArray, isNotNull, notInArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { isoText, preparedStatement } from '../../platform/db/prepared.ts';
import { computeModels, images, jobs, masks, results } from '../../platform/db/schema/index.ts';

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
  /** History filters (issue 24 item 7): one status, a creation window [from, to), a part of the image's name. */
  status?: JobRow['status'];
  from?: Date;
  to?: Date;
  name?: string;
  sortBy: 'createdAt' | 'finishedAt' | 'status';
  sortOrder: 'asc' | 'desc';
  page: number;
  pageSize: number;
}

/**
 * A filtered list counts its matches up to this many past the page's first row; more are answered as that many
 * (the pager then offers the pages up to there, and more as the user goes on): the count costs about what reading
 * the page does, never the whole history (issue 30).
 */
export const FILTERED_TOTAL_CAP = 1_000;

/** Which History filters a page has, as the letters of its statements' names ('' for none): s status, f from, t to, n name. */
const historyFilters = (f: JobPageFilter) => (f.status ? 's' : '') + (f.from ? 'f' : '') + (f.to ? 't' : '') + (f.name ? 'n' : '');

/** `%text%` for ILIKE with the user's text taken literally (\, % and _ escaped). */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const sortColumns = { createdAt: jobs.createdAt, finishedAt: jobs.finishedAt, status: jobs.status } as const;

// --- The job's wire shape in one statement (issue 15 "Hot paths"). ---

/**
 * A job as the database answers it for its wire shape: `job` is user-app.md §3 "Job" built in SQL (image,
 * model, masks, the owner's rating, customization) except what present.ts adds: the result summary (cached
 * per result), `outdated` (from `currentVersion`), the refusal (from `error`) and the reader's language.
 */
export interface PresentedJobRow {
  job: PresentedJobJson;
  currentVersion: string;
  error: string | null;
  deleted: boolean;
}
/** A job list row (presentedPageOfJobs): the presented job and its result's brief (id, feedback, scalar measurements). */
export interface PresentedListRow extends PresentedJobRow {
  brief: { id: string; feedback: unknown[]; measurements: Record<string, unknown> } | null;
}
/** The part of the Job wire shape that SQL builds (see PresentedJobRow). */
export interface PresentedJobJson {
  id: string;
  status: JobRow['status'];
  source: JobRow['source'];
  imageId: string;
  image: { id: string; orginalFilename: string; width: number; height: number };
  modelId: string;
  model: { id: string; name: string; displayName: string; displayNameDe: string | null };
  modelVersion: string;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  progress: number | null;
  resultId: string | null;
  userFeedback: { rating: number; comment: string | null } | null;
  masks: Array<{ id: string; label: string; filename: string; parentId: string | null; isSubmitted: boolean }>;
  withMasks: boolean;
  crop: { x: number; y: number; width: number; height: number } | null;
  archived: boolean;
  customization: { config: Record<string, unknown>; template: { nameEn: string; nameDe: string } | null } | null;
  failed: boolean;
}

/**
 * The columns of a presented job over `j` (a jobs row): image, model, customization group and the owner's
 * rating are 1:1 joins (user_feedback is unique on (job, user)), the masks one json_agg on masks_job_idx.
 */
const presentedSelect = sql`json_build_object(
    'id', j.id, 'status', j.status, 'source', j.source, 'imageId', j.image_id,
    'image', json_build_object('id', j.image_id, 'orginalFilename', coalesce(i.orginal_filename, ''), 'width', coalesce(i.width, 0), 'height', coalesce(i.height, 0)),
    'modelId', j.model_id,
    'model', json_build_object('id', m.id, 'name', m.internal_name, 'displayName', m.display_name, 'displayNameDe', m.display_name_de),
    'modelVersion', j.model_version,
    'createdAt', ${isoText(sql`j.created_at`)},
    'startedAt', ${isoText(sql`j.started_at`)},
    'finishedAt', ${isoText(sql`j.finished_at`)},
    'progress', j.progress,
    'resultId', j.result_id,
    'userFeedback', case when f.id is null then null else json_build_object('rating', f.rating, 'comment', f.comment) end,
    'masks', coalesce((select json_agg(json_build_object('id', k.id, 'label', k.label, 'filename', k.filename, 'parentId', k.parent_id, 'isSubmitted', k.is_submitted) order by k.created_at, k.id)
      from masks k where k.job_id = j.id), '[]'::json),
    'withMasks', j.mask_id is not null,
    'crop', j.crop,
    'archived', j.archived,
    'customization', case
      when c.id is not null then json_build_object('config', j.settings, 'template', json_build_object('nameEn', c.name_en, 'nameDe', c.name_de))
      when j.source = 'IDENTIFICATION' then json_build_object('config', j.settings, 'template', null)
    end,
    'failed', j.status = 'FAILED'
  ) as job, m.version as "currentVersion", case when j.status = 'FAILED' then j.error end as error, j.deleted`;

const presentedJoins = sql`join compute_models m on m.id = j.model_id
  left join images i on i.id = j.image_id
  left join customization_groups c on c.id = j.customization_id
  left join user_feedback f on f.job_id = j.id and f.user_id = j.owner_id`;

/** Jobs by id, presented (any owner, deleted too: the caller chose the ids); in no particular order. */
const presentedByIds = preparedStatement<PresentedJobRow>(
  'lamella_jobs_presented_by_ids',
  () => sql`select ${presentedSelect} from jobs j ${presentedJoins} where j.id = any(${sql.placeholder('ids')}::uuid[])`,
);

export function presentedJobsByIds(db: Db, ids: string[]): Promise<PresentedJobRow[]> {
  return ids.length ? presentedByIds(db, { ids }) : Promise.resolve([]);
}

/** One job presented if the viewer may read it: their own and not deleted, or any for `anyOwner` (ADMIN). */
const presentedReadable = preparedStatement<PresentedJobRow>(
  'lamella_jobs_presented_readable',
  () => sql`select ${presentedSelect} from jobs j ${presentedJoins}
    where j.id = ${sql.placeholder('id')}::uuid
      and (${sql.placeholder('anyOwner')}::boolean or (j.owner_id = ${sql.placeholder('ownerId')}::uuid and not j.deleted))`,
);

export async function presentedReadableJob(db: Db, id: string, viewer: { userId: string; anyOwner: boolean }): Promise<PresentedJobRow | undefined> {
  const [row] = await presentedReadable(db, { id, anyOwner: viewer.anyOwner, ownerId: viewer.userId });
  return row;
}

/** A result's (`r`) measurements that are numbers, texts or flags (lists and objects stay with the full result). */
const scalarMeasurements = sql`coalesce((select jsonb_object_agg(e.key, e.value) from jsonb_each(r.measurements) e
    where jsonb_typeof(e.value) in ('number', 'string', 'boolean')), '{}'::jsonb)`;

/**
 * One page of the user's own (not deleted, not sandbox) jobs in two statements: the page's ids in order, newest
 * first by default, with one row more than the page when there is one (one prepared statement per sort, direction,
 * model filter and history filters, on the owner's list index of its sort key, jobs_owner_list_*_idx, partial on the
 * rows the list shows), and (unfiltered lists) the owner's total from job_owner_totals; then those rows presented
 * (listRowsByIds).
 */
interface PageIdRow {
  id: string;
  ownerTotal: number | null;
}
/** The prepared statements of the list's shapes (sort, direction, model, History filters), made on first use. */
const shapes = new Map<string, ReturnType<typeof preparedStatement<unknown>>>();
function statementOfShape<T>(name: string, build: () => SQL): ReturnType<typeof preparedStatement<T>> {
  let statement = shapes.get(name);
  if (!statement) shapes.set(name, (statement = preparedStatement<unknown>(name, build)));
  return statement as ReturnType<typeof preparedStatement<T>>;
}

/** The owner's listed jobs as `p` (not deleted, not sandbox or identification; of one model with `byModel`). */
const listedJobs = (byModel: boolean): SQL => sql`jobs p
  where p.owner_id = ${sql.placeholder('ownerId')}::uuid and not p.deleted and p.archived = ${sql.placeholder('archived')}::boolean
    ${byModel ? sql`and p.model_id = ${sql.placeholder('modelId')}::uuid` : sql``} and p.source not in ('SANDBOX', 'IDENTIFICATION')`;

function pageStatement(sortBy: JobPageFilter['sortBy'], dir: 'asc' | 'desc', byModel: boolean, filters: string) {
  const name = `lamella_jobs_page_ids_${sortBy}_${dir}_${byModel ? 'model' : 'all'}${filters ? `_${filters}` : ''}`;
  return statementOfShape<PageIdRow>(name, () => {
    const column = { createdAt: sql`p.created_at`, finishedAt: sql`p.finished_at`, status: sql`p.status` }[sortBy];
    const order = dir === 'asc' ? sql`${column} asc, p.id asc` : sql`${column} desc, p.id desc`;
    // Unfiltered: the owner's total (job_owner_totals) read by the same statement, an uncorrelated subquery run
    // once, so the page's ids and its total cost one round trip (issue 30).
    const totalColumn: SQL = filters
      ? sql`null::int`
      : sql`(select coalesce(sum(t.n), 0)::int from job_owner_totals t
          where t.owner_id = ${sql.placeholder('ownerId')}::uuid and t.archived = ${sql.placeholder('archived')}::boolean
            ${byModel ? sql`and t.model_id = ${sql.placeholder('modelId')}::uuid` : sql``})`;
    return sql`select p.id, ${totalColumn} as "ownerTotal" from ${listedJobs(byModel)} ${historyFilter(filters)}
      order by ${order} limit ${sql.placeholder('limit')}::int offset ${sql.placeholder('offset')}::int`;
  });
}

/**
 * The list rows of these jobs, presented with their results' briefs; in no particular order. A statement of its own
 * (not joined to the page's) because its text is the same for every page: PostgreSQL plans it once per connection
 * (a generic plan), where the page's LIMIT/OFFSET would make it plan the whole presentation again for each request.
 */
const listRowsByIds = preparedStatement<PresentedListRow>(
  'lamella_jobs_list_rows_by_ids',
  () => sql`select ${presentedSelect},
      case when r.id is null then null else json_build_object('id', r.id, 'feedback', r.feedback, 'measurements', ${scalarMeasurements}) end as brief
    from jobs j ${presentedJoins}
    left join results r on r.id = j.result_id
    where j.id = any(${sql.placeholder('ids')}::uuid[])`,
);

/**
 * The History page's filters over `p` (a jobs row), only those given (`filters`: historyFilters' letters): each set
 * of filters is a statement of its own, so the plan uses what is given (the status index for a status) instead of
 * conditions that an absent filter turns off.
 */
const historyFilter = (filters: string): SQL =>
  sql.join(
    [
      filters.includes('s') && sql`and p.status = ${sql.placeholder('status')}::job_status`,
      filters.includes('f') && sql`and p.created_at >= ${sql.placeholder('from')}::timestamptz`,
      filters.includes('t') && sql`and p.created_at < ${sql.placeholder('to')}::timestamptz`,
      filters.includes('n') &&
        sql`and exists (select 1 from images fi where fi.id = p.image_id and fi.orginal_filename ilike ${sql.placeholder('name')}::text)`,
    ].filter((c): c is SQL => Boolean(c)),
    sql` `,
  );

/** The matches of a filtered list, counted up to `limit` rows (the page's offset + FILTERED_TOTAL_CAP + 1). */
function filteredCount(byModel: boolean, filters: string) {
  return statementOfShape<{ n: number }>(
    `lamella_jobs_count_${byModel ? 'model' : 'all'}_${filters}`,
    () => sql`select count(*)::int as n from (
        select 1 from ${listedJobs(byModel)} ${historyFilter(filters)} limit ${sql.placeholder('limit')}::int
      ) x`,
  );
}

/** The list's total kept per owner (job_owner_totals, migration 0023): a few rows, whatever the history. */
const ownerTotal = preparedStatement<{ n: number }>(
  'lamella_jobs_owner_total',
  () => sql`select coalesce(sum(n), 0)::int as n from job_owner_totals
    where owner_id = ${sql.placeholder('ownerId')}::uuid and archived = ${sql.placeholder('archived')}::boolean
      and (${sql.placeholder('modelId')}::uuid is null or model_id = ${sql.placeholder('modelId')}::uuid)`,
);

/**
 * One page of the user's jobs, presented with their results' briefs (no result items: issue 30), and the total. A
 * page that is not full ends the list, so its total is the rows before it plus its own; otherwise the total is the
 * owner's from job_owner_totals (unfiltered, or by model; read by the page's own statement), or, for the History
 * filters, counted up to FILTERED_TOTAL_CAP past the page's first row. No count runs over the user's whole history.
 */
export async function presentedPageOfJobs(db: Db, f: JobPageFilter): Promise<{ rows: PresentedListRow[]; total: number }> {
  const sortBy = Object.hasOwn(sortColumns, f.sortBy) ? f.sortBy : 'createdAt';
  const offset = (f.page - 1) * f.pageSize;
  const filters = historyFilters(f);
  const values = {
    ownerId: f.ownerId,
    archived: f.archived,
    ...(f.modelId ? { modelId: f.modelId } : {}),
    ...(f.status ? { status: f.status } : {}),
    ...(f.from ? { from: f.from.toISOString() } : {}),
    ...(f.to ? { to: f.to.toISOString() } : {}),
    ...(f.name ? { name: containsPattern(f.name) } : {}),
  };
  const ids = await pageStatement(
    sortBy,
    f.sortOrder === 'asc' ? 'asc' : 'desc',
    Boolean(f.modelId),
    filters,
  )(db, {
    ...values,
    limit: f.pageSize + 1,
    offset,
  });
  const shown = ids.slice(0, f.pageSize);
  const byId = new Map((shown.length ? await listRowsByIds(db, { ids: shown.map((r) => r.id) }) : []).map((r) => [r.job.id, r]));
  // a job deleted between the two reads is left out
  const rows = shown.flatMap((r) => {
    const row = byId.get(r.id);
    return row && !row.deleted ? [row] : [];
  });
  if (ids.length <= f.pageSize && (ids.length > 0 || offset === 0)) return { rows, total: offset + ids.length };
  if (!filters && ids.length) return { rows, total: Number(ids[0].ownerTotal ?? 0) };
  const [total] = filters
    ? await filteredCount(Boolean(f.modelId), filters)(db, { ...values, limit: offset + FILTERED_TOTAL_CAP + 1 })
    : await ownerTotal(db, { ownerId: f.ownerId, archived: f.archived, modelId: f.modelId ?? null });
  const n = Number(total?.n ?? 0);
  return { rows, total: filters ? Math.min(n, offset + FILTERED_TOTAL_CAP) : n };
}

/** Result summaries (items, feedback flags, measurements) by id, as json text (its length sizes present.ts's cache). */
const summariesByIds = preparedStatement<{ id: string; summary: string }>(
  'lamella_results_summaries',
  () => sql`select r.id, json_build_object('id', r.id, 'results', r.items, 'feedback', r.feedback, 'measurements', r.measurements)::text as summary
    from results r where r.id = any(${sql.placeholder('ids')}::uuid[])`,
);

export function resultSummaries(db: Db, ids: string[]): Promise<Array<{ id: string; summary: string }>> {
  return ids.length ? summariesByIds(db, { ids }) : Promise.resolve([]);
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
      modelDe: computeModels.displayNameDe,
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

/** Archives the owner's (not deleted, not yet archived) user-visible jobs of these images (image library delete). */
export async function archiveJobsOfImages(db: Db, ownerId: string, imageIds: string[]): Promise<number> {
  const rows = await db
    .update(jobs)
    .set({ archived: true })
    .where(and(inArray(jobs.imageId, imageIds), eq(jobs.ownerId, ownerId), eq(jobs.deleted, false), eq(jobs.archived, false), userVisible))
    .returning({ id: jobs.id });
  return rows.length;
}

/** The jobs started in a project on these images (not deleted, no sandbox runs), newest first. */
export async function projectJobIds(db: Db, projectId: string, imageIds: string[]): Promise<string[]> {
  if (!imageIds.length) return [];
  const rows = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.projectId, projectId), inArray(jobs.imageId, imageIds), eq(jobs.deleted, false), userVisible))
    .orderBy(desc(jobs.createdAt))
    .limit(5000);
  return rows.map((r) => r.id);
}

/** The live jobs answered by a result (a result can answer several jobs of its owner: CACHED), with their project. */
export function liveJobsOfResult(db: Db, resultId: string) {
  return db
    .select({ id: jobs.id, imageId: jobs.imageId, projectId: jobs.projectId })
    .from(jobs)
    .where(and(eq(jobs.resultId, resultId), eq(jobs.deleted, false), userVisible))
    .limit(100);
}
