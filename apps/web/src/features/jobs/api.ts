/** Jobs, images and account calls as TanStack Query hooks, plus the realtime `job` event listener. */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { io } from 'socket.io-client';
import { api, ApiError } from '../../api/client';
import type { Account } from '../../api/types';
import type { CropBox, Job, SortBy, SortOrder, UploadedImage } from './types';
import { isRunning } from './types';

/** Job fetch interval (user-app.md §9, default 3000 ms). */
export const JOB_FETCH_INTERVAL = 3000;

export const JOBS_KEY = ['jobs'] as const;
export const IMAGES_KEY = ['images'] as const;
export const SANDBOX_KEY = ['sandbox'] as const;
export const ACCOUNT_KEY = ['account'] as const;

export interface JobsQuery {
  modelId?: string;
  archived?: boolean;
  pageSize: number;
  sortBy: SortBy;
  sortOrder: SortOrder;
}

export interface JobsPage {
  jobs: Job[];
  total: number;
  page: number;
  pageSize: number;
}

export async function fetchJobsPage(q: JobsQuery, page: number): Promise<JobsPage> {
  const res = await api.get<Response>('/jobs', {
    query: { archived: q.archived ?? false, modelId: q.modelId, page, pageSize: q.pageSize, sortBy: q.sortBy, sortOrder: q.sortOrder },
    as: 'response',
  });
  const jobs = (await res.json()) as Job[];
  return {
    jobs,
    total: Number(res.headers.get('x-total-count') ?? jobs.length),
    pageSize: Number(res.headers.get('x-page-size') ?? q.pageSize),
    page,
  };
}

const anyRunning = (jobs: Job[] | undefined) => !!jobs?.some((j) => isRunning(j.status));

/** The paged job list of one model (results page): infinite pages, polled while a visible job is running. */
export function useJobsInfinite(q: JobsQuery, enabled = true) {
  return useInfiniteQuery({
    queryKey: [...JOBS_KEY, 'list', q],
    queryFn: ({ pageParam }) => fetchJobsPage(q, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page * last.pageSize < last.total ? last.page + 1 : undefined),
    enabled,
    refetchInterval: (query) => (anyRunning(query.state.data?.pages.flatMap((p) => p.jobs)) ? JOB_FETCH_INTERVAL : false),
  });
}

/** One page of jobs (dashboard recent jobs, history). */
export function useJobsPage(q: JobsQuery, page = 1) {
  return useQuery({
    queryKey: [...JOBS_KEY, 'page', q, page],
    queryFn: () => fetchJobsPage(q, page),
    refetchInterval: (query) => (anyRunning(query.state.data?.jobs) ? JOB_FETCH_INTERVAL : false),
  });
}

export function useJob(id: string | null | undefined) {
  return useQuery({
    queryKey: [...JOBS_KEY, 'one', id],
    queryFn: () => api.get<Job>(`/jobs/${id}`),
    enabled: !!id,
    refetchInterval: (query) => (query.state.data && isRunning(query.state.data.status) ? JOB_FETCH_INTERVAL : false),
  });
}

export function useImages() {
  return useQuery({ queryKey: IMAGES_KEY, queryFn: () => api.get<UploadedImage[]>('/image') });
}

export function useAccount() {
  return useQuery({ queryKey: ACCOUNT_KEY, queryFn: () => api.get<Account>('/users/me/account') });
}

export function invalidateJobs(qc: QueryClient) {
  void qc.invalidateQueries({ queryKey: JOBS_KEY });
  void qc.invalidateQueries({ queryKey: SANDBOX_KEY });
}

export function useRunJobs() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { imageIds: string[]; modelIds: string[]; projectId?: string }) => api.post<Job[]>('/jobs', body),
    onSettled: () => {
      invalidateJobs(qc);
      void qc.invalidateQueries({ queryKey: ACCOUNT_KEY });
    },
  });
}

export interface RerunBody {
  jobsIds: string[];
  withCrop?: CropBox;
  withUserMasks?: true;
  modelId?: string;
}

export function useRerun() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: RerunBody) => api.post<Job[]>('/jobs/rerun', body),
    onSettled: () => invalidateJobs(qc),
  });
}

export function useBulkAction(action: 'archive' | 'unarchive' | 'delete') {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (jobsIds: string[]) => api.post<unknown>(`/jobs/${action}`, { jobsIds }),
    onSettled: () => invalidateJobs(qc),
  });
}

/** GET /jobs/export?jobsIds=…: downloads the CSV through a temporary link. */
export async function exportCsv(jobsIds: string[]): Promise<void> {
  const qs = new URLSearchParams();
  for (const id of jobsIds) qs.append('jobsIds', id);
  const res = await fetch(`/api/jobs/export?${qs.toString()}`, { credentials: 'include' });
  if (!res.ok) throw new ApiError(res.status, 'HTTP_' + res.status, res.statusText);
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = 'lamella-results.csv';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * POST /images with upload progress (fetch has none): one request per file so each file gets its own bar.
 * Resolves with the stored images, rejects with an ApiError carrying the server's `{code, message}`.
 */
export function uploadImage(file: File, onProgress: (fraction: number) => void): { promise: Promise<UploadedImage[]>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<UploadedImage[]>((resolve, reject) => {
    xhr.open('POST', '/api/images');
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: { code?: string; message?: string } | UploadedImage[] | undefined;
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300 && Array.isArray(body)) {
        onProgress(1);
        resolve(body);
      } else {
        const b = (body && !Array.isArray(body) ? body : {}) as { code?: string; message?: string };
        reject(new ApiError(xhr.status, b.code ?? 'HTTP_' + xhr.status, b.message ?? xhr.statusText));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK_ERROR', 'network error'));
    xhr.onabort = () => reject(new ApiError(0, 'ABORTED', 'aborted'));
    const form = new FormData();
    form.append('files', file, file.name);
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}

let socketUsers = 0;
let socket: ReturnType<typeof io> | null = null;

/** Listens to the socket.io `job` event of the signed-in user and refreshes the job queries on it. */
export function useJobEvents() {
  const qc = useQueryClient();
  useEffect(() => {
    socketUsers += 1;
    if (!socket) socket = io({ path: '/socket.io', withCredentials: true, transports: ['websocket', 'polling'] });
    const s = socket;
    const onJob = () => invalidateJobs(qc);
    s.on('job', onJob);
    return () => {
      s.off('job', onJob);
      socketUsers -= 1;
      if (socketUsers === 0 && socket) {
        socket.disconnect();
        socket = null;
      }
    };
  }, [qc]);
}

export const imageUrl = {
  original: (id: string) => `/api/image/${id}`,
  thumbnail: (id: string) => `/api/image/${id}/thumbnail`,
  display: (id: string) => `/api/image/${id}/display`,
  result: (resultId: string, filename: string) => `/api/jobs/results/${resultId}/${encodeURIComponent(filename)}`,
  mask: (id: string) => `/api/masks/${id}/image`,
};
