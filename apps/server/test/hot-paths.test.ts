import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobsApi } from '@lamella/contracts';
import { parseServerTiming } from '../src/platform/http/server-timing.ts';
import { factories, type Factories } from './factories.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * Issue 15: the jobs list's x-total-count stays exact when the total is taken from a short page instead of a
 * count(*) over the user's history; the upload answers its phases in Server-Timing (bench:pipeline reads them).
 */
let t: TestApp;
let f: Factories;
beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
});
afterAll(() => t?.close());

describe('jobs list total', () => {
  it('is exact on a full page, a short last page, a page past the end, and a single short page', async () => {
    const u = await f.user();
    const image = await f.image(u);
    for (let i = 0; i < 5; i++) await f.job(u, { image, model: i % 2 ? 'porosity' : 'grain-size' });
    const page = async (query: Record<string, number>) => {
      const res = await u.client.call(jobsApi.list, { query });
      expect(res.status).toBe(200);
      return { n: (res.body as unknown[]).length, total: res.headers.get('x-total-count') };
    };
    expect(await page({ pageSize: 2, page: 1 })).toEqual({ n: 2, total: '5' }); // full page: counted
    expect(await page({ pageSize: 2, page: 2 })).toEqual({ n: 2, total: '5' });
    expect(await page({ pageSize: 2, page: 3 })).toEqual({ n: 1, total: '5' }); // short page: 4 before + 1
    expect(await page({ pageSize: 2, page: 4 })).toEqual({ n: 0, total: '5' }); // past the end: counted
    expect(await page({ pageSize: 10 })).toEqual({ n: 5, total: '5' }); // one short page
    expect(await page({ pageSize: 5 })).toEqual({ n: 5, total: '5' }); // exactly full: counted
    const other = await f.user();
    expect((await other.client.call(jobsApi.list, { query: {} })).headers.get('x-total-count')).toBe('0');
  });
});

describe('upload Server-Timing', () => {
  it('answers receive, renditions and store durations for an upload, and no header elsewhere', async () => {
    const u = await f.user();
    const form = new FormData();
    const png = await (
      await import('sharp')
    )
      .default({ create: { width: 300, height: 200, channels: 3, background: '#777' } })
      .png()
      .toBuffer();
    form.append('files', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'timed.png');
    const res = await u.client.request('POST', '/api/images', { form });
    expect(res.status).toBe(200);
    const timing = parseServerTiming(res.headers.get('server-timing'));
    expect(Object.keys(timing).sort()).toEqual(['receive', 'renditions', 'store']);
    for (const ms of Object.values(timing)) expect(ms).toBeGreaterThanOrEqual(0);
    expect((await u.client.get('/api/users/me')).headers.get('server-timing')).toBeNull();
  });
});
