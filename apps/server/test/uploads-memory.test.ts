/**
 * Uploads are streamed, never buffered whole (issue 9 item 3): three 190 MB images in one request must not grow
 * the server's memory by more than ~100 MB. The files are generated on disk in strips and sent from disk
 * (`fs.openAsBlob`), so the test itself holds no large buffer; the server runs in this process, and its resident
 * memory is sampled during the whole request. The request is sent with node:http, streaming each file from disk
 * (fetch's FormData would hold the whole body in this same process and hide what the server does).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { images } from '../src/platform/db/schema/index.ts';
import { startTestApp, type TestApp } from './test-app.ts';

const MB = 1024 * 1024;
let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await startTestApp();
  dir = await mkdtemp(join(tmpdir(), 'lamella-big-'));
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

/**
 * An uncompressed 8-bit RGB TIFF of `width` × `height`, written strip by strip (16 rows each): a gradient whose
 * hue depends on `seed`. Answers the file size.
 */
async function writeBigTiff(path: string, width: number, height: number, seed: number): Promise<number> {
  const rowsPerStrip = 16;
  const strips = Math.ceil(height / rowsPerStrip);
  const stripBytes = (i: number) => Math.min(rowsPerStrip, height - i * rowsPerStrip) * width * 3;
  const entries = 10;
  const ifdSize = 2 + entries * 12 + 4;
  const bitsOffset = 8 + ifdSize;
  const offsetsOffset = bitsOffset + 6;
  const countsOffset = offsetsOffset + 4 * strips;
  const dataOffset = countsOffset + 4 * strips;
  const head = Buffer.alloc(dataOffset);
  head.write('II', 0, 'latin1');
  head.writeUInt16LE(42, 2);
  head.writeUInt32LE(8, 4);
  let p = 8;
  head.writeUInt16LE(entries, p);
  p += 2;
  const entry = (tag: number, type: number, count: number, value: number) => {
    head.writeUInt16LE(tag, p);
    head.writeUInt16LE(type, p + 2);
    head.writeUInt32LE(count, p + 4);
    if (type === 3 && count === 1) head.writeUInt16LE(value, p + 8);
    else head.writeUInt32LE(value, p + 8);
    p += 12;
  };
  entry(256, 4, 1, width);
  entry(257, 4, 1, height);
  entry(258, 3, 3, bitsOffset);
  entry(259, 3, 1, 1);
  entry(262, 3, 1, 2);
  entry(273, 4, strips, offsetsOffset);
  entry(277, 3, 1, 3);
  entry(278, 4, 1, rowsPerStrip);
  entry(279, 4, strips, countsOffset);
  entry(284, 3, 1, 1);
  head.writeUInt32LE(0, p);
  for (let i = 0; i < 3; i++) head.writeUInt16LE(8, bitsOffset + 2 * i);
  let offset = dataOffset;
  for (let i = 0; i < strips; i++) {
    head.writeUInt32LE(offset, offsetsOffset + 4 * i);
    head.writeUInt32LE(stripBytes(i), countsOffset + 4 * i);
    offset += stripBytes(i);
  }
  const out = createWriteStream(path);
  out.write(head);
  const strip = Buffer.alloc(rowsPerStrip * width * 3);
  for (let i = 0; i < strips; i++) {
    for (let r = 0; r < rowsPerStrip; r++) {
      const y = i * rowsPerStrip + r;
      for (let x = 0; x < width; x++) {
        const o = (r * width + x) * 3;
        strip[o] = (x + seed * 40) & 255;
        strip[o + 1] = (y >> 5) & 255;
        strip[o + 2] = ((x ^ y) + seed) & 255;
      }
    }
    if (!out.write(strip.subarray(0, stripBytes(i)))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return offset;
}

/** POSTs files as multipart/form-data field `files`, streamed from disk with a known Content-Length. */
async function postFiles(url: string, cookie: string, paths: string[], sizes: number[]): Promise<{ status: number; body: any }> {
  const boundary = `----lamella${Date.now()}`;
  const heads = paths.map(
    (p, i) => `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big-${i}.tif"\r\nContent-Type: image/tiff\r\n\r\n`,
  );
  const tail = `--${boundary}--\r\n`;
  const length = heads.reduce((n, h, i) => n + Buffer.byteLength(h) + sizes[i] + 2, 0) + Buffer.byteLength(tail);
  const req = httpRequest(url, {
    method: 'POST',
    headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': length },
  });
  const answer = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', reject);
  });
  for (const [i, p] of paths.entries()) {
    req.write(heads[i]);
    await pipeline(createReadStream(p), req, { end: false });
    req.write('\r\n');
  }
  req.end(tail);
  return answer;
}

describe('streamed uploads', () => {
  it('three 190 MB images in one request grow the server memory by less than 100 MB, and are stored whole', async () => {
    const u = await t.signupVerified();
    // warm up: sharp, the multipart parser and the routes are loaded before the baseline
    const warm = new FormData();
    warm.append(
      'files',
      new Blob([
        await sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } })
          .png()
          .toBuffer(),
      ]),
      'w.png',
    );
    expect((await u.client.request('POST', '/api/images', { form: warm })).status).toBe(200);

    const width = 8192;
    const height = 8100;
    const paths = [0, 1, 2].map((i) => join(dir, `big-${i}.tif`));
    const sizes: number[] = [];
    for (const [i, path] of paths.entries()) sizes.push(await writeBigTiff(path, width, height, i));
    for (const size of sizes) expect(size).toBeGreaterThan(189 * MB);

    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const cookie = [...u.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await postFiles(`${t.baseUrl}/api/images`, cookie, paths, sizes);
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);

    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body.map((i: { size: number }) => i.size)).toEqual(sizes);
    expect(res.body.map((i: { width: number; height: number }) => [i.width, i.height])).toEqual([
      [width, height],
      [width, height],
      [width, height],
    ]);
    const growth = (peak - baseline) / MB;
    console.log(
      `upload of 3 × ${(sizes[0] / MB).toFixed(1)} MB: RSS ${(baseline / MB).toFixed(0)} MB → peak ${(peak / MB).toFixed(0)} MB (+${growth.toFixed(0)} MB)`,
    );
    expect(growth).toBeLessThan(100);

    const rows = await t.db.select().from(images).where(eq(images.ownerId, u.id));
    expect(rows).toHaveLength(4);
    const display = await sharp((await u.client.get(`/api/image/${res.body[0].id}/display`)).buffer).metadata();
    expect(display.width).toBe(2048);
    expect(await readdir(join(t.dataDir, 'tmp', 'uploads'))).toEqual([]);
  }, 600_000);
});
