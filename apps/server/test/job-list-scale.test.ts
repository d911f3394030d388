import { request } from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { jobsApi, type Job, type JobListRow } from '@lamella/contracts';
import { ChangeCache, CHANNELS } from '../src/platform/db/change-cache.ts';
import { listJobsAnswer, type JobsPageAnswer } from '../src/modules/jobs/service.ts';
import { FILTERED_TOTAL_CAP } from '../src/modules/jobs/repo.ts';
import { factories, type Factories, type TestUser } from './factories.ts';
import { CACHES_ON, startTestApp, type TestApp } from './test-app.ts';

/**
 * Issue 30 items 1 and 3: the job list's total comes from the per-owner totals (migration 0023) and stays exact
 * through archive, delete and new jobs; the History filters (issue 24 item 7) by model, status, date and name;
 * concurrent requests for one expired page read it once; cached answers go compressed as a browser asks.
 */
let t: TestApp;
let f: Factories;
let u: TestUser;
const jobs: Job[] = [];
beforeAll(async () => {
  t = await startTestApp({ env: CACHES_ON });
  f = factories(t);
  u = await f.user();
  const a = await f.image(u, { filename: 'steel_A-1.png' });
  const b = await f.image(u, { filename: 'alu 50%x.png', level: 60 });
  for (let i = 0; i < 6; i++) jobs.push(await f.job(u, { image: i % 2 ? b : a, model: i % 3 ? 'porosity' : 'grain-size' }));
});
afterAll(() => t?.close());

const list = async (who: TestUser, query: Record<string, unknown>) => {
  const res = await who.client.call(jobsApi.list, { query: query as never });
  return {
    status: res.status,
    ids: Array.isArray(res.body) ? (res.body as Job[]).map((j) => j.id) : [],
    total: res.headers.get('x-total-count'),
    body: res.body,
  };
};

describe('job list totals kept per owner', () => {
  it('are exact on full pages through archive, delete and new jobs, per model too, and never include sandbox or other users', async () => {
    expect((await list(u, { pageSize: 2 })).total).toBe('6');
    const porosity = await f.modelId('porosity');
    expect((await list(u, { pageSize: 1, modelId: porosity })).total).toBe('4');
    await u.client.ok(jobsApi.archive, { body: { jobsIds: [jobs[0].id, jobs[1].id] } });
    expect((await list(u, { pageSize: 2 })).total).toBe('4');
    expect((await list(u, { pageSize: 1, archived: true })).total).toBe('2');
    await u.client.ok(jobsApi.remove, { body: { jobsIds: [jobs[2].id] } });
    expect((await list(u, { pageSize: 2 })).total).toBe('3');
    await u.client.ok(jobsApi.unarchive, { body: { jobsIds: [jobs[0].id] } });
    expect((await list(u, { pageSize: 2 })).total).toBe('4');
    expect((await list(u, { pageSize: 1, archived: true })).total).toBe('1');
    const other = await f.user();
    expect((await list(other, { pageSize: 1 })).total).toBe('0');
    // the rows as the list shows them: count them the slow way and compare
    const counted = await t.db.execute(
      sql`select count(*)::int as n from jobs where owner_id = ${u.id} and not deleted and not archived and source not in ('SANDBOX', 'IDENTIFICATION')`,
    );
    expect(String((counted as unknown as { rows: Array<{ n: number }> }).rows[0].n)).toBe('4');
  });
});

describe('History filters (issue 24 item 7)', () => {
  it('filter by status, creation day, image name (taken literally) and model, with exact totals', async () => {
    // one job failed yesterday, for the status and the date filters
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 24 * 3600 * 1000);
    await t.db.execute(sql`update jobs set status = 'FAILED', created_at = ${yesterday.toISOString()}::timestamptz where id = ${jobs[3].id}`);
    const failed = await list(u, { status: 'FAILED' });
    expect(failed).toMatchObject({ status: 200, ids: [jobs[3].id], total: '1' });
    expect((await list(u, { from: day(new Date()), pageSize: 1 })).total).toBe('3');
    expect((await list(u, { to: day(yesterday) })).ids).toEqual([jobs[3].id]);
    expect((await list(u, { from: day(yesterday), to: day(yesterday) })).ids).toEqual([jobs[3].id]);
    // names: a part of the file name, any case; % and _ are letters, not wildcards
    const alu = await list(u, { name: 'ALU 50%' });
    expect(alu.ids.sort()).toEqual([jobs[3].id, jobs[5].id].sort());
    expect((await list(u, { name: 'steel_a' })).ids.sort()).toEqual([jobs[0].id, jobs[4].id].sort());
    expect((await list(u, { name: 'alu%x' })).total).toBe('0'); // "%" is a letter: no name contains "alu%x"
    expect((await list(u, { name: 'el_' })).ids.sort()).toEqual([jobs[0].id, jobs[4].id].sort());
    expect((await list(u, { name: 'nothing like it' })).total).toBe('0');
    const grain = await f.modelId('grain-size');
    const combined = await list(u, { modelId: grain, name: 'alu', status: 'FAILED', pageSize: 1 });
    expect(combined).toMatchObject({ ids: [jobs[3].id], total: '1' });
    // a full filtered page counts its matches (not the history)
    expect((await list(u, { name: 'png', pageSize: 1 })).total).toBe('4');
  });

  it('counts a long filtered list up to FILTERED_TOTAL_CAP past the page, so the pager always reaches further', async () => {
    const v = await f.user();
    const image = await f.image(v);
    const grain = await f.modelId('grain-size');
    // 1,050 failed and 30 finished jobs, newest first by creation (as an import would write them)
    await t.db.execute(sql`insert into jobs (owner_id, image_id, model_id, model_version, status, source, created_at)
      select ${v.id}::uuid, ${image.id}::uuid, ${grain}::uuid, '1', (case when g <= 1050 then 'FAILED' else 'FINISHED' end)::job_status, 'WEB',
        now() - g * interval '1 minute'
      from generate_series(1, 1080) g`);
    const first = await list(v, { status: 'FAILED', pageSize: 10 });
    expect(first.ids).toHaveLength(10);
    expect(first.total).toBe(String(FILTERED_TOTAL_CAP));
    // from the 60th page on, the count past the page's first row reaches the end: exact
    const later = await list(v, { status: 'FAILED', pageSize: 10, page: 60 });
    expect(later.ids).toHaveLength(10);
    expect(later.total).toBe('1050');
    const last = await list(v, { status: 'FAILED', pageSize: 10, page: 105 });
    expect(last).toMatchObject({ total: '1050' });
    expect(last.ids).toHaveLength(10);
    // unfiltered: the owner's total, exact, from the page's own statement
    expect((await list(v, { pageSize: 10 })).total).toBe('1080');
    expect((await list(v, { status: 'FINISHED', pageSize: 10 })).total).toBe('30');
  });

  it('refuse bad filters with a clear error naming the field and change nothing', async () => {
    const back = await u.client.call(jobsApi.list, { query: { from: '2026-05-02', to: '2026-05-01' } as never });
    expect(back.status).toBe(400);
    expect(JSON.stringify(back.body)).toContain('"to"');
    const bad = await u.client.get('/api/jobs?status=DONE');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('status');
    expect((await u.client.get('/api/jobs?from=yesterday')).status).toBe(400);
    expect((await list(u, { pageSize: 2 })).total).toBe('4');
  });
});

describe('job list cache refill', () => {
  it('reads an expired page once for all the requests waiting for it', async () => {
    const cache = new ChangeCache<JobsPageAnswer>({ channels: [CHANNELS.jobs], ttlSeconds: 30 });
    cache.up();
    let serialized = 0;
    const serialize = (list: JobListRow[]) => {
      serialized += 1;
      return JSON.stringify(list);
    };
    const answers = await Promise.all(Array.from({ length: 25 }, () => listJobsAnswer(t.db, cache, u.id, { pageSize: 5 }, 'en', serialize)));
    expect(serialized).toBe(1);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(answers[0].total).toBe(4);
    // a change drops the entry: the next reads go to the database again (once)
    cache.drop(u.id);
    await Promise.all(Array.from({ length: 5 }, () => listJobsAnswer(t.db, cache, u.id, { pageSize: 5 }, 'en', serialize)));
    expect(serialized).toBe(2);
  });
});

describe('compressed job lists', () => {
  const raw = (path: string, encoding: string, cookie: string) =>
    new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
      const req = request(t.baseUrl + path, { headers: { 'accept-encoding': encoding, cookie } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });

  it('go as a browser asks (br, gzip) and as plain JSON, the same list each way', async () => {
    const cookie = [...u.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const plain = await raw('/api/jobs?pageSize=20', 'identity', cookie);
    expect(plain.encoding).toBeUndefined();
    const br = await raw('/api/jobs?pageSize=20', 'gzip, deflate, br', cookie);
    expect(br.encoding).toBe('br');
    expect(br.body.length).toBeLessThan(plain.body.length);
    expect(JSON.parse(zlib.brotliDecompressSync(br.body).toString())).toEqual(JSON.parse(plain.body.toString()));
    const again = await raw('/api/jobs?pageSize=20', 'br', cookie);
    expect(again.body.equals(br.body)).toBe(true);
    const gz = await raw('/api/jobs?pageSize=20', 'gzip', cookie);
    expect(gz.encoding).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.body).toString())).toEqual(JSON.parse(plain.body.toString()));
    // a small answer goes as it is
    const small = await raw('/api/jobs?pageSize=1&name=nothing%20like%20it', 'br', cookie);
    expect(small.encoding).toBeUndefined();
  });
});
