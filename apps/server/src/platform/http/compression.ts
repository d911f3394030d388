import zlib from 'node:zlib';
import { LRUCache } from 'lru-cache';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Compression of the answers that are text in memory (JSON, CSV, the web app's files read whole), issue 30 item 1:
 * - bodies under `threshold` bytes go as they are (a compressed frame would save little and cost more than it saves);
 * - the rest are compressed in ONE call (zlib's brotliCompressSync / gzipSync, or their callback form in the thread pool
 *   for bodies over `asyncAbove`), never through a compression stream opened per answer (230–330 µs each against
 *   23–68 µs one-shot, measured in issue 30);
 * - a compressed body is kept per (body, encoding): an answer served again from a cache (the job lists, the admin
 *   list) is the same string, so its compressed form is found by that string (V8 keeps a string's hash) and sent
 *   without compressing again. Bounded by size; least recently used first out.
 * Streams (static files, exports written as streams) are left to @fastify/compress, registered after this hook:
 * it sees the Content-Encoding set here and leaves these answers alone.
 */
export interface CompressionOptions {
  /** Bodies smaller than this (bytes) are not compressed (default 1024). */
  threshold?: number;
  /** Bodies larger than this are compressed in the thread pool (default 256 KiB), smaller ones on the loop. */
  asyncAbove?: number;
  /** Compressed bodies kept, in bytes (default 32 MiB). */
  keepBytes?: number;
  /** Brotli quality (default 4: within a few % of 11's size for JSON, at a tenth of the time). */
  brotliQuality?: number;
  /** gzip level (default 5). */
  gzipLevel?: number;
}

export type Encoding = 'br' | 'gzip';

/**
 * The encoding to answer with for an Accept-Encoding header: br when the client takes it, else gzip, else none
 * (q=0 refuses an encoding; `*` stands for any not named).
 */
export function negotiateEncoding(header: string | string[] | undefined): Encoding | null {
  if (!header) return null;
  const value = Array.isArray(header) ? header.join(',') : header;
  const q: Record<string, number> = {};
  for (const part of value.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qp = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
    q[name] = qp ? Number(qp[1]) : 1;
  }
  const weight = (e: string) => q[e] ?? (e === 'identity' ? undefined : q['*']) ?? 0;
  const br = weight('br');
  const gzip = weight('gzip');
  if (br > 0 && br >= gzip) return 'br';
  if (gzip > 0) return 'gzip';
  return null;
}

const COMPRESSIBLE =
  /^(?:text\/(?!event-stream)|application\/(?:json|javascript|xml|x-ndjson|problem\+json|[\w.+-]*\+(?:json|xml))|image\/svg\+xml)/i;

export function registerCompression(app: FastifyInstance, opts: CompressionOptions = {}): { kept: () => number } {
  const threshold = opts.threshold ?? 1024;
  const asyncAbove = opts.asyncAbove ?? 256 * 1024;
  const keepBytes = opts.keepBytes ?? 32 * 1024 * 1024;
  const brOptions = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: opts.brotliQuality ?? 4 } };
  const gzipOptions = { level: opts.gzipLevel ?? 5 };
  const kept = new LRUCache<string, { br?: Buffer; gzip?: Buffer }>({
    maxSize: keepBytes,
    maxEntrySize: Math.ceil(keepBytes / 8),
    // the key (the body) is held by whoever cached the answer; the entry's own cost is its compressed forms
    sizeCalculation: (e, key) => 64 + (e.br?.length ?? 0) + (e.gzip?.length ?? 0) + Math.min(key.length, 1024),
  });

  const compressNow = (body: string | Buffer, encoding: Encoding): Buffer =>
    encoding === 'br' ? zlib.brotliCompressSync(body, brOptions) : zlib.gzipSync(body, gzipOptions);
  const compressLater = (body: string | Buffer, encoding: Encoding): Promise<Buffer> =>
    new Promise((resolve, reject) => {
      const done = (err: Error | null, out: Buffer) => (err ? reject(err) : resolve(out));
      if (encoding === 'br') zlib.brotliCompress(body, brOptions, done);
      else zlib.gzip(body, gzipOptions, done);
    });

  const encoded = (reply: FastifyReply, encoding: Encoding, body: Buffer): Buffer => {
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    const vary = reply.getHeader('vary');
    if (!vary) reply.header('vary', 'accept-encoding');
    else if (!/accept-encoding|\*/i.test(String(vary))) reply.header('vary', `${String(vary)}, accept-encoding`);
    return body;
  };

  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, value?: unknown) => void) => {
    const isText = typeof payload === 'string';
    if (!isText && !Buffer.isBuffer(payload)) return done(null, payload);
    const body = payload as string | Buffer;
    // string length ≤ its UTF-8 bytes: a string shorter than the threshold in characters may still be just over it
    // in bytes, which only leaves a few bodies of about 1 KB uncompressed
    if (body.length < threshold || reply.hasHeader('content-encoding') || request.headers['x-no-compression'] !== undefined)
      return done(null, payload);
    if (!COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? 'application/json'))) return done(null, payload);
    const encoding = negotiateEncoding(request.headers['accept-encoding']);
    if (!encoding) {
      const vary = reply.getHeader('vary');
      if (!vary) reply.header('vary', 'accept-encoding');
      return done(null, payload);
    }
    const entry = isText ? kept.get(body as string) : undefined;
    const hit = entry?.[encoding];
    if (hit) return done(null, encoded(reply, encoding, hit));
    const keep = (out: Buffer) => {
      if (!isText) return;
      const e = kept.get(body as string) ?? {};
      e[encoding] = out;
      kept.set(body as string, e);
    };
    if (body.length <= asyncAbove) {
      const out = compressNow(body, encoding);
      keep(out);
      return done(null, encoded(reply, encoding, out));
    }
    compressLater(body, encoding).then(
      (out) => {
        keep(out);
        done(null, encoded(reply, encoding, out));
      },
      (err: Error) => done(err),
    );
  });
  return { kept: () => kept.size };
}
