/** The jobs and images calls as TanStack Query hooks (contract endpoints), plus the realtime `job` event listener. */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import {
  imagesApi,
  jobsApi,
  masksApi,
  type CreateJobsBody,
  type Image,
  type JobListRow,
  type ListJobsQuery,
  type RerunJobsBody,
} from '@lamella/contracts';
import { ApiError, call, callRaw, urlOf } from '../../api/client';
import { isRunning } from './types';

/** Job fetch interval (user-app.md §9, default 3000 ms). */
export const JOB_FETCH_INTERVAL = 3000;

export const JOBS_KEY = ['jobs'] as const;
export const IMAGES_KEY = ['images'] as const;
export const SANDBOX_KEY = ['sandbox'] as const;
export const ACCOUNT_KEY = ['account'] as const;

/** What a jobs list asks for (the page number is added per page). */
export type JobsQuery = Required<Pick<ListJobsQuery, 'pageSize' | 'sortBy' | 'sortOrder'>> &
  Pick<ListJobsQuery, 'modelId' | 'archived' | 'status' | 'from' | 'to' | 'name'>;

/** A page of GET /jobs: its rows carry the result's brief (JobListRow); the full result comes with useJob. */
export interface JobsPage {
  jobs: JobListRow[];
  total: number;
  page: number;
  pageSize: number;
}

/** One page of GET /jobs; the total and the page size come in the x-total-count and x-page-size headers. */
export async function fetchJobsPage(q: JobsQuery, page: number): Promise<JobsPage> {
  const res = await callRaw(jobsApi.list, { query: { ...q, archived: q.archived ?? false, page } });
  const jobs = (await res.json()) as JobListRow[];
  return {
    jobs,
    total: Number(res.headers.get('x-total-count') ?? jobs.length),
    pageSize: Number(res.headers.get('x-page-size') ?? q.pageSize),
    page,
  };
}

const anyRunning = (jobs: JobListRow[] | undefined) => !!jobs?.some((j) => isRunning(j.status));

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
    queryFn: () => call(jobsApi.get, { params: { id: id! } }),
    enabled: !!id,
    refetchInterval: (query) => (query.state.data && isRunning(query.state.data.status) ? JOB_FETCH_INTERVAL : false),
  });
}

export function useImages() {
  return useQuery({ queryKey: IMAGES_KEY, queryFn: () => call(imagesApi.list) });
}

export function invalidateJobs(qc: QueryClient) {
  void qc.invalidateQueries({ queryKey: JOBS_KEY });
  void qc.invalidateQueries({ queryKey: SANDBOX_KEY });
}

export function useRunJobs() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateJobsBody) => call(jobsApi.create, { body }),
    onSettled: () => {
      invalidateJobs(qc);
      void qc.invalidateQueries({ queryKey: ACCOUNT_KEY });
    },
  });
}

export function useRerun() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: RerunJobsBody) => call(jobsApi.rerun, { body }),
    onSettled: () => invalidateJobs(qc),
  });
}

const bulk = { archive: jobsApi.archive, unarchive: jobsApi.unarchive, delete: jobsApi.remove } as const;

export function useBulkAction(action: keyof typeof bulk) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (jobsIds: string[]) => call(bulk[action], { body: { jobsIds } }),
    onSettled: () => invalidateJobs(qc),
  });
}

/** GET /jobs/export?jobsIds=…&format=csv|xlsx: downloads the export through a temporary link. */
export async function exportJobs(jobsIds: string[], format: 'csv' | 'xlsx' = 'csv'): Promise<void> {
  const res = await callRaw(jobsApi.export, { query: { jobsIds, format } });
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `lamella-results.${format}`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * POST /images with upload progress (fetch has none): one request per file so each file gets its own bar.
 * Resolves with the stored images, rejects with an ApiError carrying the server's `{code, message}`.
 */
export function uploadImage(
  file: File,
  onProgress: (fraction: number) => void,
  pixelSizeUm: string | null = null,
): { promise: Promise<Image[]>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<Image[]>((resolve, reject) => {
    xhr.open(imagesApi.upload.method, urlOf(imagesApi.upload));
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: { code?: string; message?: string } | Image[] | undefined;
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
    if (pixelSizeUm) form.append('pixelSizeUm', pixelSizeUm);
    form.append('files', file, file.name);
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- socket.io's listeners and emits take any arguments
type Listener = (...args: any[]) => void;

/**
 * The page's realtime connection as its listeners use it. The socket.io client is loaded by a dynamic import once
 * the first listener has mounted and the browser is idle (it is not part of the app's first load); until then
 * listeners are kept and emits queued (socket.io itself buffers emits until it is connected), then handed to it.
 */
export class RealtimeSocket {
  private real: import('socket.io-client').Socket | null = null;
  private readonly listeners: Array<[string, Listener]> = [];
  private readonly queued: Array<[string, unknown[]]> = [];
  private closed = false;

  constructor() {
    // after the page's first load: when the browser is idle (at the latest 2 s on)
    const idle = new Promise<void>((resolve) =>
      typeof requestIdleCallback === 'function' ? requestIdleCallback(() => resolve(), { timeout: 2000 }) : setTimeout(resolve, 200),
    );
    void idle
      .then(() => import('socket.io-client'))
      .then(({ io }) => {
        if (this.closed) return;
        const s = io({ path: '/socket.io', withCredentials: true, transports: ['websocket', 'polling'] });
        for (const [event, listener] of this.listeners) s.on(event, listener);
        for (const [event, args] of this.queued.splice(0)) s.emit(event, ...args);
        this.real = s;
      });
  }

  get connected(): boolean {
    return this.real?.connected ?? false;
  }

  on(event: string, listener: Listener): this {
    this.listeners.push([event, listener]);
    this.real?.on(event, listener);
    return this;
  }

  off(event: string, listener: Listener): this {
    const i = this.listeners.findIndex(([e, l]) => e === event && l === listener);
    if (i >= 0) this.listeners.splice(i, 1);
    this.real?.off(event, listener);
    return this;
  }

  emit(event: string, ...args: unknown[]): this {
    if (this.real) this.real.emit(event, ...args);
    else this.queued.push([event, args]);
    return this;
  }

  disconnect(): void {
    this.closed = true;
    this.real?.disconnect();
  }
}

let socketUsers = 0;
let socket: RealtimeSocket | null = null;

/** The one socket.io connection of the page, shared by its listeners (connected while any listener is mounted). */
export function acquireSocket(): RealtimeSocket {
  socketUsers += 1;
  if (!socket) socket = new RealtimeSocket();
  return socket;
}

export function releaseSocket(): void {
  socketUsers -= 1;
  if (socketUsers === 0 && socket) {
    socket.disconnect();
    socket = null;
  }
}

/** Listens to the socket.io `job` event of the signed-in user and refreshes the job queries on it. */
export function useJobEvents() {
  const qc = useQueryClient();
  useEffect(() => {
    const s = acquireSocket();
    const onJob = () => invalidateJobs(qc);
    s.on('job', onJob);
    return () => {
      s.off('job', onJob);
      releaseSocket();
    };
  }, [qc]);
}

/** Addresses of images and result files (for <img src> and links). */
export const imageUrl = {
  original: (id: string) => urlOf(imagesApi.original, { params: { id } }),
  thumbnail: (id: string) => urlOf(imagesApi.thumbnail, { params: { id } }),
  display: (id: string) => urlOf(imagesApi.display, { params: { id } }),
  result: (resultId: string, filename: string) => urlOf(jobsApi.resultFile, { params: { resultId, filename } }),
  mask: (id: string) => urlOf(masksApi.image, { params: { id } }),
};
