/** Admin jobs calls (back-office.md §7 "Jobs"), typed from the contracts (packages/contracts/src/admin-jobs.ts). */
import {
  adminJobsApi as endpoints,
  computeModelsApi,
  type AdminFeedback,
  type AdminFeedbackBody,
  type AdminJobDetail,
  type AdminJobRow,
} from '@lamella/contracts';
import { call } from '../../../api/client';
import type { JobFilters } from './filters';
import { countQuery, listQuery } from './filters';

export const adminJobsApi = {
  list: (f: JobFilters, page: number | undefined) => call(endpoints.list, { query: listQuery(f, page) }),
  /** How many jobs the filters select ("N jobs match"). */
  count: (f: JobFilters) => call(endpoints.count, { query: countQuery(f) }),
  get: (id: string) => call(endpoints.get, { params: { id } }),
  addFeedback: (jobId: string, body: AdminFeedbackBody) => call(endpoints.addFeedback, { params: { jobId }, body }),
  removeFeedback: (id: string) => call(endpoints.removeFeedback, { params: { id } }),
  models: () => call(computeModelsApi.short),
  rerun: (id: string) => call(endpoints.rerun, { params: { id } }),
  nextToRate: (after?: string) => call(endpoints.nextToRate, { query: after ? { after } : {} }),
};

type Person = (Pick<AdminJobRow['owner'], 'name' | 'surname'> & Partial<Pick<AdminJobRow['owner'], 'email' | 'id'>>) | null | undefined;
export const fullName = (p: Person) => (p ? [p.name, p.surname].filter(Boolean).join(' ') || p.email || p.id || '—' : '—');

export const companyOf = (j: AdminJobRow) => j.company ?? j.owner.company ?? null;

/** Mean of the four scores of one admin feedback. */
export const feedbackScore = (f: Pick<AdminFeedback, 'scaleNumber' | 'scaleLength' | 'resin' | 'results'>) =>
  (f.scaleNumber + f.scaleLength + f.resin + f.results) / 4;

/** Average of the admin feedback means and the vote count: from the feedback list on the detail, else the row's. */
export function adminRating(
  j: Pick<AdminJobRow, 'adminRating'> & { adminFeedback?: Pick<AdminFeedback, 'scaleNumber' | 'scaleLength' | 'resin' | 'results'>[] },
) {
  if (j.adminFeedback) {
    const n = j.adminFeedback.length;
    return { mean: n ? j.adminFeedback.reduce((s, f) => s + feedbackScore(f), 0) / n : null, count: n };
  }
  return { mean: j.adminRating.mean, count: j.adminRating.count };
}

/** Number of result items of a finished job (the result's `items` list). */
export const resultItems = (j: AdminJobDetail): unknown[] => (Array.isArray(j.result?.items) ? j.result.items : []);
export const imageName = (j: AdminJobRow) => j.image.orginalFilename ?? j.image.filename ?? null;

/** Image result items (overlays drawn by the model) of a finished job: their file names and titles. */
export function overlayItems(j: AdminJobDetail): Array<{ filename: string; title: string | null }> {
  return resultItems(j).flatMap((i) => {
    const item = i as { type?: unknown; filename?: unknown; title?: unknown };
    return item.type === 'image' && typeof item.filename === 'string'
      ? [{ filename: item.filename, title: typeof item.title === 'string' ? item.title : null }]
      : [];
  });
}

/** The result's key values: its measurements with a number, text or yes/no value (nested objects left out). */
export function keyValues(j: AdminJobDetail): Array<[string, string | number | boolean]> {
  const m = j.result?.measurements;
  if (!m || typeof m !== 'object' || Array.isArray(m)) return [];
  return Object.entries(m as Record<string, unknown>).flatMap(([k, v]) =>
    typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean' ? [[k, v] as [string, string | number | boolean]] : [],
  );
}
