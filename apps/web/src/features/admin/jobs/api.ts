/** Admin jobs calls (back-office.md §7 "Jobs"). Shapes are read tolerantly: the spec does not pin all of them. */
import { api } from '../../../api/client';
import type { JobFilters } from './filters';
import { listQuery } from './filters';

export interface PersonRef {
  id?: string;
  name?: string | null;
  surname?: string | null;
  email?: string | null;
  company?: string | null;
  address?: { company?: string | null } | null;
}

export interface AdminFeedback {
  id: string;
  scaleNumber: number;
  scaleLength: number;
  resin: number;
  results: number;
  comment?: string | null;
  createdAt: string;
  user?: { name?: string | null; surname?: string | null } | null;
}

export interface AdminJob {
  id: string;
  status: string;
  source: string;
  createdAt: string;
  startedAt?: string | null;
  finishedAt?: string | null;
  modelVersion?: string | null;
  model?: { id: string; displayName?: string | null; name?: string | null; internalName?: string | null } | null;
  executor?: { id: string; node?: { name?: string | null } | null; nodeName?: string | null } | null;
  image?: {
    id?: string;
    orginalFilename?: string | null;
    originalFilename?: string | null;
    filename?: string | null;
    width?: number | null;
    height?: number | null;
    format?: string | null;
    size?: number | null;
    meta?: { width?: number; height?: number; format?: string } | null;
  } | null;
  result?: { items?: unknown[] } | unknown[] | null;
  error?: string | null;
  owner?: PersonRef | null;
  company?: string | null;
  project?: { name?: string | null } | null;
  masks?:
    { id: string; isSubmitted?: boolean; label?: string | null; filename?: string | null; parentId?: string | null; createdAt?: string }[] | null;
  editedMasks?:
    { id: string; isSubmitted?: boolean; label?: string | null; filename?: string | null; parentId?: string | null; createdAt?: string }[] | null;
  submittedMasks?: number | null;
  submittedMasksCount?: number | null;
  userFeedback?: { rating?: number | null; comment?: string | null } | null;
  userRating?: number | null;
  adminFeedback?: AdminFeedback[] | null;
  adminRating?: { mean?: number | null; average?: number | null; count?: number | null } | number | null;
  adminRatingCount?: number | null;
  duration?: number | null;
  durationMs?: number | null;
  waitTime?: number | null;
  waitMs?: number | null;
  deleted?: boolean | null;
}

export interface JobsPage {
  data: AdminJob[];
  page: number;
  hasNextPage: boolean;
}

export interface ModelShort {
  id: string;
  displayName: string;
  name?: string;
}

export interface FeedbackBody {
  scaleNumber: number;
  scaleLength: number;
  resin: number;
  results: number;
  comment?: string;
}

export const adminJobsApi = {
  list: (f: JobFilters, page: number | undefined) => api.get<JobsPage>('/admin/jobs', { query: listQuery(f, page) }),
  get: (id: string) => api.get<AdminJob>(`/admin/jobs/${id}`),
  addFeedback: (jobId: string, body: FeedbackBody) => api.post<AdminFeedback>(`/admin/jobs/${jobId}/feedback`, body),
  removeFeedback: (id: string) => api.delete<void>(`/admin/feedback/admin/${id}`),
  models: () => api.get<ModelShort[]>('/admin/compute-models/list'),
};

export const fullName = (p: PersonRef | null | undefined) => (p ? [p.name, p.surname].filter(Boolean).join(' ') || p.email || p.id || '—' : '—');

export const companyOf = (j: AdminJob) => j.company ?? j.owner?.company ?? j.owner?.address?.company ?? null;

/** Mean of the four scores of one admin feedback. */
export const feedbackScore = (f: Pick<AdminFeedback, 'scaleNumber' | 'scaleLength' | 'resin' | 'results'>) =>
  (f.scaleNumber + f.scaleLength + f.resin + f.results) / 4;

/** Average of the admin feedback means and the vote count. */
export function adminRating(j: AdminJob): { mean: number | null; count: number } {
  if (Array.isArray(j.adminFeedback)) {
    const n = j.adminFeedback.length;
    return { mean: n ? j.adminFeedback.reduce((s, f) => s + feedbackScore(f), 0) / n : null, count: n };
  }
  if (typeof j.adminRating === 'number') return { mean: j.adminRating, count: j.adminRatingCount ?? 1 };
  if (j.adminRating && typeof j.adminRating === 'object') {
    return { mean: j.adminRating.mean ?? j.adminRating.average ?? null, count: j.adminRating.count ?? 0 };
  }
  return { mean: null, count: 0 };
}

export const durationMs = (j: AdminJob) => j.durationMs ?? j.duration ?? null;
export const waitMs = (j: AdminJob) => j.waitMs ?? j.waitTime ?? null;
export const submittedMasks = (j: AdminJob) =>
  j.submittedMasks ?? j.submittedMasksCount ?? (Array.isArray(j.masks) ? j.masks.filter((m) => m.isSubmitted).length : null);
export const resultItems = (j: AdminJob): unknown[] => (Array.isArray(j.result) ? j.result : Array.isArray(j.result?.items) ? j.result.items : []);
export const imageName = (j: AdminJob) => j.image?.orginalFilename ?? j.image?.originalFilename ?? j.image?.filename ?? null;
