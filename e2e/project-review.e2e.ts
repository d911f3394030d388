/**
 * Review in a shared project (issue 24 items 2 and 5) through the browser: A runs grain size on two fields of a
 * project, sees each field with its thumbnail, key value, status and a link, and accepts field 1 (locked); B, a
 * viewer, sees the same fields without the accept buttons, opens a job read-only (overlay, tables, job report menu)
 * and goes back. Screenshots of the project page at 1280 and 375 px in English and German.
 */
import { expect as baseExpect, test, type Browser, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { expectImageLoaded, getJob, grainMicrograph, modelId, signIn, uploadViaApi } from './analysis-helpers';
import { PASSWORD, acceptCookies, createVerifiedUser, timeFor } from './helpers';

test.describe.configure({ mode: 'serial' });
// the project page, the lazily loaded review and the analyses take their time on a loaded machine
const expect = baseExpect.configure({ timeout: timeFor(90_000) });

const OUT = fileURLToPath(new URL('../test-results/screenshots', import.meta.url));
const WIDTHS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 375, height: 812 },
];
const PROJECT = `Specimen review ${Date.now() % 100000}`;
let ownerEmail = '';
let viewerEmail = '';
let projectId = '';
let jobIds: string[] = [];

async function signedInPage(browser: Browser, baseURL: string, email: string): Promise<Page> {
  const context = await browser.newContext();
  await acceptCookies(context, baseURL);
  const page = await context.newPage();
  await signIn(page, email, PASSWORD);
  return page;
}

async function shoot(page: Page, name: string): Promise<void> {
  for (const w of WIDTHS) {
    await page.setViewportSize({ width: w.width, height: w.height });
    await page.mouse.move(0, 0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${OUT}/${name}-${w.name}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test.beforeAll(async ({ request }) => {
  ownerEmail = await createVerifiedUser(request, 'review-owner', { name: 'Ada', surname: 'Owner' });
  viewerEmail = await createVerifiedUser(request, 'review-viewer', { name: 'Bea', surname: 'Viewer' });
});

test('A sees the fields with key values and a link, and accepts field 1', async ({ browser, baseURL }) => {
  test.setTimeout(timeFor(480_000)); // two grain-size analyses by the real launcher
  const page = await signedInPage(browser, baseURL!, ownerEmail);
  const imageIds = [
    await uploadViaApi(page.request, { ...(await grainMicrograph(11)), name: 'field-01.png' }),
    await uploadViaApi(page.request, { ...(await grainMicrograph(12)), name: 'field-02.png' }),
  ];
  const created = await page.request.post('/api/projects', { data: { name: PROJECT, description: 'Two fields, grain size' } });
  expect(created.ok()).toBeTruthy();
  projectId = ((await created.json()) as { id: string }).id;
  expect((await page.request.post(`/api/projects/${projectId}/images`, { data: { imageIds } })).ok()).toBeTruthy();
  expect((await page.request.post(`/api/projects/${projectId}/share`, { data: { email: viewerEmail, role: 'VIEWER' } })).ok()).toBeTruthy();
  const run = await page.request.post('/api/jobs', { data: { imageIds, modelIds: [await modelId(page.request, 'grain-size')], projectId } });
  expect(run.ok(), await run.text()).toBeTruthy();
  jobIds = ((await run.json()) as { id: string }[]).map((j) => j.id);
  for (const id of jobIds)
    await expect.poll(async () => (await getJob(page.request, id)).status, { timeout: timeFor(240_000) }).toMatch(/FINISHED|CACHED/);

  await page.goto(`/projects?project=${projectId}`);
  const detail = page.getByTestId('project-detail');
  const fields = detail.getByTestId('project-image');
  await expect(fields).toHaveCount(2);
  await expect(fields.nth(0)).toContainText('Field 1');
  await expect(fields.nth(0)).toContainText('field-01.png');
  await expectImageLoaded(fields.nth(0).getByRole('img', { name: 'field-01.png' }));
  const first = fields.nth(0).getByTestId('field-model');
  await expect(first.getByTestId('field-key-value')).toContainText(/^G \d/);
  await expect(first).toContainText('Newest');
  await expect(first.getByRole('link', { name: 'Open Grain size (ASTM E112) of field-01.png' })).toHaveAttribute('href', /job=/);
  await first.getByTestId('field-accept').click();
  await expect(first.getByTestId('field-accepted')).toBeVisible();
  await expect(first).toHaveAttribute('data-accepted', 'true');
  await shoot(page, 'project-review-owner-en');
  await page.context().close();
});

test('B, a viewer, reviews the fields and opens a job read-only; English and German', async ({ browser, baseURL }) => {
  test.setTimeout(timeFor(480_000));
  const page = await signedInPage(browser, baseURL!, viewerEmail);
  // the share is an invitation until the viewer accepts it (issue 28 item 4)
  for (const i of (await (await page.request.get('/api/projects/invitations')).json()) as Array<{ id: string }>)
    expect((await page.request.post(`/api/projects/invitations/${i.id}/accept`)).ok()).toBeTruthy();
  await page.goto(`/projects?project=${projectId}`);
  const detail = page.getByTestId('project-detail');
  const fields = detail.getByTestId('project-image');
  await expect(fields).toHaveCount(2);
  await expect(fields.nth(0).getByTestId('field-accepted')).toBeVisible();
  await expect(fields.nth(1).getByTestId('field-key-value')).toContainText(/^G \d/);
  // read-only: no accept or release
  await expect(detail.getByTestId('field-accept')).toHaveCount(0);
  await expect(detail.getByTestId('field-release')).toHaveCount(0);
  await shoot(page, 'project-review-viewer-en');

  await fields.nth(1).getByTestId('field-open').click();
  await expect(page).toHaveURL(new RegExp(`job=${jobIds[1]}`));
  const review = page.getByTestId('project-job-review');
  await expect(review).toContainText('field-02.png');
  await expect(review).toContainText('Read-only review');
  await expect(review.getByTestId('key-result')).toContainText(/^G \d/);
  const overlay = review.getByTestId('result-image').first();
  await expectImageLoaded(overlay.getByRole('img').first());
  await expect(review.getByTestId('result-table').first()).toBeVisible();
  await expect(review.getByTestId('rate-button')).toHaveCount(0);
  await review.getByTestId('job-report-menu').click();
  const pdf = page.getByTestId('job-report-pdf');
  await expect(pdf).toBeVisible();
  const report = await page.request.get((await pdf.getAttribute('href'))!);
  expect(report.status()).toBe(200);
  expect(report.headers()['content-type']).toBe('application/pdf');
  await page.keyboard.press('Escape');
  await shoot(page, 'project-review-job-en');
  await review.getByRole('button', { name: 'Back to the project' }).click();
  await expect(detail.getByTestId('project-image')).toHaveCount(2);

  // the same page in German
  expect((await page.request.patch('/api/users/me', { data: { language: 'de' } })).ok()).toBeTruthy();
  await page.context().addCookies([{ name: 'lng', value: 'de', url: baseURL! }]);
  await page.goto(`/projects?project=${projectId}`);
  await expect(page.getByTestId('project-image').nth(0)).toContainText('Feld 1');
  await expect(page.getByTestId('project-image').nth(0).getByTestId('field-accepted')).toContainText('Übernommen');
  await shoot(page, 'project-review-viewer-de');
  await page.goto(`/projects?project=${projectId}&job=${jobIds[0]}`);
  await expect(page.getByTestId('project-job-review')).toContainText('Nur zur Ansicht');
  await shoot(page, 'project-review-job-de');
  await page.context().close();
});

test('A sees the page in German too', async ({ browser, baseURL }) => {
  test.setTimeout(timeFor(240_000));
  const page = await signedInPage(browser, baseURL!, ownerEmail);
  expect((await page.request.patch('/api/users/me', { data: { language: 'de' } })).ok()).toBeTruthy();
  await page.context().addCookies([{ name: 'lng', value: 'de', url: baseURL! }]);
  await page.goto(`/projects?project=${projectId}`);
  await expect(page.getByTestId('project-image').nth(1).getByTestId('field-accept')).toContainText('Übernehmen');
  await shoot(page, 'project-review-owner-de');
  await page.context().close();
});
