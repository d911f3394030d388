import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { S3Storage } from '../src/platform/storage/s3.ts';
import { createStorage } from '../src/platform/storage/storage.ts';
import { startS3Server } from './s3-server.ts';
import { storageBehaviour } from './storage-suite.ts';
import { startTestApp, waitFor, type TestApp } from './test-app.ts';
import sharp from 'sharp';

/**
 * The S3 driver against a real S3-compatible server (s3rver, started here on a random port): the same
 * behaviour as the disk driver (storage-suite.ts), and the app configured with S3 over HTTP.
 */
storageBehaviour('s3', async () => {
  const s3 = await startS3Server();
  const storage = new S3Storage({ ...s3.settings, bucket: s3.settings.bucket! });
  return {
    storage,
    close: async () => {
      storage.close();
      await s3.close();
    },
  };
});

describe('createStorage', () => {
  it('chooses S3 when S3_BUCKET is set, disk otherwise, and refuses an endpoint without a bucket', async () => {
    const s3 = { endpoint: 'http://127.0.0.1:1', bucket: 'b', region: 'us-east-1', accessKeyId: 'k', secretAccessKey: 's', prefix: '' };
    expect((await createStorage('/tmp/x', s3)).driver).toBe('s3');
    expect((await createStorage('/tmp/x', { ...s3, endpoint: null, bucket: null })).driver).toBe('disk');
    await expect(createStorage('/tmp/x', { ...s3, bucket: null })).rejects.toThrow(/S3_BUCKET/);
  });
});

describe('the app with its files in S3', () => {
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let t: TestApp;
  let storage: S3Storage;
  beforeAll(async () => {
    s3 = await startS3Server();
    storage = new S3Storage({ ...s3.settings, bucket: s3.settings.bucket!, prefix: 'app/' });
    t = await startTestApp({ storage: () => storage });
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    storage?.close();
    await s3?.close();
  });

  it('upload → renditions → download: every file is an object in the bucket, served back over HTTP', async () => {
    const user = await t.signupVerified();
    const raw = Buffer.alloc(640 * 480).map((_, i) => (i * 7) % 256);
    const png = await sharp(raw, { raw: { width: 640, height: 480, channels: 1 } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('files', new Blob([png]), 'grain.png');
    const up = await user.client.request('POST', '/api/images', { form });
    expect(up.status).toBe(200);
    const image = up.body[0] as { id: string };
    const original = await user.client.get(`/api/image/${image.id}`);
    expect(original.status).toBe(200);
    expect(original.buffer.equals(png)).toBe(true);
    const display = await waitFor(async () => {
      const r = await user.client.get(`/api/image/${image.id}/display`);
      return r.status === 200 ? r : null;
    }, 30_000);
    expect(display.headers.get('content-type')).toBe('image/webp');
    expect(display.buffer.subarray(8, 12).toString()).toBe('WEBP');
    expect((await sharp(display.buffer).metadata()).width).toBeGreaterThan(0);
    // Nothing on disk: the bucket holds the original and both renditions (under the prefix).
    const listed = await storage.client.send(new ListObjectsV2Command({ Bucket: s3.settings.bucket!, Prefix: 'app/' }));
    expect((listed.Contents ?? []).length).toBeGreaterThanOrEqual(3);
    // The services status reports the S3 storage as answering.
    const admin = await t.signin('admin@lamella.test', 'Admin-Password-1');
    const health = await admin.client.get('/api/health');
    expect(health.body.storage).toMatchObject({ kind: 's3', ok: true });
  });
});
