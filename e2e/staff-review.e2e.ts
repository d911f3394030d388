/**
 * Issue 26 items 2, 3, 5 in the browser: the admin job detail (input image, overlay, key values, owner and company,
 * every attempt, "Re-run for the customer", "Next job"), the dashboard's failure causes and finished-only average,
 * and the Services screen; screenshots at 1280 and 375 px in English and German (test-results/screenshots/issue26).
 * Shared state: it switches the administrator's language for the German pictures (and back).
 */
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { acceptCookies, timeFor } from './helpers';
import { createUserOfCompany, grainPng, loginAdmin, runJobOnDashboard, userSession } from './admin-helpers';

const RUN = Date.now().toString(36);
const COMPANY = `Review Lab ${RUN}`;
const MODEL = 'Grain size (ASTM E112)';
const MODEL_PATH = 'grain-size';
const OUT = process.env.E2E_SHOTS_DIR ?? fileURLToPath(new URL('../test-results/screenshots/issue26', import.meta.url));

test.beforeEach(async ({ context, baseURL }) => {
  await acceptCookies(context, baseURL!);
});

async function shots(page: Page, name: string, lng: 'en' | 'de') {
  mkdirSync(OUT, { recursive: true });
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${OUT}/${name}-${width}-${lng}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function language(page: Page, lng: 'en' | 'de') {
  const r = await page.request.patch('/api/users/me', { data: { language: lng } });
  expect(r.status()).toBe(200);
  await page.context().addCookies([{ name: 'lng', value: lng, url: page.url() }]);
}

test('admin job review: images, key values, owner, attempts, re-run for the customer, next job; dashboard causes', async ({
  page,
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(timeFor(420_000));
  const email = await createUserOfCompany(request, 'review', COMPANY, 'Ada', 'Lovelace');
  const user = await userSession(browser, baseURL!, email);
  const filename = `review-${RUN}.png`;
  await runJobOnDashboard(user.page, { name: filename, buffer: await grainPng(2601) }, MODEL);
  // the job's id from the results page, then its end through the API (the analysis may be slow on a loaded machine)
  await user.page.goto(`/models/${MODEL_PATH}`);
  const item = user.page.getByTestId('job-item').filter({ hasText: filename });
  const id = (await item.getAttribute('data-job-id'))!;
  await expect
    .poll(async () => (await (await user.page.request.get(`/api/jobs/${id}`)).json()).status, { timeout: timeFor(180_000), intervals: [2000] })
    .toBe('FINISHED');
  await user.context.close();

  await loginAdmin(page);
  await page.goto(`/admin/jobs/${id}`);
  const review = page.getByTestId('job-review');
  await expect(review.getByTestId('job-owner')).toHaveText('Ada Lovelace');
  await expect(review.getByTestId('job-company')).toHaveText(COMPANY);
  // the input image and the model's overlay are loaded (not broken)
  for (const img of [review.getByTestId('job-input-image'), review.getByTestId('job-overlay-image').first()])
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  await expect(review.getByTestId('job-key-values').getByRole('row').first()).toBeVisible();
  const attempts = page.getByTestId('job-attempts').getByTestId('job-attempt');
  await expect(attempts).toHaveCount(1);
  await expect(attempts.first()).toContainText('Finished');
  for (const lng of ['en', 'de'] as const) {
    if (lng === 'de') {
      await language(page, 'de');
      await page.reload();
      await expect(page.getByTestId('job-attempts')).toContainText('Versuche');
    }
    await shots(page, 'job-detail', lng);
  }
  await language(page, 'en');
  await page.reload();

  // Re-run for the customer: confirmed, then the new job's detail points back to this one
  await page.getByTestId('job-rerun').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Re-run for the customer' }).click();
  await expect(page.getByText('The job was queued again for the customer.')).toBeVisible();
  await expect(page.getByTestId('job-parent')).toHaveText(`Re-run of job ${id}`);
  const rerunUrl = page.url();
  expect(rerunUrl).not.toContain(id);
  // Next job: the newest finished job without an administrator rating (the original, or an older one)
  await page.getByTestId('job-parent').click();
  await expect(page).toHaveURL(new RegExp(`/admin/jobs/${id}$`));
  // (on a fresh server no older one is left, and it says so)
  await page.getByTestId('job-next').click();
  await expect(async () => {
    const moved = !new RegExp(`/admin/jobs/${id}$`).test(page.url());
    const none = await page.getByText('No finished job without an administrator rating is left.').isVisible();
    expect(moved || none).toBe(true);
  }).toPass();

  // dashboard: failures split by cause, the average over finished jobs only
  await page.goto('/admin');
  await expect(page.getByTestId('card-fails-causes')).toContainText('Refused by the model:');
  await expect(page.getByTestId('card-fails-causes')).toContainText('Infrastructure:');
  await expect(page.getByTestId('card-average-time-note')).toContainText('failed and cached jobs not counted');
  await shots(page, 'dashboard', 'en');
  await page.goto('/admin/settings');
  await expect(page.getByTestId('service-registry')).toBeVisible();
  await shots(page, 'settings-services', 'en');
  await page.goto('/admin/resources');
  await page.getByTestId('server-list').getByRole('button').filter({ hasText: 'This machine' }).click();
  await expect(page.getByTestId('launcher-state').first()).toBeVisible();
  await shots(page, 'servers', 'en');
  await language(page, 'de');
  for (const path of ['/admin', '/admin/settings', '/admin/resources']) {
    await page.goto(path);
    if (path === '/admin/resources') await page.getByTestId('server-list').getByRole('button').first().click();
    await page.waitForLoadState('networkidle');
    await shots(page, path === '/admin' ? 'dashboard' : path === '/admin/settings' ? 'settings-services' : 'servers', 'de');
  }
  await language(page, 'en');
});
