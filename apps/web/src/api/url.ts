/**
 * The one URL builder of the web client: every call, raw call and link of `client.ts` is built here, from an
 * endpoint of packages/contracts and its params and query. Pure (no DOM), so the server's tests can use it too.
 */
import type { EndpointBody, EndpointDef, EndpointParams, EndpointQuery } from '@lamella/contracts';

export const API_BASE = '/api';

/** A query parameter: scalars once, arrays as the key repeated (`jobsIds=a&jobsIds=b`); undefined and null are left out. */
export type QueryValue = string | number | boolean | undefined | null | ReadonlyArray<string | number | boolean>;
export type QueryInput = Record<string, QueryValue>;

const encode = (k: string, v: string | number | boolean) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`;

/** `a=1&b=x%20y&ids=1&ids=2`: every key and value percent-encoded (spaces as %20, never `+`), arrays repeated. */
export function queryString(query: QueryInput | undefined): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const item of v as ReadonlyArray<string | number | boolean>) parts.push(encode(k, item));
    else parts.push(encode(k, v as string | number | boolean));
  }
  return parts.join('&');
}

/** `/api` + path + the query after exactly one `?` (joined with `&` when the path already carries a query). */
export function apiUrl(path: string, query?: QueryInput): string {
  const url = `${API_BASE}${path}`;
  const qs = queryString(query);
  if (!qs) return url;
  if (!url.includes('?')) return `${url}?${qs}`;
  return url.endsWith('?') || url.endsWith('&') ? url + qs : `${url}&${qs}`;
}

type Part<K extends string, T> = [T] extends [never] ? { [P in K]?: never } : { [P in K]: T };
/** What a call of endpoint E takes: `params`, `query` and `body` exactly where E declares them. */
export type CallInput<E extends EndpointDef> = Part<'params', EndpointParams<E>> &
  ([EndpointQuery<E>] extends [never] ? { query?: never } : { query?: Partial<EndpointQuery<E>> }) &
  Part<'body', E extends { consumes: readonly string[] } ? FormData : EndpointBody<E>> & {
    signal?: AbortSignal;
  };

/** `/jobs/:id` with `{id}` → `/jobs/3f…` (each value URI-encoded). */
export function pathOf(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}

export type Input = { params?: unknown; query?: unknown; body?: unknown; signal?: AbortSignal };
/** The input may be left out when nothing in it is required. */
export type Optional<T> = Partial<T> extends T ? [input?: T] : [input: T];

/** Path (params substituted) and query of one call of `endpoint`. */
export function target<E extends EndpointDef>(endpoint: E, input: Input = {}) {
  return { path: pathOf(endpoint.path, input.params as Record<string, unknown>), query: input.query as QueryInput | undefined };
}

/** The full URL of one call of `endpoint` (any method): what call and callRaw request. */
export function endpointUrl<E extends EndpointDef>(endpoint: E, ...[input]: Optional<Omit<CallInput<E>, 'body' | 'signal'>>): string {
  const { path, query } = target(endpoint, (input ?? {}) as Input);
  return apiUrl(path, query);
}
