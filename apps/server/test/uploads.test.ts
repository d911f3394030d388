/**
 * Streamed uploads (issue 9 item 3, item 10): per-file (MAX_UPLOAD_MB) and per-request (MAX_UPLOAD_REQUEST_MB)
 * limits answer 413 early, the storage quota per licence type (set by ADMIN, shown on the profile) refuses with
 * a clear message, a control character in a file name is a 400, and no refusal leaves anything behind: no
 * temporary file, no stored file, no image row, no licence unit.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { auditLog, images, licenses } from '../src/platform/db/schema/index.ts';
import { sweepStaleUploads, uploadsDir } from '../src/platform/storage/upload.ts';
import { ADMIN, startTestApp, type TestApp } from './test-app.ts';
import type { HttpClient } from './http-client.ts';

let t: TestApp;
let admin: HttpClient;
const defaults = { file: 0, request: 0 };
beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.signin(ADMIN.email, ADMIN.password)).client;
  defaults.file = t.config.maxUploadMb;
  defaults.request = t.config.maxUploadRequestMb;
});
afterEach(async () => {
  t.config.maxUploadMb = defaults.file;
  t.config.maxUploadRequestMb = defaults.request;
  await admin.put('/api/admin/storage-quotas', { quotas: [{ licenseType: 'DEMO', quotaMb: null }] });
});
afterAll(() => t.close());

const upload = (client: HttpClient, files: Array<[Buffer, string]>) => {
  const form = new FormData();
  for (const [data, name] of files) form.append('files', new Blob([data]), name);
  return client.request('POST', '/api/images', { form });
};
/** A PNG of random pixels: it does not compress (about 3 bytes per pixel as sharp writes it). */
const noisePng = (width: number, height: number) =>
  sharp(randomBytes(width * height), { raw: { width, height, channels: 1 } })
    .png({ compressionLevel: 0 })
    .toBuffer();

/** A multipart upload sent chunked, without Content-Length: the server can only count while it reads. */
function postChunked(client: HttpClient, files: Array<[Buffer, string]>): Promise<{ status: number; body: any }> {
  const boundary = `----chunked${Date.now()}`;
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${t.baseUrl}/api/images`, {
      method: 'POST',
      headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked' },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', reject);
    for (const [data, name] of files) {
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`);
      for (let i = 0; i < data.length; i += 64 * 1024) req.write(data.subarray(i, i + 64 * 1024));
      req.write('\r\n');
    }
    req.end(`--${boundary}--\r\n`);
  });
}

async function filesUnder(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath ?? '', e.name));
  } catch {
    return [];
  }
}

/** Everything an upload could have left: temporary files, stored files and rows of the user, licence units. */
async function traces(userId: string) {
  const [license] = await t.db.select({ used: licenses.used }).from(licenses).where(eq(licenses.userId, userId));
  return {
    temp: await filesUnder(join(t.dataDir, 'tmp', 'uploads')),
    stored: await filesUnder(join(t.dataDir, 'files', 'images', userId)),
    rows: (await t.db.select({ id: images.id }).from(images).where(eq(images.ownerId, userId))).length,
    licenseUsed: license?.used ?? null,
  };
}

describe('upload limits', () => {
  it('refuses a file over MAX_UPLOAD_MB with 413 FILE_TOO_LARGE naming the file and the limit, and keeps nothing', async () => {
    const u = await t.signupVerified();
    t.config.maxUploadMb = 0.5;
    const small = await noisePng(200, 200);
    const big = await noisePng(1000, 1000); // ~3 MB
    const res = await upload(u.client, [
      [small, 'small.png'],
      [big, 'big.png'],
    ]);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('FILE_TOO_LARGE');
    expect(res.body.message).toContain('big.png');
    expect(res.body.message).toContain('0.5 MB');
    expect(res.body.details[0].field).toBe('files');
    expect(await traces(u.id)).toEqual({ temp: [], stored: [], rows: 0, licenseUsed: 0 });
    // the same file under the default limit is stored
    t.config.maxUploadMb = defaults.file;
    expect((await upload(u.client, [[big, 'big.png']])).status).toBe(200);
  });

  it('refuses a request over MAX_UPLOAD_REQUEST_MB with 413 REQUEST_TOO_LARGE before reading it, and keeps nothing', async () => {
    const u = await t.signupVerified();
    t.config.maxUploadRequestMb = 1.5;
    const file = await noisePng(1000, 1000);
    const res = await upload(u.client, [
      [file, 'a.png'],
      [file, 'b.png'],
    ]);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'REQUEST_TOO_LARGE', details: [{ field: 'files' }] });
    expect(res.body.message).toContain('1.5 MB');
    expect(await traces(u.id)).toEqual({ temp: [], stored: [], rows: 0, licenseUsed: 0 });
  });

  it('counts a chunked request (no declared length) while reading and refuses it at MAX_UPLOAD_REQUEST_MB', async () => {
    const u = await t.signupVerified();
    t.config.maxUploadRequestMb = 1.5;
    const file = await noisePng(500, 500); // ~0.75 MB
    const ok = await postChunked(u.client, [[file, 'one.png']]);
    expect(ok.status).toBe(200);
    const before = await traces(u.id);
    const res = await postChunked(u.client, [
      [file, 'a.png'],
      [file, 'b.png'],
      [file, 'c.png'],
    ]);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('REQUEST_TOO_LARGE');
    expect(await traces(u.id)).toEqual(before);
  });

  it('answers 400 INVALID_FILENAME (not 500) for a NUL or other control character in a file name', async () => {
    const u = await t.signupVerified();
    const png = await noisePng(20, 20);
    // (fetch itself escapes CR and LF in file names, so they never arrive as such)
    for (const name of ['evil\u0000.png', 'bell\u0007.png', 'esc\u001b.png']) {
      const res = await upload(u.client, [
        [png, 'fine.png'],
        [png, name],
      ]);
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_FILENAME', details: [{ field: 'files' }] });
    }
    expect(await traces(u.id)).toEqual({ temp: [], stored: [], rows: 0, licenseUsed: 0 });
  });

  it('content checks read the file head: a refused type or corrupt file leaves no temporary file', async () => {
    const u = await t.signupVerified();
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'binary');
    const res = await upload(u.client, [
      [await noisePng(30, 30), 'ok.png'],
      [gif, 'fake.png'],
    ]);
    expect(res.status).toBe(415);
    expect(await traces(u.id)).toEqual({ temp: [], stored: [], rows: 0, licenseUsed: 0 });
  });

  it('sweeps temporary folders a stopped server left behind (older than an hour), not uploads in flight', async () => {
    const root = uploadsDir(t.dataDir);
    const stale = join(root, 'left-by-a-crash');
    const fresh = join(root, 'in-flight');
    for (const dir of [stale, fresh]) {
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, '0'), 'partial');
    }
    const old = new Date(Date.now() - 2 * 3600_000);
    await utimes(stale, old, old);
    await sweepStaleUploads(root);
    expect(await filesUnder(root)).toEqual([join(fresh, '0')]);
    await rm(fresh, { recursive: true });
  });
});

describe('storage quota per licence type', () => {
  it('ADMIN sets quotas (audited); others get 401/403; bad input is a 400 that changes nothing', async () => {
    const anon = await t.client().get('/api/admin/storage-quotas');
    expect(anon.status).toBe(401);
    const u = await t.signupVerified();
    expect((await u.client.get('/api/admin/storage-quotas')).status).toBe(403);
    expect((await u.client.put('/api/admin/storage-quotas', { quotas: [{ licenseType: 'DEMO', quotaMb: 1 }] })).status).toBe(403);

    const set = await admin.put('/api/admin/storage-quotas', { quotas: [{ licenseType: 'DEMO', quotaMb: 5 }] });
    expect(set.status).toBe(200);
    expect(set.body).toHaveLength(6);
    expect(set.body.find((q: { licenseType: string }) => q.licenseType === 'DEMO')).toEqual({ licenseType: 'DEMO', quotaMb: 5 });
    expect(set.body.find((q: { licenseType: string }) => q.licenseType === 'UNLIMITED')).toEqual({ licenseType: 'UNLIMITED', quotaMb: null });
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.action, 'storage.quota.set'));
    expect(audit.length).toBeGreaterThan(0);

    for (const bad of [{ quotas: [{ licenseType: 'GOLD', quotaMb: 5 }] }, { quotas: [{ licenseType: 'DEMO', quotaMb: -1 }] }, { quotas: [] }]) {
      const res = await admin.put('/api/admin/storage-quotas', bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    expect((await admin.get('/api/admin/storage-quotas')).body.find((q: { licenseType: string }) => q.licenseType === 'DEMO').quotaMb).toBe(5);
  });

  it('refuses an upload over the quota with a clear message; the profile shows used and quota', async () => {
    const u = await t.signupVerified();
    await admin.put('/api/admin/storage-quotas', { quotas: [{ licenseType: 'DEMO', quotaMb: 1 }] });
    const first = await upload(u.client, [[await noisePng(500, 500), 'first.png']]);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const usage = await u.client.get('/api/images/storage');
    expect(usage.status).toBe(200);
    // every stored byte counts (issue 28 item 3): the original and its two renditions
    expect(usage.body.usedBytes).toBeGreaterThan(first.body[0].size);
    expect(usage.body).toMatchObject({
      quotaBytes: 1024 * 1024,
      licenseType: 'DEMO',
      maxFileBytes: 200 * 1024 * 1024,
    });
    const before = await traces(u.id);

    const second = await upload(u.client, [[await noisePng(500, 500), 'second.png']]);
    expect(second.status).toBe(413);
    expect(second.body.code).toBe('STORAGE_QUOTA_EXCEEDED');
    expect(second.body.message).toContain('1 MB');
    expect(await traces(u.id)).toEqual(before);
    expect((await u.client.get('/api/images/storage')).body.usedBytes).toBe(usage.body.usedBytes);
    expect((await t.client().get('/api/images/storage')).status).toBe(401);
  });

  it('staff count as UNLIMITED and a user without quota sees none', async () => {
    const u = await t.signupVerified();
    const mine = await u.client.get('/api/images/storage');
    expect(mine.body).toMatchObject({ usedBytes: 0, quotaBytes: null, licenseType: 'DEMO' });
    expect((await admin.get('/api/images/storage')).body).toMatchObject({ quotaBytes: null, licenseType: 'UNLIMITED' });
  });
});
