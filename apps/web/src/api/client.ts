/**
 * The one client of the Lamella API. `call(endpoint, input)` takes an endpoint of packages/contracts, so its
 * path, params, query, body and answer are typed from the same TypeBox schemas the server validates with.
 * Cookies are always included; every failure is an ApiError.
 */
import type { EndpointBody, EndpointDef, EndpointParams, EndpointQuery, EndpointResult } from '@lamella/contracts';

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

async function request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
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

/** The SuperTokens-shaped `formFields` body of the auth calls. */
export function formFields(values: Record<string, unknown>): { formFields: { id: string; value: unknown }[] } {
  return { formFields: Object.entries(values).map(([id, value]) => ({ id, value })) };
}

type Part<K extends string, T> = [T] extends [never] ? { [P in K]?: never } : { [P in K]: T };
/** What a call of endpoint E takes: `params`, `query` and `body` exactly where E declares them. */
export type CallInput<E extends EndpointDef> = Part<'params', EndpointParams<E>> &
  ([EndpointQuery<E>] extends [never] ? { query?: never } : { query?: Partial<EndpointQuery<E>> }) &
  Part<'body', E extends { consumes: readonly string[] } ? FormData : EndpointBody<E>> & {
    signal?: AbortSignal;
  };

type Query = Record<string, string | number | boolean | undefined | null | ReadonlyArray<string | number>>;

/** `/jobs/:id` with `{id}` → `/jobs/3f…` (each value URI-encoded). */
export function pathOf(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}

function flatQuery(query: Query | undefined): RequestOptions['query'] {
  if (!query) return undefined;
  const out: Record<string, string | number | boolean | undefined> = {};
  for (const [k, v] of Object.entries(query)) if (v !== null && !Array.isArray(v)) out[k] = v as string | number | boolean | undefined;
  return out;
}

function arrayQuery(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (Array.isArray(v)) for (const item of v) params.append(k, String(item));
  return params.toString();
}

type Input = { params?: unknown; query?: unknown; body?: unknown; signal?: AbortSignal };
/** The input may be left out when nothing in it is required. */
type Optional<T> = Partial<T> extends T ? [input?: T] : [input: T];

function target<E extends EndpointDef>(endpoint: E, input: Input = {}) {
  const arrays = arrayQuery(input.query as Query);
  const path = pathOf(endpoint.path, input.params as Record<string, unknown>);
  return { path: arrays ? `${path}?${arrays}` : path, query: flatQuery(input.query as Query) };
}

/** Calls a contract endpoint and answers its typed JSON result. */
export function call<E extends EndpointDef>(endpoint: E, ...[input]: Optional<CallInput<E>>): Promise<EndpointResult<E>> {
  const i = (input ?? {}) as Input;
  const { path, query } = target(endpoint, i);
  return request<EndpointResult<E>>(endpoint.method, path, { body: i.body, query, signal: i.signal });
}

/** Calls a contract endpoint and answers the raw Response (headers such as x-total-count, or a file). */
export function callRaw<E extends EndpointDef>(endpoint: E, ...[input]: Optional<CallInput<E>>): Promise<Response> {
  const i = (input ?? {}) as Input;
  const { path, query } = target(endpoint, i);
  return request<Response>(endpoint.method, path, { body: i.body, query, signal: i.signal, as: 'response' });
}

/** The URL of a GET endpoint (for <img src>, downloads and links). */
export function urlOf<E extends EndpointDef>(endpoint: E, ...[input]: Optional<Omit<CallInput<E>, 'body' | 'signal'>>): string {
  const { path, query } = target(endpoint, (input ?? {}) as Input);
  return buildUrl(path, query);
}
