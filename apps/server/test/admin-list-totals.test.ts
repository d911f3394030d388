/**
 * Issues 24 and 26 over real HTTP, with the URLs built by the web client's builder (apps/web/src/api/url.ts):
 * - `GET /admin/jobs/count` answers how many jobs the list's filters select ("N jobs match"), the same number the
 *   list pages through and the report has rows, for every filter of the page;
 * - `GET /admin/users2` pages (`page`, `pageSize`) with the number of matching users in `x-total-count`, instead
 *   of stopping at 5,000 rows; `GET /admin/images` answers `x-total-count` beside `x-next-page`;
 * - the users XLSX download is an XLSX file, the results export of one job in both formats works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { adminImagesApi, adminJobsApi, adminUsersApi, jobsApi, type AdminJobsQuery } from '@lamella/contracts';
import { endpointUrl } from '../../web/src/api/url.ts';
import { adminFeedback, computeModels, images, jobs, masks, userFeedback, users } from '../src/platform/db/schema/index.ts';
import { startTestApp, type TestApp } from './test-app.ts';
import { factories, type TestUser } from './factories.ts';

let t: TestApp;
let admin: TestUser;
let owner: TestUser;
let other: TestUser;
let modelId = '';
let otherModelId = '';
const jobIds: string[] = [];
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const TAG = `totals-${Date.now()}`;

beforeAll(async () => {
  t = await startTestApp();
  const f = factories(t);
  admin = await f.admin();
  await t.db.update(users).set({ csvDecimalSeparator: 'dot', language: 'en' }).where(eq(users.id, admin.id));
  owner = await f.user({ fields: { name: 'Tess', surname: 'Totals', company: `${TAG} Steel & Söhne` } });
  other = await f.user({ fields: { name: 'Otto', surname: 'Totals', company: `${TAG} Glass` } });
  const models = await t.db
    .insert(computeModels)
    .values([
      { internalName: `${TAG}-a`, routingPath: '/ta', storagePath: 'ta', displayName: 'Totals A', version: '1' },
      { internalName: `${TAG}-b`, routingPath: '/tb', storagePath: 'tb', displayName: 'Totals B', version: '1' },
    ])
    .returning();
  modelId = models[0].id;
  otherModelId = models[1].id;
  const img = async (ownerId: string, name: string) =>
    (
      await t.db
        .insert(images)
        .values({ ownerId, orginalFilename: name, filename: `${name}.stored`, sha256: name, format: 'png', width: 8, height: 8, size: 10 })
        .returning()
    )[0];
  const a = await img(owner.id, `${TAG}-a.png`);
  const b = await img(other.id, `${TAG}-b.png`);
  // 8 jobs, one a day from 2026-05-01: 0-5 the owner's, 6-7 the other's; 2 failed, 3 deleted, 4 by API, 5 other model.
  const base = Date.parse('2026-05-01T10:00:00Z');
  for (let k = 0; k < 8; k++) {
    const createdAt = new Date(base + k * 86_400_000);
    const [j] = await t.db
      .insert(jobs)
      .values({
        ownerId: k >= 6 ? other.id : owner.id,
        imageId: k >= 6 ? b.id : a.id,
        modelId: k === 5 ? otherModelId : modelId,
        modelVersion: '1',
        status: k === 2 ? 'FAILED' : 'FINISHED',
        source: k === 4 ? 'API' : 'WEB',
        deleted: k === 3,
        createdAt,
        startedAt: new Date(createdAt.getTime() + 1000),
        finishedAt: new Date(createdAt.getTime() + 3000),
      })
      .returning();
    jobIds.push(j.id);
  }
  await t.db.insert(userFeedback).values({ jobId: jobIds[0], userId: owner.id, rating: 5, comment: null });
  await t.db.insert(adminFeedback).values({ jobId: jobIds[1], userId: admin.id, scaleNumber: 4, scaleLength: 4, resin: 4, results: 4 });
  await t.db
    .insert(masks)
    .values({ ownerId: owner.id, jobId: jobIds[6], label: 'grain', filename: 'm.png', storageKey: `${TAG}-m`, isSubmitted: true });
});
afterAll(() => t?.close());

/** The test's jobs only: every case is combined with the test's model(s) or its users. */
const cases: [string, AdminJobsQuery, number][] = [
  ['model', { modelId: '' }, 6],
  ['deleted: all', { modelId: '', deleted: 'ALL' }, 7],
  ['deleted: only', { modelId: '', deleted: 'DELETED' }, 1],
  ['start date alone first', { startDate: '2026-05-05', modelId: '' }, 3],
  ['date range', { modelId: '', startDate: '2026-05-02', endDate: '2026-05-03' }, 2],
  ['user', { userId: '' }, 5],
  ['company alone', { company: `${TAG} Steel & Söhne` }, 5],
  ['company, deleted: all', { company: `${TAG} Steel`, deleted: 'ALL' }, 6],
  ['status', { modelId: '', status: 'FAILED' }, 1],
  ['source', { modelId: '', source: 'API' }, 1],
  ['with user feedback', { modelId: '', withUserFeedback: 'true' }, 1],
  ['with admin feedback', { modelId: '', withAdminFeedback: 'true' }, 1],
  ['with submitted masks', { modelId: '', withSubmittedMasks: 'true' }, 1],
];
const fill = (q: AdminJobsQuery): AdminJobsQuery => ({
  ...q,
  ...(q.modelId !== undefined ? { modelId } : {}),
  ...(q.userId !== undefined ? { userId: owner.id } : {}),
});

describe('GET /admin/jobs/count: "N jobs match", the same as the list and the report', () => {
  it.each(cases)('%s', async (_name, raw, expected) => {
    const q = fill(raw);
    const count = await admin.client.get(endpointUrl(adminJobsApi.count, { query: { ...q, columns: ['createdAt', 'owner'], sortKey: 'status' } }));
    expect(count.status).toBe(200);
    expect(count.body).toEqual({ total: expected });
    // The list as the web page asks for it: columns (an array) next to the filters, pages of 3.
    const seen: string[] = [];
    for (let page = 1; page < 10; page++) {
      const list = await admin.client.get(
        endpointUrl(adminJobsApi.list, {
          query: { ...q, columns: ['createdAt', 'owner', 'company', 'status', 'source', 'model'], page, pageSize: 3 },
        }),
      );
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      seen.push(...list.body.data.map((r: { id: string }) => r.id));
      if (!list.body.hasNextPage) break;
    }
    expect(new Set(seen).size).toBe(expected);
    const report = await admin.client.get(endpointUrl(adminJobsApi.report, { query: q }));
    const lines = String(report.body)
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines.length - 1).toBe(expected);
  });

  it('names a bad filter (400) and needs JOB.READ', async () => {
    const bad = await admin.client.get(endpointUrl(adminJobsApi.count, { query: { userId: 'nobody' } }));
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe('userId');
    expect((await owner.client.get(endpointUrl(adminJobsApi.count))).status).toBe(403);
    expect((await t.client().get(endpointUrl(adminJobsApi.count))).status).toBe(401);
  });
});

describe('GET /admin/users2 pages with a total', () => {
  it('answers x-total-count and the page asked for, pages neither repeat nor skip', async () => {
    const f = factories(t);
    for (let k = 0; k < 3; k++) await f.user({ fields: { name: `Page${k}`, surname: 'Totals', company: `${TAG} Paged` } });
    const first = await admin.client.get(
      endpointUrl(adminUsersApi.list, { query: { filter: `${TAG} Paged`, sortKey: 'fullName', sortOrder: 'asc', pageSize: 2 } }),
    );
    expect(first.status).toBe(200);
    expect(first.headers.get('x-total-count')).toBe('3');
    expect(first.body.map((u: { fullName: string }) => u.fullName)).toEqual(['Page0 Totals', 'Page1 Totals']);
    const second = await admin.client.get(
      endpointUrl(adminUsersApi.list, { query: { filter: `${TAG} Paged`, sortKey: 'fullName', sortOrder: 'asc', pageSize: 2, page: 2 } }),
    );
    expect(second.body.map((u: { fullName: string }) => u.fullName)).toEqual(['Page2 Totals']);
    expect(second.headers.get('x-total-count')).toBe('3');
    // Without paging parameters: the first page of the default size, and the total of every user.
    const all = await admin.client.get('/api/admin/users2');
    expect(Number(all.headers.get('x-total-count'))).toBeGreaterThanOrEqual(6);
    expect(all.headers.get('x-page-size')).toBe('50');
  });

  it('takes LIKE wildcards in the search literally', async () => {
    const r = await admin.client.get(endpointUrl(adminUsersApi.list, { query: { filter: `${TAG}%Paged` } }));
    expect(r.headers.get('x-total-count')).toBe('0');
  });

  it('the XLSX download is an XLSX workbook with the chosen columns', async () => {
    const res = await admin.client.get(endpointUrl(adminUsersApi.csv, { query: { 'columns[]': ['id', 'email', 'company'], format: 'xlsx' } }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain(XLSX);
    expect(res.buffer.subarray(0, 2).toString()).toBe('PK');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.buffer as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.getRow(1).values).toEqual([undefined, 'User ID', 'E-mail', 'Company']);
    const emails = sheet.getColumn(2).values.slice(2);
    expect(emails).toEqual(expect.arrayContaining([owner.email, other.email]));
  });
});

describe('GET /admin/images answers the total', () => {
  it('x-total-count counts every image the filters select, x-next-page still pages', async () => {
    const res = await admin.client.get(endpointUrl(adminImagesApi.list, { query: { userId: owner.id, pageSize: 1 } }));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('1');
    expect(res.headers.get('x-next-page')).toBeNull();
    const all = await admin.client.get(endpointUrl(adminImagesApi.list, { query: { pageSize: 1 } }));
    expect(Number(all.headers.get('x-total-count'))).toBeGreaterThanOrEqual(2);
    expect(all.headers.get('x-next-page')).toBe('2');
  });
});

describe('the results export of one job (the Export CSV and Export Excel buttons)', () => {
  it('answers the CSV and the XLSX for a single job id with the format', async () => {
    const csv = await owner.client.get(endpointUrl(jobsApi.export, { query: { jobsIds: [jobIds[0]], format: 'csv' } }));
    expect(csv.status, JSON.stringify(csv.body)).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(
      String(csv.body)
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n').length,
    ).toBe(2);
    const xlsx = await owner.client.get(endpointUrl(jobsApi.export, { query: { jobsIds: [jobIds[0]], format: 'xlsx' } }));
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-type')).toContain(XLSX);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.buffer as unknown as ArrayBuffer);
    expect(book.worksheets[0].rowCount).toBeGreaterThanOrEqual(2);
  });
});
