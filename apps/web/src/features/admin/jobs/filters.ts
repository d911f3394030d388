/** The admin jobs list state kept in the query string (back-office.md §2 "Jobs list", §4, §9). */
import { adminJobsApi, type AdminJobsQuery, type AdminJobsReportQuery } from '@lamella/contracts';
import { urlOf } from '../../../api/client';
import type { JobStatus } from '../../../lib/jobStatus';

/** Order of the statuses in the filter (back-office.md); badge colours come from lib/jobStatus.ts. */
export const JOB_STATUSES = ['NEW', 'CACHED', 'FAILED', 'PENDING', 'FINISHED'] as const satisfies readonly JobStatus[];
export const JOB_SOURCES = ['WEB', 'API', 'SANDBOX', 'IDENTIFICATION', 'TEST'] as const;
export const DELETED_OPTIONS = ['ALL', 'NOT_DELETED', 'DELETED'] as const;
export type DeletedFilter = (typeof DELETED_OPTIONS)[number];

/** Toggleable columns, in display order (Job Date is always shown). */
export const JOB_COLUMNS = [
  'owner',
  'company',
  'userRating',
  'adminRating',
  'duration',
  'waitTime',
  'status',
  'source',
  'model',
  'project',
  'image',
  'deleted',
  'submittedMasks',
] as const;
export type JobColumn = (typeof JOB_COLUMNS)[number];
export const DEFAULT_COLUMNS: JobColumn[] = ['owner', 'company', 'status', 'source', 'model'];

export const JOBS_PAGE_SIZE = 100;

export interface JobFilters {
  startDate?: string;
  endDate?: string;
  modelId?: string;
  userId?: string;
  company?: string;
  deleted: DeletedFilter;
  withUserFeedback: boolean;
  withAdminFeedback: boolean;
  withSubmittedMasks: boolean;
  status?: string;
  source?: string;
  sortKey?: string;
  sortOrder?: 'asc' | 'desc';
  columns: JobColumn[];
}

export const DEFAULT_FILTERS: JobFilters = {
  deleted: 'NOT_DELETED',
  withUserFeedback: false,
  withAdminFeedback: false,
  withSubmittedMasks: false,
  columns: DEFAULT_COLUMNS,
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const text = (v: string | null) => (v && v.trim() ? v.trim() : undefined);
const flag = (v: string | null) => v === 'true' || v === '1';
const oneOf = <T extends string>(v: string | null, list: readonly T[]): T | undefined =>
  v && (list as readonly string[]).includes(v) ? (v as T) : undefined;

export function decodeFilters(params: URLSearchParams): JobFilters {
  const columnsParam = params.get('columns');
  const columns = columnsParam === null ? DEFAULT_COLUMNS : JOB_COLUMNS.filter((c) => columnsParam.split(',').includes(c));
  const date = (k: string) => {
    const v = params.get(k);
    return v && DATE.test(v) ? v : undefined;
  };
  return {
    startDate: date('startDate'),
    endDate: date('endDate'),
    modelId: text(params.get('modelId')),
    userId: text(params.get('userId')),
    company: text(params.get('company')),
    deleted: oneOf(params.get('deleted'), DELETED_OPTIONS) ?? 'NOT_DELETED',
    withUserFeedback: flag(params.get('withUserFeedback')),
    withAdminFeedback: flag(params.get('withAdminFeedback')),
    withSubmittedMasks: flag(params.get('withSubmittedMasks')),
    status: oneOf(params.get('status'), JOB_STATUSES),
    source: oneOf(params.get('source'), JOB_SOURCES),
    sortKey: text(params.get('sortKey')),
    sortOrder: oneOf(params.get('sortOrder'), ['asc', 'desc'] as const),
    columns,
  };
}

/** Filters only (no columns): what the list call and the CSV reports take. Defaults are left out, except `deleted`. */
export function filterParams(f: JobFilters): URLSearchParams {
  const p = new URLSearchParams();
  if (f.startDate) p.set('startDate', f.startDate);
  if (f.endDate) p.set('endDate', f.endDate);
  if (f.modelId) p.set('modelId', f.modelId);
  if (f.userId) p.set('userId', f.userId);
  if (f.company) p.set('company', f.company);
  p.set('deleted', f.deleted);
  if (f.withUserFeedback) p.set('withUserFeedback', 'true');
  if (f.withAdminFeedback) p.set('withAdminFeedback', 'true');
  if (f.withSubmittedMasks) p.set('withSubmittedMasks', 'true');
  if (f.status) p.set('status', f.status);
  if (f.source) p.set('source', f.source);
  if (f.sortKey) {
    p.set('sortKey', f.sortKey);
    p.set('sortOrder', f.sortOrder ?? 'desc');
  }
  return p;
}

/** The page's query string: the filters, `deleted` only when not the default, `columns` only when changed. */
export function encodeFilters(f: JobFilters): URLSearchParams {
  const p = filterParams(f);
  if (f.deleted === 'NOT_DELETED') p.delete('deleted');
  const same = f.columns.length === DEFAULT_COLUMNS.length && DEFAULT_COLUMNS.every((c) => f.columns.includes(c));
  if (!same) p.set('columns', f.columns.join(','));
  return p;
}

/** The filters as the list call and the reports take them (AdminJobsQuery). */
function filterQuery(f: JobFilters): AdminJobsQuery {
  const q = Object.fromEntries(filterParams(f)) as Record<string, string>;
  return { ...q, sortOrder: q.sortOrder as AdminJobsQuery['sortOrder'] } as AdminJobsQuery;
}

/** Query of GET /admin/jobs for one page. */
export function listQuery(f: JobFilters, page: number | undefined): AdminJobsQuery {
  const q: AdminJobsQuery = { ...filterQuery(f), columns: ['createdAt', ...f.columns], pageSize: JOBS_PAGE_SIZE };
  if (!q.sortOrder) delete q.sortOrder;
  if (page !== undefined) q.page = page;
  return q;
}

/** Query of GET /admin/jobs/count: the filters only (the count ignores sort, page and columns). */
export function countQuery(f: JobFilters): AdminJobsQuery {
  const { sortKey: _k, sortOrder: _o, ...q } = filterQuery(f);
  return q;
}

/** The report download links (same filters); `xlsx` for the Excel file (CSV by default). */
export function reportUrl(kind: 'report' | 'masks-report', f: JobFilters, format: 'csv' | 'xlsx' = 'csv'): string {
  const q: AdminJobsReportQuery = filterQuery(f);
  if (!q.sortOrder) delete q.sortOrder;
  if (format === 'xlsx') q.format = format;
  return urlOf(kind === 'report' ? adminJobsApi.report : adminJobsApi.masksReport, { query: q });
}

/** Clicking a column header: a new key sorts descending, the same key flips the order. */
export function nextSort(f: JobFilters, key: string): Pick<JobFilters, 'sortKey' | 'sortOrder'> {
  if (f.sortKey !== key) return { sortKey: key, sortOrder: 'desc' };
  return { sortKey: key, sortOrder: f.sortOrder === 'desc' ? 'asc' : 'desc' };
}
