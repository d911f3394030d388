import { and, asc, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { runNamed } from '../../platform/db/prepared.ts';
import {
  adminFeedback,
  computeModels,
  executors,
  images,
  jobAttempts,
  jobs,
  masks,
  nodes,
  projects,
  results,
  userFeedback,
  users,
} from '../../platform/db/schema/index.ts';

/**
 * All SQL of the admin jobs pages: the list (sort plans over a million jobs), both reports (streamed), the
 * detail, and the administrator feedback with the job's aggregate columns.
 */

/** Raw SQL rows (PGlite and node-postgres both answer `{rows}`). */
export async function rows<T>(db: Pick<Db, 'execute'>, query: SQL): Promise<T[]> {
  const r = (await db.execute(query)) as unknown as { rows: T[] };
  return r.rows;
}

export const JOB_STATUSES = ['NEW', 'PENDING', 'FINISHED', 'FAILED', 'CACHED'] as const;
export const JOB_SOURCES = ['WEB', 'API', 'SANDBOX', 'IDENTIFICATION', 'TEST'] as const;
export const DELETED = ['ALL', 'NOT_DELETED', 'DELETED'] as const;

export interface JobFilters {
  startDate?: string;
  endDate?: string;
  modelId?: string;
  userId?: string;
  deleted: (typeof DELETED)[number];
  company?: string;
  withUserFeedback: boolean;
  withAdminFeedback: boolean;
  withSubmittedMasks: boolean;
  status?: string;
  source?: string;
}

/** WHERE of the jobs list and both reports (dates are whole UTC days, endDate included). */
export function whereOf(f: JobFilters): SQL {
  const parts: SQL[] = [sql`true`];
  if (f.startDate) parts.push(sql`j.created_at >= ${f.startDate}::date`);
  if (f.endDate) parts.push(sql`j.created_at < (${f.endDate}::date + 1)`);
  if (f.modelId) parts.push(sql`j.model_id = ${f.modelId}`);
  if (f.userId) parts.push(sql`j.owner_id = ${f.userId}`);
  if (f.deleted === 'NOT_DELETED') parts.push(sql`not j.deleted`);
  if (f.deleted === 'DELETED') parts.push(sql`j.deleted`);
  if (f.company) {
    const like = `%${f.company.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    parts.push(sql`j.owner_id in (select u.id from users u where u.address->>'company' ilike ${like})`);
  }
  if (f.withUserFeedback) parts.push(sql`exists (select 1 from user_feedback f where f.job_id = j.id)`);
  if (f.withAdminFeedback) parts.push(sql`exists (select 1 from admin_feedback a where a.job_id = j.id)`);
  if (f.withSubmittedMasks) parts.push(sql`exists (select 1 from masks k where k.job_id = j.id and k.is_submitted)`);
  if (f.status) parts.push(sql`j.status = ${f.status}`);
  if (f.source) parts.push(sql`j.source = ${f.source}`);
  return sql.join(parts, sql` and `);
}

export interface JobListRow {
  id: string;
  created_at: string | Date;
  started_at: string | Date | null;
  finished_at: string | Date | null;
  status: string;
  source: string;
  model_version: string;
  deleted: boolean;
  archived: boolean;
  duration_ms: string | number | null;
  wait_ms: string | number | null;
  owner_id: string;
  owner_name: string | null;
  owner_surname: string | null;
  owner_email: string | null;
  company: string | null;
  model_id: string;
  model_name: string | null;
  model_display_name: string | null;
  model_display_name_de: string | null;
  project_id: string | null;
  project_name: string | null;
  image_id: string;
  image_original: string | null;
  image_filename: string | null;
  user_rating: number | null;
  user_comment: string | null;
  admin_mean: string | number | null;
  admin_count: string | number;
  submitted_masks: string | number;
  masks_count: string | number;
}

/** The jobs-row aggregates of back-office §2's sortable child columns, each recomputed from its child table. */
const AGGREGATES = {
  userRating: sql`user_rating = (select max(f.rating) from user_feedback f where f.job_id = jobs.id)`,
  adminRating: sql`admin_rating_mean = (select avg((a.scale_number + a.scale_length + a.resin + a.results) / 4.0) from admin_feedback a where a.job_id = jobs.id)`,
  submittedMasks: sql`submitted_masks = (select count(*) from masks k where k.job_id = jobs.id and k.is_submitted)`,
} as const;
export type JobAggregate = keyof typeof AGGREGATES;

/**
 * Locks a job's row for the rest of the transaction (FOR UPDATE): writers of its children take it before
 * writing, so that concurrent writers serialize and each recomputation sees the other's committed rows.
 * Returns whether the job exists.
 */
export async function lockJob(tx: Pick<Db, 'execute'>, jobId: string): Promise<boolean> {
  return (await rows<{ id: string }>(tx as Db, sql`select id from jobs where id = ${jobId} for update`)).length > 0;
}

/**
 * Recomputes aggregates of one job from its children (user_rating, admin_rating_mean, submitted_masks), in
 * the caller's transaction, after its write (and after lockJob).
 */
export async function refreshJobAggregates(tx: Pick<Db, 'execute'>, jobId: string, which: JobAggregate[]): Promise<void> {
  if (!which.length) return;
  await tx.execute(
    sql`update jobs set ${sql.join(
      which.map((k) => AGGREGATES[k]),
      sql`, `,
    )} where id = ${jobId}`,
  );
}

/**
 * The columns of a listed or exported job (the aliases `j`, `u`, `m`, `p`, `i`, `uf`, `af`, `mk`); the list joins
 * them for the page's ids only (detailJoins), the export set-based (exportQuery). Counts are 0 without children.
 */
const detailSelect = sql`j.id, j.created_at, j.started_at, j.finished_at, j.status, j.source, j.model_version, j.deleted, j.archived,
  coalesce(j.duration_ms, (extract(epoch from (j.finished_at - j.started_at)) * 1000)::bigint) as duration_ms,
  coalesce(j.wait_ms, (extract(epoch from (j.started_at - j.created_at)) * 1000)::bigint) as wait_ms,
  u.id as owner_id, u.name as owner_name, u.surname as owner_surname, u.email as owner_email, u.address->>'company' as company,
  m.id as model_id, m.internal_name as model_name, m.display_name as model_display_name, m.display_name_de as model_display_name_de,
  p.id as project_id, p.name as project_name,
  i.id as image_id, i.orginal_filename as image_original, i.filename as image_filename,
  uf.rating as user_rating, uf.comment as user_comment,
  af.mean as admin_mean, coalesce(af.n, 0) as admin_count,
  coalesce(mk.submitted, 0) as submitted_masks, coalesce(mk.total, 0) as masks_count`;

const detailJoins = sql`join users u on u.id = j.owner_id
  join compute_models m on m.id = j.model_id
  join images i on i.id = j.image_id
  left join projects p on p.id = j.project_id
  left join lateral (select f.rating, f.comment from user_feedback f where f.job_id = j.id order by f.created_at desc limit 1) uf on true
  left join lateral (select avg((a.scale_number + a.scale_length + a.resin + a.results) / 4.0) as mean, count(*) as n from admin_feedback a where a.job_id = j.id) af on true
  left join lateral (select count(*) filter (where k.is_submitted) as submitted, count(*) as total from masks k where k.job_id = j.id) mk on true`;

/**
 * The listed columns as ONE json value per row (same keys and values; timestamps as ISO text, counts and means as
 * numbers, which presentRow reads alike): the driver then parses one field per row instead of thirty.
 */
const detailJson = sql`(select row_to_json(d) from (select ${detailSelect}) d)`;

async function jsonRows(db: Pick<Db, 'execute'>, query: SQL): Promise<JobListRow[]> {
  return (await rows<{ r: JobListRow }>(db, query)).map((x) => x.r);
}

/** How the rows of one sort key are found fast on a million jobs (see pageParts). */
type SortPlan =
  /** A column of jobs: `order by col, created_at, id` walks an index on (col, created_at[, id]). */
  | { kind: 'column'; col: SQL; nullable: boolean }
  /** A boolean column: the false jobs then the true ones (or the reverse), each walked on created_at. */
  | { kind: 'flag'; col: SQL }
  /**
   * A value of a joined row (model, owner, company, project, image): the entities are walked in key order,
   * in growing chunks, each entity giving its own newest (or oldest) jobs from its (fk, created_at) index;
   * the walk stops once the page is full, so the first page reads a few hundred jobs instead of sorting all.
   */
  | { kind: 'entity'; from: SQL; key: SQL; nullableKey: boolean; fk: SQL; nullableFk: boolean };

const PLANS: Record<string, SortPlan> = {
  createdAt: { kind: 'column', col: sql`j.created_at`, nullable: false },
  startedAt: { kind: 'column', col: sql`j.started_at`, nullable: true },
  finishedAt: { kind: 'column', col: sql`j.finished_at`, nullable: true },
  status: { kind: 'column', col: sql`j.status`, nullable: false },
  source: { kind: 'column', col: sql`j.source`, nullable: false },
  deleted: { kind: 'flag', col: sql`j.deleted` },
  duration: { kind: 'column', col: sql`j.duration_ms`, nullable: true },
  waitTime: { kind: 'column', col: sql`j.wait_ms`, nullable: true },
  modelVersion: { kind: 'column', col: sql`j.model_version`, nullable: false },
  model: { kind: 'entity', from: sql`compute_models e`, key: sql`e.display_name`, nullableKey: false, fk: sql`j.model_id`, nullableFk: false },
  owner: {
    kind: 'entity',
    from: sql`users e`,
    key: sql`lower(e.surname || ' ' || e.name)`,
    nullableKey: false,
    fk: sql`j.owner_id`,
    nullableFk: false,
  },
  company: { kind: 'entity', from: sql`users e`, key: sql`lower(e.address->>'company')`, nullableKey: true, fk: sql`j.owner_id`, nullableFk: false },
  project: { kind: 'entity', from: sql`projects e`, key: sql`e.name`, nullableKey: false, fk: sql`j.project_id`, nullableFk: true },
  image: { kind: 'entity', from: sql`images e`, key: sql`e.orginal_filename`, nullableKey: false, fk: sql`j.image_id`, nullableFk: false },
  // Aggregates of the job's children, kept on the jobs row by their writers (refreshJobAggregates).
  userRating: { kind: 'column', col: sql`j.user_rating`, nullable: true },
  adminRating: { kind: 'column', col: sql`j.admin_rating_mean`, nullable: true },
  submittedMasks: { kind: 'column', col: sql`j.submitted_masks`, nullable: false },
};

/** Sort keys of the jobs table (the web page's column names). */
export const SORTS: Readonly<Record<string, SortPlan>> = PLANS;

/** A run of the ordered list: its ids from `offset` (at most `limit`), and its size when skipped whole. */
interface Part {
  fetch(db: Db, offset: number, limit: number): Promise<string[]>;
  count: SQL;
  /** The ids query of `fetch` as SQL over `jobs j`, when the part is one statement (the whole list then joins it in one). */
  idsQuery?(offset: number, limit: number): SQL;
  /** The ORDER BY of idsQuery (over `j`, a total order). */
  order?: SQL;
}

/**
 * Rows [offset, offset+limit) of the concatenation of ordered parts. A part that returns rows also tells
 * where the next one starts (offset 0); a part that returns none is counted only when the offset passes it.
 */
async function pageOfParts(db: Db, parts: Part[], offset: number, limit: number): Promise<string[]> {
  const out: string[] = [];
  let o = offset;
  for (const p of parts) {
    const need = limit - out.length;
    if (need <= 0) break;
    const got = await p.fetch(db, o, need);
    out.push(...got);
    if (got.length) o = 0;
    else if (o > 0) o = Math.max(0, o - Number((await rows<{ n: string | number }>(db, p.count))[0].n));
  }
  return out;
}

const ids = async (db: Db, q: SQL) => (await rows<{ id: string }>(db, q)).map((r) => r.id);

/**
 * The ids of one page, in the order of back-office §2: the sort key in the requested direction (nulls first
 * ascending, last descending; for submitted masks, 0 plays the part of null), then created_at and id in the
 * same direction, so pages never overlap. Each sort has a plan that reads about one page of rows (PLANS).
 */
export function pageParts(f: JobFilters, sortKey: string, dir: 'asc' | 'desc'): Part[] {
  const plan = PLANS[sortKey] ?? PLANS.createdAt;
  const where = whereOf(f);
  const d = dir === 'asc' ? sql`asc` : sql`desc`;
  const nulls = dir === 'asc' ? sql`nulls first` : sql`nulls last`;
  const tie = sql`j.created_at ${d}, j.id ${d}`;
  const plain = (extra: SQL): Part => ({
    fetch: (db, o, n) => ids(db, sql`select j.id from jobs j where ${where} and ${extra} order by ${tie} limit ${n} offset ${o}`),
    count: sql`select count(*) as n from jobs j where ${where} and ${extra}`,
  });
  // Nulls (or no children, or false) come first ascending, last descending.
  const ordered = (keyed: Part, none: Part) => (dir === 'asc' ? [none, keyed] : [keyed, none]);
  switch (plan.kind) {
    case 'column': {
      // NOT NULL columns: no NULLS clause, so the default-ordered (col, created_at) indexes match.
      const order = plan === PLANS.createdAt ? tie : plan.nullable ? sql`${plan.col} ${d} ${nulls}, ${tie}` : sql`${plan.col} ${d}, ${tie}`;
      const idsQuery = (o: number, n: number) => sql`select j.id from jobs j where ${where} order by ${order} limit ${n} offset ${o}`;
      return [
        {
          fetch: (db, o, n) => ids(db, idsQuery(o, n)),
          count: sql`select count(*) as n from jobs j where ${where}`,
          idsQuery,
          order,
        },
      ];
    }
    case 'flag':
      return ordered(plain(plan.col), plain(sql`not ${plan.col}`));
    case 'entity': {
      const keyed: Part = {
        fetch: (db, o, n) => entityWalk(db, plan, where, dir, o, n),
        count: sql`select count(*) as n from jobs j where ${where} and ${plan.fk} in (select e.id from ${plan.from} where ${plan.key} is not null)`,
      };
      // The entities without a key (users without a company) tie on it: their jobs are in (created_at, id)
      // order, walked on that index among the group's entities (named by id, so that the planner sees how
      // many jobs they have) instead of one lateral per entity.
      const nullKey: Part = {
        fetch: async (db, o, n) => {
          const ents = await rows<{ id: string }>(db, sql`select e.id from ${plan.from} where ${plan.key} is null`);
          if (!ents.length) return [];
          const anyOf = sql`${plan.fk} = any(string_to_array(${ents.map((r) => r.id).join(',')}, ',')::uuid[])`;
          return ids(db, sql`select j.id from jobs j where ${where} and ${anyOf} order by ${tie} limit ${n} offset ${o}`);
        },
        count: sql`select count(*) as n from jobs j where ${where} and ${plan.fk} in (select e.id from ${plan.from} where ${plan.key} is null)`,
      };
      // Ascending: jobs without the entity, then entities without a key, then the keys; descending the reverse.
      const parts = [...(plan.nullableFk ? [plain(sql`${plan.fk} is null`)] : []), ...(plan.nullableKey ? [nullKey] : [])];
      return dir === 'asc' ? [...parts, keyed] : [keyed, ...parts.reverse()];
    }
  }
}

/**
 * Jobs [offset, offset+limit) of the entities having a key, sorted by it: entities are taken in key order in
 * chunks that always end on a whole key group (4, 8, 16, ... entities, extended to every entity sharing the
 * last key), each contributing at most offset+limit of its jobs; sorted chunks concatenate into the sorted list.
 */
async function entityWalk(
  db: Db,
  plan: Extract<SortPlan, { kind: 'entity' }>,
  where: SQL,
  dir: 'asc' | 'desc',
  offset: number,
  limit: number,
): Promise<string[]> {
  const need = offset + limit;
  const d = dir === 'asc' ? sql`asc` : sql`desc`;
  const tie = sql`j.created_at ${d}, j.id ${d}`;
  const acc: string[] = [];
  const after = dir === 'asc' ? sql`>` : sql`<`;
  const upTo = dir === 'asc' ? sql`<=` : sql`>=`;
  let last: string | null = null;
  for (let size = 4; acc.length < need; size = Math.min(size * 2, 1024)) {
    const from: SQL = last === null ? sql`${plan.key} is not null` : sql`${plan.key} ${after} ${last}`;
    const [bound]: Array<{ k: string }> = await rows<{ k: string }>(
      db,
      sql`select ${plan.key} as k from ${plan.from} where ${from} order by ${plan.key} ${d} offset ${size - 1} limit 1`,
    );
    const ents = await rows<{ id: string }>(
      db,
      sql`select e.id from ${plan.from} where ${bound ? sql`${from} and ${plan.key} ${upTo} ${bound.k}` : from}`,
    );
    if (!ents.length) break;
    // Entities are named by id so that the planner sizes the lateral by their number (a range condition on the
    // key is estimated at a third of the table, which made it plan, and JIT-compile, for thousands of them).
    acc.push(
      ...(await ids(
        db,
        sql`select x.id from ${plan.from} cross join lateral (
            select j.id, j.created_at from jobs j where ${plan.fk} = e.id and ${where} order by ${tie} limit ${need - acc.length}
          ) x where e.id = any(string_to_array(${ents.map((r) => r.id).join(',')}, ',')::uuid[])
          order by ${plan.key} ${d}, x.created_at ${d}, x.id ${d} limit ${need - acc.length}`,
      )),
    );
    if (!bound) break;
    last = bound.k;
  }
  return acc.slice(offset, need);
}

/**
 * One page of the admin jobs list. The page's ids are chosen on the jobs table (filters as indexed
 * conditions and EXISTS probes, the sort plan, LIMIT/OFFSET), and only those ≤ pageSize+1 rows are joined to
 * owners, models, images, feedback and masks. There is no total count (the page answers hasNextPage).
 */
export async function listJobs(db: Db, f: JobFilters, sortKey: string, dir: 'asc' | 'desc', page: number, pageSize: number) {
  const parts = pageParts(f, sortKey, dir);
  const [only] = parts;
  if (parts.length === 1 && only.idsQuery && only.order) {
    // A sort on a column of jobs (the default, newest first): the page's ids and their details in one statement,
    // the same ids query as a subquery (so still ≤ pageSize+1 rows joined), in the same total order.
    // A named statement: the list polled with the same filters is not parsed again (page and size are parameters,
    // so the texts, and the statements a connection keeps, are one per filter combination and sort).
    const data = (
      await runNamed<{ r: JobListRow }>(
        db,
        sql`select ${detailJson} as r from (${only.idsQuery((page - 1) * pageSize, pageSize + 1)}) pg join jobs j on j.id = pg.id ${detailJoins}
        order by ${only.order}`,
      )
    ).map((x) => x.r);
    return { data: data.slice(0, pageSize), hasNextPage: data.length > pageSize };
  }
  const pageIds = await pageOfParts(db, parts, (page - 1) * pageSize, pageSize + 1);
  const hasNextPage = pageIds.length > pageSize;
  const shown = pageIds.slice(0, pageSize);
  const details = await jobsByIds(db, shown);
  const byId = new Map(details.map((r) => [r.id, r]));
  return { data: shown.map((id) => byId.get(id)!).filter(Boolean), hasNextPage };
}

/** How many jobs the filters select ("N jobs match"): one count over the same WHERE as the list and the reports. */
export async function countJobs(db: Db, f: JobFilters): Promise<number> {
  const [row] = await rows<{ n: string | number }>(db, sql`select count(*) as n from jobs j where ${whereOf(f)}`);
  return Number(row?.n ?? 0);
}

export async function jobsByIds(db: Db, ids: string[]): Promise<JobListRow[]> {
  if (!ids.length) return [];
  return jsonRows(
    db,
    sql`select ${detailJson} as r from jobs j ${detailJoins} where j.id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`,
  );
}

/**
 * Every job matching the filters, newest first, in batches read by keyset on (created_at, id): constant memory
 * however many rows match (the reports of 1,000,000 jobs).
 */
export async function* jobBatches(db: Db, f: JobFilters, batchSize = 5000): AsyncGenerator<JobListRow[]> {
  let after: { at: string; id: string } | null = null;
  for (;;) {
    const cursor: SQL = after ? sql`and (j.created_at, j.id) < (${after.at}::timestamptz, ${after.id}::uuid)` : sql``;
    const batch: Array<JobListRow & { at_text: string }> = await rows<JobListRow & { at_text: string }>(
      db,
      sql`with page as (select j.id from jobs j where ${whereOf(f)} ${cursor} order by j.created_at desc, j.id desc limit ${batchSize})
        select ${detailSelect}, to_char(j.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at_text
        from page join jobs j on j.id = page.id ${detailJoins} order by j.created_at desc, j.id desc`,
    );
    if (!batch.length) return;
    yield batch;
    if (batch.length < batchSize) return;
    const last = batch[batch.length - 1];
    after = { at: last.at_text, id: last.id };
  }
}

/** The report columns of every job matching the filters, newest first, set-based (children pre-aggregated). */
function exportQuery(f: JobFilters, onlyWithMasks: boolean): SQL {
  return sql`select ${detailSelect}
    from jobs j
    join users u on u.id = j.owner_id
    join compute_models m on m.id = j.model_id
    join images i on i.id = j.image_id
    left join projects p on p.id = j.project_id
    left join (select distinct on (f.job_id) f.job_id, f.rating, f.comment from user_feedback f order by f.job_id, f.created_at desc) uf on uf.job_id = j.id
    left join (select a.job_id, avg((a.scale_number + a.scale_length + a.resin + a.results) / 4.0) as mean, count(*) as n from admin_feedback a group by a.job_id) af on af.job_id = j.id
    ${onlyWithMasks ? sql`join` : sql`left join`} (select k.job_id, count(*) filter (where k.is_submitted) as submitted, count(*) as total from masks k where k.job_id is not null group by k.job_id) mk on mk.job_id = j.id
    where ${whereOf(f)}
    order by j.created_at desc, j.id desc`;
}

class Cancelled extends Error {}
type Msg = { batch: JobListRow[] } | { done: true } | { error: unknown };

/**
 * PostgreSQL: every job matching the filters, newest first, read through a server-side cursor (one
 * set-based query in a transaction on one pooled connection, FETCH batchSize rows at a time). The next batch
 * is fetched while the caller writes the current one; at most two batches are in memory, whatever the
 * number of jobs. Stopping the iteration (client gone) closes the cursor and frees the connection.
 * (The embedded PGlite is a single connection: it uses jobBatches, which holds no transaction open.)
 */
export async function* jobCursor(db: Db, f: JobFilters, opts: { onlyWithMasks?: boolean; batchSize?: number } = {}): AsyncGenerator<JobListRow[]> {
  const batchSize = Math.max(1, Math.floor(opts.batchSize ?? 500));
  let queued: Msg | null = null;
  let consumer: ((m: Msg) => void) | null = null;
  let producer: (() => void) | null = null;
  let cancelled = false;
  const put = async (m: Msg): Promise<boolean> => {
    if (cancelled) return false;
    if (consumer) {
      const c = consumer;
      consumer = null;
      c(m);
      return true;
    }
    queued = m;
    await new Promise<void>((r) => (producer = r));
    return !cancelled;
  };
  const take = (): Promise<Msg> => {
    if (queued) {
      const m = queued;
      queued = null;
      const p = producer;
      producer = null;
      p?.();
      return Promise.resolve(m);
    }
    return new Promise((r) => (consumer = r));
  };
  const work = db
    .transaction(async (tx) => {
      const t = tx as unknown as Db;
      await t.execute(sql`set local cursor_tuple_fraction = 1`);
      await t.execute(sql`declare admin_jobs_export no scroll cursor for ${exportQuery(f, opts.onlyWithMasks ?? false)}`);
      for (;;) {
        const batch = await rows<JobListRow>(t, sql.raw(`fetch forward ${batchSize} from admin_jobs_export`));
        if (batch.length && !(await put({ batch }))) throw new Cancelled();
        if (batch.length < batchSize) break;
      }
    })
    .then(
      () => put({ done: true }),
      (error) => (error instanceof Cancelled ? false : put({ error })),
    );
  try {
    for (;;) {
      const m = await take();
      if ('error' in m) throw m.error;
      if ('done' in m) return;
      yield m.batch;
    }
  } finally {
    cancelled = true;
    const p = producer as (() => void) | null;
    producer = null;
    p?.();
    await work;
  }
}

export interface MaskReportRow {
  job_id: string;
  id: string;
  label: string;
  filename: string;
  is_submitted: boolean;
  parent_id: string | null;
  created_at: string | Date;
  owner_email: string | null;
}

export async function masksOfJobs(db: Db, jobIds: string[]): Promise<MaskReportRow[]> {
  if (!jobIds.length) return [];
  return rows<MaskReportRow>(
    db,
    sql`select k.job_id, k.id, k.label, k.filename, k.is_submitted, k.parent_id, k.created_at, u.email as owner_email
      from masks k left join users u on u.id = k.owner_id
      where k.job_id in (${sql.join(
        jobIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )}) order by k.created_at`,
  );
}

/** The job's own rows for the detail page: job, image, model, launcher and its node. */
export async function jobDetail(db: Db, id: string) {
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
    .where(eq(jobs.id, id));
  return j ?? null;
}
export type JobDetailRow = NonNullable<Awaited<ReturnType<typeof jobDetail>>>;
export type MaskRow = typeof masks.$inferSelect;
export type AdminFeedbackRow = typeof adminFeedback.$inferSelect;

/** The children of one job shown on its detail page. */
export async function jobChildren(db: Db, job: JobDetailRow['job']) {
  const [result, maskRows, [uf], afs, [project]] = await Promise.all([
    job.resultId ? db.select().from(results).where(eq(results.id, job.resultId)) : Promise.resolve([]),
    db.select().from(masks).where(eq(masks.jobId, job.id)).orderBy(asc(masks.createdAt)),
    db.select().from(userFeedback).where(eq(userFeedback.jobId, job.id)).orderBy(desc(userFeedback.createdAt)).limit(1),
    db
      .select({ f: adminFeedback, name: users.name, surname: users.surname })
      .from(adminFeedback)
      .leftJoin(users, eq(users.id, adminFeedback.userId))
      .where(eq(adminFeedback.jobId, job.id))
      .orderBy(asc(adminFeedback.createdAt)),
    job.projectId ? db.select({ id: projects.id, name: projects.name }).from(projects).where(eq(projects.id, job.projectId)) : Promise.resolve([]),
  ]);
  return { result: result[0] ?? null, masks: maskRows, userFeedback: uf ?? null, adminFeedback: afs, project: project ?? null };
}

export async function insertAdminFeedback(
  tx: Db,
  values: { jobId: string; userId: string; scaleNumber: number; scaleLength: number; resin: number; results: number; comment: string | null },
): Promise<AdminFeedbackRow> {
  const [row] = await tx.insert(adminFeedback).values(values).returning();
  return row;
}

export async function findAdminFeedback(db: Db, id: string): Promise<AdminFeedbackRow | null> {
  const [f] = await db.select().from(adminFeedback).where(eq(adminFeedback.id, id));
  return f ?? null;
}

export async function deleteAdminFeedback(tx: Db, id: string): Promise<void> {
  await tx.delete(adminFeedback).where(and(eq(adminFeedback.id, id)));
}

/** The job's attempts, oldest first (job_attempts_job_idx). */
export function attemptsOf(db: Db, jobId: string) {
  return db.select().from(jobAttempts).where(eq(jobAttempts.jobId, jobId)).orderBy(asc(jobAttempts.startedAt), asc(jobAttempts.attempt));
}

/** "Re-run for the customer": a new queued job of the owner copying the original's input (image, model, settings, crop, mask). */
export async function insertRerun(tx: Db, original: JobDetailRow['job'], modelVersion: string) {
  const [row] = await tx
    .insert(jobs)
    .values({
      ownerId: original.ownerId,
      imageId: original.imageId,
      modelId: original.modelId,
      modelVersion,
      projectId: original.projectId,
      source: original.source === 'SANDBOX' ? 'SANDBOX' : original.source === 'API' ? 'API' : 'WEB',
      settings: original.settings,
      customizationId: original.customizationId,
      crop: original.crop,
      maskId: original.maskId,
      parentJobId: original.id,
    })
    .returning();
  return row;
}

/**
 * The rating queue: the newest finished job (FINISHED, not deleted) without an administrator rating, created before
 * `after` (or the newest of all without `after`); jobs_admin_rating_idx keeps unrated jobs first.
 */
export async function nextToRate(db: Db, after: { createdAt: Date; id: string } | null): Promise<string | null> {
  const [row] = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        eq(jobs.status, 'FINISHED'),
        eq(jobs.deleted, false),
        isNull(jobs.adminRatingMean),
        after ? sql`(${jobs.createdAt}, ${jobs.id}) < (${after.createdAt}, ${after.id})` : undefined,
      ),
    )
    .orderBy(desc(jobs.createdAt), desc(jobs.id))
    .limit(1);
  return row?.id ?? null;
}

/** Runs `fn` in one transaction (the transaction handed over as a Db). */
export function inTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => fn(tx as unknown as Db));
}
