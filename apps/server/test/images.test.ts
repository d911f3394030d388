import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { images } from '../src/platform/db/schema/index.ts';
import { startTestApp, type TestApp } from './test-app.ts';
import { writeTiff16 } from './tiff16.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const upload = (client: ReturnType<TestApp['client']>, files: Array<[Buffer, string]>, field = 'files') => {
  const form = new FormData();
  for (const [data, name] of files) form.append(field, new Blob([data]), name);
  return client.request('POST', '/api/images', { form });
};
const gradient = (w: number, h: number) => {
  const raw = Buffer.alloc(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) raw[y * w + x] = (x * 7 + y * 3) % 256;
  return sharp(raw, { raw: { width: w, height: h, channels: 1 } });
};
async function filesUnder(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath ?? '', e.name));
  } catch {
    return [];
  }
}

describe('POST /api/images', () => {
  it('stores PNG, JPEG, 8- and 16-bit TIFF by content, with thumbnail and display renditions', async () => {
    const u = await t.signupVerified();
    const png = await gradient(300, 200).png().toBuffer();
    const jpeg = await gradient(3000, 1000).jpeg().toBuffer();
    const tiff8 = await gradient(120, 80).tiff().toBuffer();
    const px = new Uint16Array(64 * 48).map((_, i) => (i * 37) % 65536);
    const tiff16 = writeTiff16(64, 48, px);
    const res = await upload(u.client, [
      [png, 'grain.png'],
      [jpeg, 'named-wrong.tif'],
      [tiff8, 'sem8.tif'],
      [tiff16, 'sem16.tif'],
    ]);
    expect(res.status).toBe(200);
    expect(res.body.map((i: { format: string }) => i.format)).toEqual(['png', 'jpeg', 'tiff', 'tiff']);
    expect(res.body[0]).toMatchObject({ orginalFilename: 'grain.png', width: 300, height: 200, size: png.length, validated: true });
    const [row16] = await t.db.select().from(images).where(eq(images.id, res.body[3].id));
    expect(row16.bitDepth).toBe(16);

    const original = await u.client.get(`/api/image/${res.body[0].id}`);
    expect(original.headers.get('content-type')).toBe('image/png');
    expect(original.buffer.equals(png)).toBe(true);
    const thumb = await sharp((await u.client.get(`/api/image/${res.body[1].id}/thumbnail`)).buffer).metadata();
    expect(Math.max(thumb.width!, thumb.height!)).toBe(256);
    const display = await sharp((await u.client.get(`/api/image/${res.body[1].id}/display`)).buffer).metadata();
    expect(display.width).toBe(2048);
    expect(display.format).toBe('webp');
    const list = await u.client.get('/api/image');
    expect(list.body).toHaveLength(4);
  });

  it('refuses an unsupported, corrupt or over-large file and stores nothing of the batch', async () => {
    const u = await t.signupVerified();
    const before = await filesUnder(join(t.dataDir, 'files', 'images', u.id));
    const good = await gradient(50, 50).png().toBuffer();
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'binary');
    const bad = await upload(u.client, [
      [good, 'ok.png'],
      [gif, 'fake.png'],
    ]);
    expect(bad.status).toBe(415);
    expect(bad.body).toMatchObject({ code: 'UNSUPPORTED_IMAGE', details: [{ field: 'files' }] });
    expect(bad.body.message).toContain('fake.png');

    const truncated = (await gradient(400, 400).png().toBuffer()).subarray(0, 300);
    const corrupt = await upload(u.client, [[truncated, 'cut.png']]);
    expect(corrupt.status).toBe(422);
    expect(corrupt.body.code).toBe('CORRUPT_IMAGE');

    // a decompression bomb: a small PNG that declares 20000 × 6000 pixels
    const bomb = await sharp({ create: { width: 20000, height: 6000, channels: 3, background: '#000' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const tooLarge = await upload(u.client, [[bomb, 'bomb.png']]);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.code).toBe('IMAGE_TOO_LARGE');

    const none = await upload(u.client, [[good, 'x.png']], 'image');
    expect(none.status).toBe(400);
    expect(none.body.code).toBe('FILE_MISSING');

    expect(await filesUnder(join(t.dataDir, 'files', 'images', u.id))).toEqual(before);
    expect((await t.db.select().from(images).where(eq(images.ownerId, u.id))).length).toBe(0);
  });

  it("answers 404 for another user's image addresses", async () => {
    const a = await t.signupVerified();
    const b = await t.signupVerified();
    const res = await upload(a.client, [[await gradient(40, 40).png().toBuffer(), 'a.png']]);
    const id = res.body[0].id;
    for (const path of [`/api/image/${id}`, `/api/image/${id}/thumbnail`, `/api/image/${id}/display`]) {
      expect((await b.client.get(path)).status, path).toBe(404);
      expect((await a.client.get(path)).status, path).toBe(200);
      expect((await t.client().get(path)).status, path).toBe(401);
    }
    expect((await b.client.get('/api/image')).body).toHaveLength(0);
  });
});
