/** A small fetch client for the Lamella API: cookies always included, JSON in and out, one error type. */

export interface ApiErrorDetail {
  field: string;
  message: string;
  key?: string;
}

/** Carries the server's error shape `{statusCode, code, message, details?}`. */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly details: ApiErrorDetail[];

  constructor(statusCode: number, code: string, message: string, details: ApiErrorDetail[] = []) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    this.code = code;
    this.details = details;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

const BASE = '/api';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface RequestOptions {
  body?: unknown;
  /** Query parameters; undefined values are skipped. */
  query?: Record<string, string | number | boolean | undefined>;
  /** Expected response: parsed JSON (default), a Blob, or the raw Response. */
  as?: 'json' | 'blob' | 'response';
  signal?: AbortSignal;
}

function buildUrl(path: string, query?: RequestOptions['query']): string {
  const url = `${BASE}${path}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

async function toApiError(res: Response): Promise<ApiError> {
  let body: Partial<{ statusCode: number; code: string; message: string; details: ApiErrorDetail[] }> = {};
  try {
    body = (await res.json()) as typeof body;
  } catch {
    // not JSON (proxy error page, network hiccup): keep the status only
  }
  return new ApiError(
    body.statusCode ?? res.status,
    body.code ?? 'HTTP_' + res.status,
    body.message ?? res.statusText,
    Array.isArray(body.details) ? body.details : [],
  );
}

export async function request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let res: Response;
  try {
    res = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      body,
      credentials: 'include',
      signal: options.signal,
    });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ApiError(0, 'NETWORK_ERROR', (e as Error).message);
  }
  if (!res.ok) throw await toApiError(res);
  if (options.as === 'response') return res as T;
  if (options.as === 'blob') return (await res.blob()) as T;
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};

/** The SuperTokens-shaped `formFields` body of the auth calls. */
export function formFields(values: Record<string, unknown>): { formFields: { id: string; value: unknown }[] } {
  return { formFields: Object.entries(values).map(([id, value]) => ({ id, value })) };
}
