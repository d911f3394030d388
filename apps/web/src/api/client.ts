/**
 * The one client of the Lamella API. `call(endpoint, input)` takes an endpoint of packages/contracts, so its
 * path, params, query, body and answer are typed from the same TypeBox schemas the server validates with.
 * Cookies are always included; every failure is an ApiError.
 */
import type { EndpointDef, EndpointResult } from '@lamella/contracts';
import { apiUrl, endpointUrl, target, type CallInput, type Input, type Optional, type QueryInput } from './url';

export { apiUrl, endpointUrl, pathOf, queryString, type CallInput, type QueryInput, type QueryValue } from './url';

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

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface RequestOptions {
  body?: unknown;
  /** Query parameters (see QueryValue). */
  query?: QueryInput;
  /** Expected response: parsed JSON (default), a Blob, or the raw Response. */
  as?: 'json' | 'blob' | 'response';
  signal?: AbortSignal;
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
    res = await fetch(apiUrl(path, options.query), {
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

/** The URL of an endpoint for <img src>, downloads, links and XMLHttpRequest uploads (the same builder as every call). */
export const urlOf = endpointUrl;
