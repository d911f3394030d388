/** A small HTTP client with a cookie jar, talking to a listening server over real HTTP. */
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
}

export const fields = (values: Record<string, unknown>) => ({ formFields: Object.entries(values).map(([id, value]) => ({ id, value })) });
