/**
 * Issue 28 item 2: no image of an upload is decoded in the server's process. Small files that decode to a lot
 * of memory (16-bit RGBA PNGs of flat colour: 145 KB → 96 MB, 330 KB → 288 MB) are refused from their header
 * when width × height × channels × bytes passes IMAGE_DECODE_MAX_MB (413 IMAGE_DECODE_TOO_LARGE, naming the
 * file, nothing stored), and decoded in the bounded worker pool when they don't, while the API keeps
 * answering. A worker that passes its memory limit stops, and its task is refused (MEMORY). The memory and
 * latency figures are measured by bench/faults/bombs.ts.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DecodeRefused, ImageWorkerPool } from '../src/modules/images/decode-pool.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** A 16-bit RGBA PNG of one flat colour: a tiny file that decodes to width × height × 8 bytes. */
export const bombPng = (width: number, height: number, seed = 0) =>
  sharp({ create: { width, height, channels: 4, background: { r: seed % 256, g: 40, b: 90, alpha: 1 } } })
    .toColourspace('rgb16')
    .png({ compressionLevel: 9 })
    .toBuffer();

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { IMAGE_DECODE_MAX_MB: '200', IMAGE_WORKERS: '2' } });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const upload = (client: ReturnType<TestApp['client']>, png: Buffer, name: string) => {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(png)], { type: 'image/png' }), name);
  return client.request('POST', '/api/images', { form });
};

describe('decompression bombs', () => {
  it('refuses an image whose header decodes to more than IMAGE_DECODE_MAX_MB, naming the file, storing nothing', async () => {
    const u = await t.signupVerified();
    const bomb = await bombPng(6000, 6000); // 288 MB decoded
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const res = await upload(u.client, bomb, 'bomb.png');
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('IMAGE_DECODE_TOO_LARGE');
    expect(res.body.message).toContain('bomb.png');
    expect(res.body.message).toContain('200 MB');
    expect(res.body).toMatchObject({ details: [{ field: 'files' }] });
    expect((await u.client.get('/api/images/library')).body.items).toHaveLength(0);
    expect(await readdir(join(t.dataDir, 'files', 'images')).catch(() => [])).toEqual([]);
  }, 120_000);

  it('decodes four bombs under the limit at once in the worker pool, the API answering meanwhile', async () => {
    const u = await t.signupVerified();
    const bombs = await Promise.all([0, 1, 2, 3].map((i) => bombPng(4000, 3000, i))); // 96 MB decoded each
    const uploads = bombs.map((b, i) => upload(u.client, b, `b${i}.png`));
    let slowest = 0;
    let done = false;
    const all = Promise.all(uploads).finally(() => (done = true));
    while (!done) {
      const t0 = Date.now();
      const health = await fetch(`${t.baseUrl}/api/health/live`);
      expect(health.status).toBe(200);
      slowest = Math.max(slowest, Date.now() - t0);
      await new Promise((r) => setTimeout(r, 100));
    }
    const answers = await all;
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.body[0]).toMatchObject({ width: 4000, height: 3000 });
    }
    // generous on a loaded 2-core machine; bench/faults/bombs.ts measures it
    expect(slowest).toBeLessThan(2000);
  }, 240_000);
});

describe('a worker over its memory limit', () => {
  const pool = new ImageWorkerPool({ workers: 1, memoryMb: 180, decodeMaxMb: 1000 });
  afterAll(() => pool.close());

  it('stops, its task refused as MEMORY; the next task gets a fresh worker', async () => {
    const path = join(tmpdir(), `bomb-${process.pid}.png`);
    await writeFile(path, await bombPng(6000, 6000));
    const task = { op: 'ingest' as const, path, displaySize: 2048, thumbnailSize: 256, maxPixels: 100_000_000, maxDecodeBytes: pool.maxDecodeBytes };
    const err = await pool.run(task).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DecodeRefused);
    expect((err as DecodeRefused).code).toBe('MEMORY');
    const small = join(tmpdir(), `small-${process.pid}.png`);
    await writeFile(
      small,
      await sharp({ create: { width: 300, height: 200, channels: 3, background: '#808080' } })
        .png()
        .toBuffer(),
    );
    const ok = await pool.run<{ width: number }>({ ...task, path: small });
    expect(ok.width).toBe(300);
    expect(pool.started).toBe(2);
  }, 120_000);
});
