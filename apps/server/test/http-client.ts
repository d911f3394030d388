/**
 * A small HTTP client with a cookie jar, talking to a listening server over real HTTP. `call(endpoint, input)`
 * takes an endpoint of packages/contracts: path, params, query and body are typed from its schemas and so is
 * the answer's body (on a 2xx; a failure's body is the error shape `{statusCode, code, message, details?}`).
 */
import type { EndpointBody, EndpointDef, EndpointParams, EndpointQuery, EndpointResult } from '@lamella/contracts';

export interface Res<T = any> {
  status: number;
  body: T;
  headers: Headers;
  buffer: Buffer;
}

export class HttpClient {
  readonly cookies = new Map<string, string>();
  constructor(
    readonly baseUrl: string,
    readonly defaultHeaders: Record<string, string> = {},
  ) {}

  async request<T = any>(
    method: string,
    path: string,
    opts: { json?: unknown; form?: FormData; headers?: Record<string, string> } = {},
  ): Promise<Res<T>> {
    const headers: Record<string, string> = { ...this.defaultHeaders, ...opts.headers };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | FormData | undefined;
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.json);
    } else if (opts.form) body = opts.form;
    const res = await fetch(this.baseUrl + path, { method, headers, body, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      const expired =
        attrs.some((a) => /^\s*expires=/i.test(a) && new Date(a.split('=')[1]).getTime() < Date.now()) || attrs.some((a) => /^\s*max-age=0/i.test(a));
      if (!value || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const buffer = Buffer.from(await res.arrayBuffer());
    const type = res.headers.get('content-type') ?? '';
    const parsed = type.includes('application/json') && buffer.length ? JSON.parse(buffer.toString('utf8')) : buffer.toString('utf8');
    return { status: res.status, body: parsed as T, headers: res.headers, buffer };
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, { headers });
  }
  post<T = any>(path: string, json?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, { json: json ?? {}, headers });
  }
  put<T = any>(path: string, json?: unknown) {
    return this.request<T>('PUT', path, { json });
  }
  patch<T = any>(path: string, json?: unknown) {
    return this.request<T>('PATCH', path, { json });
  }
  delete<T = any>(path: string) {
    return this.request<T>('DELETE', path);
  }

  /** Calls a contract endpoint; the body of a 2xx answer is typed from the endpoint's response schema. */
  call<E extends EndpointDef>(endpoint: E, ...[input]: Optional<CallInput<E>>): Promise<Res<EndpointResult<E>>> {
    const i = (input ?? {}) as RawInput;
    const json = i.form ? undefined : (i.body ?? (endpoint.method === 'GET' || endpoint.method === 'DELETE' ? undefined : {}));
    return this.request<EndpointResult<E>>(endpoint.method, urlOf(endpoint.path, i.params, i.query), { json, form: i.form, headers: i.headers });
  }

  /** Like `call`, but answers the typed body, and throws HttpError unless the status is 2xx. */
  async ok<E extends EndpointDef>(endpoint: E, ...[input]: Optional<CallInput<E>>): Promise<EndpointResult<E>> {
    const res = await this.call<E>(endpoint, ...([input] as Optional<CallInput<E>>));
    if (res.status < 200 || res.status > 299) throw new HttpError(endpoint.operationId, res as unknown as Res<ErrorBody>);
    return res.body;
  }
}

type RawInput = {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
};

/** The error body of every failure. */
export interface ErrorBody {
  statusCode: number;
  code: string;
  message: string;
  details?: { field: string; message: string; key?: string }[];
}

type Part<K extends string, T> = [T] extends [never] ? { [P in K]?: never } : { [P in K]: T };
/** What a call of endpoint E takes; multipart endpoints take `form` instead of `body`. */
export type CallInput<E extends EndpointDef> = Part<'params', EndpointParams<E>> &
  ([EndpointQuery<E>] extends [never] ? { query?: never } : { query?: Partial<EndpointQuery<E>> }) &
  (E extends { consumes: readonly string[] } ? { form: FormData; body?: never } : Part<'body', EndpointBody<E>> & { form?: never }) & {
    headers?: Record<string, string>;
  };
/** The input may be left out when none of its parts is required. */
type Optional<T> = Partial<T> extends T ? [input?: T] : [input: T];

/** `/jobs/:id` with `{id}` → `/jobs/3f…`, plus the query string (arrays repeat their name). */
export function urlOf(path: string, params?: Record<string, unknown>, query?: Record<string, unknown>): string {
  const filled = path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null) continue;
    for (const item of Array.isArray(v) ? v : [v]) search.append(k, String(item));
  }
  const qs = search.toString();
  return `/api${filled}${qs ? `?${qs}` : ''}`;
}

/** Thrown by `HttpClient.ok()` when the answer is not 2xx. */
export class HttpError extends Error {
  constructor(
    readonly operationId: string,
    readonly res: Res<ErrorBody>,
  ) {
    super(`${operationId}: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

/** The SuperTokens-shaped `formFields` body of the auth calls; `value` keeps the type of the values given. */
export const fields = <V>(values: Record<string, V>): { formFields: { id: string; value: V }[] } => ({
  formFields: Object.entries(values).map(([id, value]) => ({ id, value })),
});
