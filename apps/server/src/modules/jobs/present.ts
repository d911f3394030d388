import type { Job, JobListRow, JobResultBrief, JobResultSummary, ResultItem, FeedbackFlag } from '@lamella/contracts';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../platform/db/client.ts';
import type { Language } from '@lamella/i18n';
import { localiseItems, localiseModelName, localiseText } from './localise.ts';
import * as repo from './repo.ts';

export type JobRow = repo.JobRow;

const versionNumber = (v: string) => Number(v.replace(/\D/g, '')) || 0;

/** A model version older than the model's current one makes the job Outdated. */
export const isOutdated = (jobVersion: string, currentVersion: string) => versionNumber(jobVersion) < versionNumber(currentVersion);

/** A result row as the contract's summary (items as the models wrote them, or in `lng` when given: localise.ts). */
export const presentResultSummary = (r: repo.ResultRow, lng?: Language): JobResultSummary => ({
  id: r.id,
  results: lng ? localiseItems(r.items as ResultItem[], lng) : (r.items as ResultItem[]),
  feedback: r.feedback as FeedbackFlag[],
  measurements: r.measurements,
});

/**
 * Presented result summaries by (result, language), least recently used evicted first. A result's items, feedback
 * flags and measurements never change once written (the dispatcher only adds its files, which the summary does not
 * show) and localise.ts is a pure function of them, so an entry is never stale, on any replica. Bounded by the size
 * of the stored json (32 MB; one result over 4 MB is not kept); entries are shared between answers, never mutated.
 */
const summaries = new LRUCache<string, JobResultSummary>({ maxSize: 32 * 1024 * 1024, maxEntrySize: 4 * 1024 * 1024 });

/** The summaries of these results in `lng` (or as stored): from the cache, the others in one statement. */
async function summariesOf(db: Db, resultIds: string[], lng?: Language): Promise<Map<string, JobResultSummary>> {
  const out = new Map<string, JobResultSummary>();
  const missing: string[] = [];
  for (const id of resultIds) {
    const hit = summaries.get(`${id}:${lng ?? ''}`);
    if (hit) out.set(id, hit);
    else if (!out.has(id)) missing.push(id);
  }
  for (const { id, summary } of await repo.resultSummaries(db, [...new Set(missing)])) {
    const stored = JSON.parse(summary) as JobResultSummary;
    const shown = lng ? { ...stored, results: localiseItems(stored.results, lng) } : stored;
    summaries.set(`${id}:${lng ?? ''}`, shown, { size: summary.length });
    out.set(id, shown);
  }
  return out;
}

/** localiseModelName is pure in (name, shown name, language); the few models make a small memo. */
const modelNames = new Map<string, string>();
function modelName(model: { name: string; displayName: string; displayNameDe?: string | null }, lng: Language): string {
  const key = `${lng}\u0000${model.name}\u0000${model.displayName}\u0000${model.displayNameDe ?? ''}`;
  let name = modelNames.get(key);
  if (name === undefined) {
    if (modelNames.size >= 1000) modelNames.clear();
    modelNames.set(key, (name = localiseModelName(model, lng)));
  }
  return name;
}

/**
 * Presented rows (repo.ts PresentedJobRow: the wire shape built in SQL) completed: result summary, Outdated and
 * refusal; with `lng`, the result items, model name and refusal read in that language (localise.ts).
 */
async function complete(db: Db, rows: repo.PresentedJobRow[], lng?: Language): Promise<Job[]> {
  const resultIds = rows.flatMap((r) => (r.job.resultId ? [r.job.resultId] : []));
  const results = resultIds.length ? await summariesOf(db, resultIds, lng) : undefined;
  return rows.map((row) => completeRow<Job>(row, (row.job.resultId && results?.get(row.job.resultId)) || null, lng));
}

/**
 * A presented row completed in place (its json is parsed for this answer alone: no copy of every job): `result`,
 * Outdated, the refusal, and with `lng` the model name and refusal in that language.
 */
function completeRow<T extends Job | JobListRow>({ job, currentVersion, error }: repo.PresentedJobRow, result: T['result'], lng?: Language): T {
  const refusal = job.status === 'FAILED' ? refusalOf(error) : null;
  const completed = job as T;
  if (lng) completed.model.displayName = modelName(job.model, lng);
  completed.result = result;
  completed.outdated = isOutdated(job.modelVersion, currentVersion);
  completed.failureReason = refusal && lng ? { ...refusal, message: localiseText(refusal.message, lng) } : refusal;
  return completed;
}

/**
 * The wire shape of user-app.md §3 "Job" for jobs by id, in the ids' order (one statement, and one more for results
 * not yet in the summary cache); unknown ids, and deleted jobs with `skipDeleted`, are left out. With `lng`, the
 * result items, model name and refusal read in that language (localise.ts); without, as stored.
 */
export async function presentJobIds(db: Db, ids: string[], opts: { lng?: Language; skipDeleted?: boolean } = {}): Promise<Job[]> {
  if (!ids.length) return [];
  const byId = new Map((await repo.presentedJobsByIds(db, [...new Set(ids)])).map((p) => [p.job.id, p]));
  const rows = ids.flatMap((id) => {
    const row = byId.get(id);
    return row && !(opts.skipDeleted && row.deleted) ? [row] : [];
  });
  return complete(db, rows, opts.lng);
}

/** A batch of job rows in the wire shape, in their order (presentJobIds). */
export function presentJobs(db: Db, rows: JobRow[], lng?: Language): Promise<Job[]> {
  return presentJobIds(
    db,
    rows.map((r) => r.id),
    { lng },
  );
}

/**
 * One page of the user's jobs as list rows (repo.presentedPageOfJobs: one statement, the results' briefs included)
 * and the total. A row's result is its brief (id, feedback flags, measurements), never its items: the page stays
 * small at any result size, and the full result comes with the job by id (issue 30).
 */
export async function presentPageOfJobs(db: Db, f: repo.JobPageFilter, lng?: Language): Promise<{ jobs: JobListRow[]; total: number }> {
  const { rows, total } = await repo.presentedPageOfJobs(db, f);
  return { jobs: rows.map((row) => completeRow<JobListRow>(row, (row.brief as JobResultBrief | null) ?? null, lng)), total };
}

/** One job the viewer may read (own and not deleted, or any for `anyOwner`), presented; undefined otherwise. */
export async function presentReadableJob(
  db: Db,
  id: string,
  viewer: { userId: string; anyOwner: boolean },
  lng?: Language,
): Promise<Job | undefined> {
  const row = await repo.presentedReadableJob(db, id, viewer);
  return row ? (await complete(db, [row], lng))[0] : undefined;
}

/** The analysis codes that mean "this input cannot be measured" (packages/analysis errors.ts): the user is told why. */
const REFUSALS = new Set([
  'UNSUPPORTED_IMAGE',
  'CORRUPT_IMAGE',
  'IMAGE_TOO_LARGE',
  'INVALID_CROP',
  'INVALID_MASK',
  'BLANK_IMAGE',
  'IMAGE_TOO_SMALL',
  'TOO_FEW_FEATURES',
  'NO_LAYER_FOUND',
  'NOT_A_GRAIN_STRUCTURE',
  'NOT_CRACK_LIKE',
]);

/** `CODE: message` of a model refusal → {code, message}; anything else (launcher faults, crashes) → null. */
export function refusalOf(error: string | null): { code: string; message: string } | null {
  const m = error ? /^([A-Z_]+): ([\s\S]+)$/.exec(error) : null;
  return m && REFUSALS.has(m[1]) ? { code: m[1], message: m[2] } : null;
}
