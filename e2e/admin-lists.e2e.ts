/**
 * Issues 24 and 26: the web client built URLs with two `?`, so the admin jobs list dropped its first filter (or
 * failed on the Model and User filters), its exports disagreed with the table, the users "XLSX" was a CSV and the
 * results page's Export CSV / Export Excel failed. Here every admin Jobs filter is applied on the page and three
 * numbers must agree: the rows of the table, "N jobs match" with the server's count, and the rows of the export.
 * Then the results page's two export buttons are pressed and both files are opened and read.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import { acceptCookies, createVerifiedUser, timeFor } from './helpers';
import { choose, loginAdmin, userSession } from './admin-helpers';
import { GRAIN_MODEL, PORE_MODEL, getJob, grainMicrograph, modelId, runViaApi, uploadViaApi } from './analysis-helpers';

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const COMPANY = `Lists ${RUN} & Söhne`;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The jobs of this file: user A has 2 grain jobs (one deleted afterwards) and 1 porosity job, user B 1 grain job. */
interface Fixture {
  emailA: string;
  emailB: string;
  userA: string;
  grainId: string;
  poreId: string;
  jobs: string[];
  deleted: string;
}
let fx: Fixture;

async function waitFinished(request: APIRequestContext, ids: string[]): Promise<void> {
  for (const id of ids)
    await expect
      .poll(async () => (await getJob(request, id)).status, { timeout: timeFor(90_000), intervals: [1000] })
      .toMatch(/^(FINISHED|CACHED|FAILED)$/);
}

test.beforeAll(async ({ browser, baseURL }) => {
  test.setTimeout(timeFor(240_000));
  const api = await browser.newContext({ baseURL });
  const emailA = await createVerifiedUser(api.request, 'lists-a', { company: COMPANY, name: 'Ada', surname: 'Lists' });
  const emailB = await createVerifiedUser(api.request, 'lists-b', { company: COMPANY, name: 'Bea', surname: 'Lists' });
  await api.close();
  const a = await userSession(browser, baseURL!, emailA);
  const grainId = await modelId(a.page.request, GRAIN_MODEL.name);
  const poreId = await modelId(a.page.request, PORE_MODEL.name);
  const imgA1 = await uploadViaApi(a.page.request, await grainMicrograph(701));
  const imgA2 = await uploadViaApi(a.page.request, await grainMicrograph(702));
  const jobsA = await runViaApi(a.page.request, [imgA1, imgA2], [grainId]);
  const poreA = await runViaApi(a.page.request, [imgA1], [poreId]);
  const me = (await (await a.page.request.get('/api/users/me')).json()) as { id: string };
  const b = await userSession(browser, baseURL!, emailB);
  const jobsB = await runViaApi(b.page.request, [await uploadViaApi(b.page.request, await grainMicrograph(703))], [grainId]);
  await waitFinished(
    a.page.request,
    [...jobsA, ...poreA].map((j) => j.id),
  );
  await waitFinished(
    b.page.request,
    jobsB.map((j) => j.id),
  );
  // The user deletes one of their grain jobs: the admin list shows it only with Deleted: Deleted or All.
  const deleted = jobsA[1].id;
  expect((await a.page.request.post('/api/jobs/delete', { data: { jobsIds: [deleted] } })).ok()).toBeTruthy();
  fx = { emailA, emailB, userA: me.id, grainId, poreId, jobs: [...jobsA, ...poreA, ...jobsB].map((j) => j.id), deleted };
  await a.context.close();
  await b.context.close();
});

test.beforeEach(async ({ context, baseURL }) => acceptCookies(context, baseURL!));

/** The page's filters (its query string) as the API's query. */
function pageQuery(page: Page): URLSearchParams {
  const q = new URL(page.url()).searchParams;
  q.delete('columns');
  return q;
}

/** Every job id the server's list answers for the page's filters (all pages). */
async function serverList(page: Page): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 1; n < 50; n++) {
    const q = pageQuery(page);
    q.set('page', String(n));
    q.set('pageSize', '100');
    const res = await page.request.get(`/api/admin/jobs?${q}`);
    expect(res.ok(), await res.text()).toBeTruthy();
    const body = (await res.json()) as { data: { id: string }[]; hasNextPage: boolean };
    ids.push(...body.data.map((r) => r.id));
    if (!body.hasNextPage) break;
  }
  return ids;
}

/** The CSV's data rows: Export Job Statistics of the page (its link carries the page's filters). */
async function exportedIds(page: Page): Promise<string[]> {
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export Job Statistics' }).click();
  const csv = readFileSync((await (await downloading).path())!, 'utf8').replace(/^\uFEFF/, '');
  return csv
    .split('\r\n')
    .filter(Boolean)
    .slice(1)
    .map((line) => line.split(';')[0]);
}

/** Table rows, "N jobs match", the server's count and list, and the export: all the same `expected` jobs. */
async function agree(page: Page, expected: string[], note: string): Promise<void> {
  const table = page.getByTestId('admin-jobs-table');
  const total = page.getByTestId('list-total');
  await expect(total, note).toHaveText(`${expected.length} ${expected.length === 1 ? 'job matches' : 'jobs match'} these filters`);
  if (expected.length) await expect(table.locator('tbody tr'), note).toHaveCount(expected.length);
  else await expect(page.getByText('No jobs match these filters.'), note).toBeVisible();
  const count = await page.request.get(`/api/admin/jobs/count?${pageQuery(page)}`);
  expect(await count.json(), note).toEqual({ total: expected.length });
  expect((await serverList(page)).sort(), note).toEqual([...expected].sort());
  expect((await exportedIds(page)).sort(), note).toEqual([...expected].sort());
}

test('admin jobs: every filter gives the same jobs in the table, the count, the server and the export', async ({ page }) => {
  test.setTimeout(timeFor(240_000));
  const [a1, a2, aPore, b1] = fx.jobs;
  const live = [a1, aPore, b1];
  await loginAdmin(page);
  await page.goto('/admin/jobs');
  await expect(page.getByTestId('admin-jobs-table')).toBeVisible();

  // Company alone (the first filter of the query string: the one that used to be dropped).
  const company = page.getByTestId('filter-company');
  await company.fill(COMPANY);
  await company.press('Enter');
  await agree(page, live, 'company');

  // Deleted: All, then Deleted only.
  await choose(page, page.getByRole('textbox', { name: 'Deleted' }), 'All');
  await expect(page).toHaveURL(/[?&]deleted=ALL/);
  await agree(page, [...live, a2], 'deleted all');
  await choose(page, page.getByRole('textbox', { name: 'Deleted' }), /^Deleted$/);
  await agree(page, [a2], 'deleted only');
  await choose(page, page.getByRole('textbox', { name: 'Deleted' }), 'Not deleted');

  // Model (used to end in "columns.5: must NOT have more than 40 characters").
  await choose(page, page.getByRole('textbox', { name: 'Model' }), GRAIN_MODEL.displayName);
  await expect(page).toHaveURL(new RegExp(`[?&]modelId=${fx.grainId}`));
  await agree(page, [a1, b1], 'model');

  // User id with the model: user A's live grain job.
  const user = page.getByRole('textbox', { name: 'User id' });
  await user.fill(fx.userA);
  await user.press('Enter');
  await expect(page).toHaveURL(new RegExp(`[?&]userId=${fx.userA}`));
  await agree(page, [a1], 'model and user');
  await choose(page, page.getByRole('textbox', { name: 'Model' }), GRAIN_MODEL.displayName); // chosen again: cleared
  await expect(page).not.toHaveURL(/modelId=/);
  await agree(page, [a1, aPore], 'user');

  // Start and end date: today (UTC) keeps them, tomorrow finds none.
  const today = new Date().toISOString().slice(0, 10);
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel('Start date').fill(today);
  await expect(page).toHaveURL(new RegExp(`[?&]startDate=${today}`));
  await agree(page, [a1, aPore], 'start date');
  await page.getByLabel('End date').fill(today);
  await agree(page, [a1, aPore], 'date range');
  await page.getByLabel('Start date').fill(tomorrow);
  await page.getByLabel('End date').fill('');
  await agree(page, [], 'start date tomorrow');

  // Status, and the user's profile link "Show this user's jobs" (the user's jobs, deleted ones too).
  await page.getByRole('button', { name: 'Reset filters' }).click();
  await expect(page).not.toHaveURL(/userId=|company=|startDate=/);
  await page.goto(`/admin/users/${fx.userA}`);
  await page.getByRole('tab', { name: 'Images and jobs' }).click();
  await page.getByRole('link', { name: "Show this user's jobs" }).click();
  // The profile's link shows every job of the user, deleted ones too.
  await expect(page).toHaveURL(new RegExp(`/admin/jobs\\?userId=${fx.userA}&deleted=ALL`));
  await agree(page, [a1, a2, aPore], 'profile link');
  await choose(page, page.getByRole('textbox', { name: 'Status' }), 'Finished');
  const finished = [];
  for (const id of [a1, a2, aPore]) if ((await (await page.request.get(`/api/admin/jobs/${id}`)).json()).status === 'FINISHED') finished.push(id);
  await agree(page, finished, 'status');
});

test('admin users: a search shows its total, the XLSX download is a workbook', async ({ page }) => {
  await loginAdmin(page);
  await page.goto('/admin/users');
  await page.getByTestId('users-search').fill(COMPANY);
  await expect(page.getByTestId('list-total')).toHaveText('2 users');
  await expect(page.getByTestId('users-table').locator('tbody tr')).toHaveCount(2);
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Users as Excel (XLSX)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(readFileSync((await download.path())!) as unknown as ArrayBuffer);
  const sheet = book.worksheets[0];
  const header = (sheet.getRow(1).values as unknown[]).slice(1);
  expect(header[0]).toBe('User ID');
  const emailCol = header.indexOf('E-mail') + 1;
  const emails = sheet.getColumn(emailCol).values.slice(2);
  expect(emails).toEqual(expect.arrayContaining([fx.emailA, fx.emailB]));
});

test('results page: Export CSV and Export Excel download the selected jobs', async ({ browser, baseURL }) => {
  const { context, page } = await userSession(browser, baseURL!, fx.emailA);
  await page.goto(`/models/${GRAIN_MODEL.name}`);
  const items = page.getByTestId('job-item');
  await expect(items).toHaveCount(1); // the deleted one is gone
  await items.first().getByRole('checkbox').check();

  // One job selected: the URL used to be `…jobsIds=<id>?format=csv` (400, "CSV export failed").
  let downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csvFile = await downloading;
  expect(csvFile.suggestedFilename()).toBe('lamella-results.csv');
  const csv = readFileSync((await csvFile.path())!, 'utf8').replace(/^\uFEFF/, '');
  const lines = csv.split('\r\n').filter(Boolean);
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain('grains-');
  await expect(page.getByText('The CSV export failed')).toHaveCount(0);

  downloading = page.waitForEvent('download');
  await page.getByTestId('export-xlsx').click();
  const xlsxFile = await downloading;
  expect(xlsxFile.suggestedFilename()).toBe('lamella-results.xlsx');
  const buffer = readFileSync((await xlsxFile.path())!);
  expect(buffer.subarray(0, 2).toString()).toBe('PK');
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(buffer as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  book.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  expect(rows).toHaveLength(2);
  expect(rows[1].some((v) => String(v).startsWith('grains-'))).toBeTruthy();
  // the measurements are numbers in the workbook
  expect(rows[1].some((v) => typeof v === 'number')).toBeTruthy();
  const res = await page.request.get(`/api/jobs/export?jobsIds=${fx.jobs[0]}&format=xlsx`);
  expect(res.headers()['content-type']).toContain(XLSX);
  await context.close();
});
