/**
 * Reports (issue 14) through the browser: the job report (PDF and Excel) from the "Report" menu of a finished job
 * on the results page, and the specimen report of a project from its detail. Each download is checked (size,
 * PDF / ZIP magic) and every PDF page is rendered with poppler's pdftoppm into test-results/screenshots/.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type Download, type Page } from '@playwright/test';
import { GRAIN_MODEL, grainMicrograph, jobItem, modelId, openFinishedJob, signIn, uploadViaApi } from './analysis-helpers';
import { PASSWORD, acceptCookies, createVerifiedUser, timeFor } from './helpers';

test.describe.configure({ mode: 'serial' });
// no trace files: the artifacts folder is shared with parallel runs of other specs
test.use({ trace: 'off' });

const OUT = fileURLToPath(new URL('../test-results/screenshots', import.meta.url));
const WIDTHS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 375, height: 812 },
];

let email = '';
let jobId = '';
let projectId = '';

test.beforeEach(async ({ context, baseURL }) => {
  await acceptCookies(context, baseURL!);
});

/** Saves a download, checks it is not empty and starts with `magic`; renders a PDF's pages at 60 dpi. */
async function saved(download: Download, name: string, magic: string): Promise<Buffer> {
  const path = `${OUT}/${name}`;
  await download.saveAs(path);
  const data = readFileSync(path);
  expect(data.length).toBeGreaterThan(1000);
  expect(data.subarray(0, magic.length).toString('latin1')).toBe(magic);
  if (magic === '%PDF-') execFileSync('pdftoppm', ['-png', '-r', '60', path, path.replace(/\.pdf$/, '')]);
  return data;
}

async function download(page: Page, menu: string, item: string): Promise<Download> {
  await page.getByTestId(menu).first().click();
  const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId(item).click()]);
  return d;
}

test('a job report as PDF and Excel from the results page', async ({ page }) => {
  test.setTimeout(timeFor(150_000));
  email = await createVerifiedUser(page.request, 'reports', { company: 'Reports Lab GmbH' });
  await signIn(page, email, PASSWORD);
  const fields = [await grainMicrograph(11), await grainMicrograph(12)];
  const imageIds = [];
  for (const f of fields) imageIds.push(await uploadViaApi(page.request, f));
  const project = await (await page.request.post('/api/projects', { data: { name: 'Specimen E2E' } })).json();
  projectId = project.id;
  expect((await page.request.post(`/api/projects/${projectId}/images`, { data: { imageIds } })).ok()).toBeTruthy();
  const res = await page.request.post('/api/jobs', { data: { imageIds, modelIds: [await modelId(page.request, GRAIN_MODEL.name)], projectId } });
  const jobs = (await res.json()) as Array<{ id: string }>;
  jobId = jobs[0].id;

  await page.goto(`/models/${GRAIN_MODEL.name}`);
  const item = jobItem(page, jobId);
  await expect(page.getByTestId('job-item').first())
    .toBeVisible({ timeout: timeFor(30_000) })
    .catch(async (e) => {
      await page.screenshot({ path: `${OUT}/reports-results-failure.png`, fullPage: true });
      throw e;
    });
  await openFinishedJob(page, item, 120_000);
  for (const w of WIDTHS) {
    await page.setViewportSize({ width: w.width, height: w.height });
    await item.getByTestId('job-report-menu').click();
    await expect(page.getByTestId('job-report-pdf')).toBeVisible();
    await page.screenshot({ path: `${OUT}/reports-job-menu-${w.name}.png` });
    await page.keyboard.press('Escape');
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await item.getByTestId('job-report-menu').click();
  const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByTestId('job-report-pdf').click()]);
  expect(pdf.suggestedFilename()).toMatch(/^report-grains-.+\.pdf$/);
  await saved(pdf, 'reports-job.pdf', '%PDF-');
  await item.getByTestId('job-report-menu').click();
  const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByTestId('job-report-xlsx').click()]);
  expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
  await saved(xlsx, 'reports-job.xlsx', 'PK');
});

test('a specimen report from the project detail', async ({ page }) => {
  test.setTimeout(timeFor(150_000));
  await signIn(page, email, PASSWORD);
  // both fields finished (the second job may still run)
  await expect
    .poll(
      async () => {
        const images = (await (await page.request.get(`/api/projects/${projectId}/images`)).json()) as Array<{ jobs: Array<{ status: string }> }>;
        return images.every((i) => i.jobs.some((j) => j.status === 'FINISHED'));
      },
      { timeout: timeFor(120_000) },
    )
    .toBe(true);
  await page.goto('/projects');
  await page.getByTestId('project-item').filter({ hasText: 'Specimen E2E' }).click();
  const detail = page.getByTestId('project-detail');
  await expect(detail).toBeVisible();
  for (const w of WIDTHS) {
    await page.setViewportSize({ width: w.width, height: w.height });
    await detail.getByTestId('project-report-menu').click();
    await expect(page.getByTestId('project-report-pdf')).toBeVisible();
    await page.screenshot({ path: `${OUT}/reports-project-menu-${w.name}.png` });
    await page.keyboard.press('Escape');
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  const pdf = await download(page, 'project-report-menu', 'project-report-pdf');
  expect(pdf.suggestedFilename()).toBe('specimen-report-Specimen-E2E.pdf');
  await saved(pdf, 'reports-specimen.pdf', '%PDF-');
  const xlsx = await download(page, 'project-report-menu', 'project-report-xlsx');
  await saved(xlsx, 'reports-specimen.xlsx', 'PK');
});
