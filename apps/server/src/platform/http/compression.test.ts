import zlib from 'node:zlib';
import { request } from 'node:http';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { negotiateEncoding, registerCompression } from './compression.ts';

describe('negotiateEncoding', () => {
  it('prefers br, then gzip, honours q=0 and *, and answers null for identity or nothing', () => {
    expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(negotiateEncoding('gzip')).toBe('gzip');
    expect(negotiateEncoding('br;q=0, gzip')).toBe('gzip');
    expect(negotiateEncoding('gzip;q=0.5, br;q=0.4')).toBe('gzip');
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding('*, br;q=0')).toBe('gzip');
    expect(negotiateEncoding('identity')).toBeNull();
    expect(negotiateEncoding('deflate')).toBeNull();
    expect(negotiateEncoding(undefined)).toBeNull();
    expect(negotiateEncoding('')).toBeNull();
  });
});

describe('registerCompression (a real Fastify server over HTTP)', () => {
  const app = Fastify();
  const big = JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ id: i, name: `job ${i}`, status: 'FINISHED' })));
  const huge = 'x'.repeat(600 * 1024);
  let kept: () => number;
  let base = '';
  beforeAll(async () => {
    kept = registerCompression(app).kept;
    app.get('/small', async () => ({ ok: true }));
    // the same string each time, as an answer cache serves it
    app.get('/cached', async (_req, reply) => reply.type('application/json').send(big));
    app.get('/huge', async (_req, reply) => reply.type('text/plain').send(huge));
    app.get('/png', async (_req, reply) => reply.type('image/png').send(Buffer.alloc(4096)));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const a = app.server.address();
    base = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  });
  afterAll(() => app.close());

  const get = (path: string, encoding?: string) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      const req = request(base + path, { headers: encoding ? { 'accept-encoding': encoding } : {} }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });

  it('leaves small bodies, images and clients that ask for nothing alone', async () => {
    const small = await get('/small', 'br, gzip');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString())).toEqual({ ok: true });
    expect((await get('/png', 'br, gzip')).headers['content-encoding']).toBeUndefined();
    const plain = await get('/cached');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(big);
  });

  it('compresses in one call as the client asks, keeps the result per encoding and sends it again without compressing', async () => {
    const br = await get('/cached', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(big);
    const gz = await get('/cached', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).toString()).toBe(big);
    expect(kept()).toBe(1);
    const spy = vi.spyOn(zlib, 'brotliCompressSync');
    const again = await get('/cached', 'br');
    expect(zlib.brotliDecompressSync(again.body).toString()).toBe(big);
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });

  it('compresses a large body off the event loop (thread pool), still whole', async () => {
    const res = await get('/huge', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(res.body).toString()).toBe(huge);
  });
});
