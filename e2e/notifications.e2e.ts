/**
 * Job notifications (issue 12) in Chromium: a job that finishes while its owner is elsewhere (the dashboard)
 * reaches the bell live (JOB_FINISHED, pushed, unseen count on the bell); opening it goes to the model's results
 * page and marks it seen. A job that finishes while the owner has that model's results page open is seen there
 * and not notified. Screenshots of the bell panel at 1280 and 375 px.
 */
import { expect, test, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { GRAIN_MODEL, grainMicrograph, jobItem, modelId, runViaApi, signIn, uploadViaApi } from './analysis-helpers';
import { PASSWORD, acceptCookies, createVerifiedUser, timeFor } from './helpers';
import { runJobOnDashboard } from './admin-helpers';

test.describe.configure({ mode: 'serial' });

const OUT = fileURLToPath(new URL('../test-results/screenshots', import.meta.url));
/** The notification names the image (issue 24 item 7). */
const FINISHED = `${GRAIN_MODEL.displayName}: bell-01.png is done`;

let email = '';

test.beforeAll(async ({ request }) => {
  email = await createVerifiedUser(request, 'notified', { name: 'Nora', surname: 'Notified' });
});

test.beforeEach(async ({ context, baseURL }) => {
  await acceptCookies(context, baseURL!);
});

const bell = (page: Page) => page.getByRole('banner').getByRole('button', { name: 'Notifications' });
/** The unseen count shown on the bell. */
const unseenBadge = (page: Page) => page.getByRole('banner').locator('.mantine-Indicator-indicator');
const items = (page: Page) => page.getByTestId('notification');

test('a job finishing while its owner is on the dashboard reaches the bell; opening it goes to the results', async ({ page }) => {
  await signIn(page, email, PASSWORD);
  await expect(unseenBadge(page)).toHaveCount(0);
  const micrograph = await grainMicrograph(31);
  await runJobOnDashboard(page, { name: 'bell-01.png', buffer: micrograph.buffer }, GRAIN_MODEL.displayName);
  // pushed while the page stays on the dashboard: no reload
  await expect(unseenBadge(page)).toHaveText('1', { timeout: timeFor(60_000) });
  await expect(page).toHaveURL(/\/dashboard$/);

  for (const size of [
    { name: 'desktop', width: 1280, height: 800 },
    { name: 'phone', width: 375, height: 812 },
  ]) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await bell(page).click();
    const item = items(page).filter({ hasText: FINISHED });
    await expect(item).toBeVisible();
    await expect(item).toHaveAttribute('data-seen', 'false');
    // the panel fits the screen
    const panel = (await item.boundingBox())!;
    expect(panel.x).toBeGreaterThanOrEqual(0);
    expect(panel.x + panel.width).toBeLessThanOrEqual(size.width);
    await page.screenshot({ path: `${OUT}/${size.name}-notifications-job-finished.png`, animations: 'disabled' });
    await page.keyboard.press('Escape');
    await expect(item).toBeHidden();
  }
  // German: the panel (its header's longer buttons wrap) stays on screen at 375 px too; the tab strip at 1280 px
  expect((await page.request.patch('/api/users/me', { data: { language: 'de' } })).status()).toBe(200);
  await page.reload();
  for (const size of [
    { name: 'desktop', width: 1280, height: 800 },
    { name: 'phone', width: 375, height: 812 },
  ]) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await bell(page)
      .or(page.getByRole('banner').getByRole('button', { name: 'Benachrichtigungen' }))
      .click();
    const panel = page.getByTestId('notification-panel');
    await expect(panel).toBeVisible();
    await expect(items(page).first()).toContainText('bell-01.png');
    const box = (await panel.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(size.width);
    for (const button of await panel.getByRole('button').all()) {
      const b = await button.boundingBox();
      if (b) expect(b.x + b.width).toBeLessThanOrEqual(size.width);
    }
    await page.screenshot({ path: `${OUT}/${size.name}-notifications-de.png`, animations: 'disabled' });
    await page.keyboard.press('Escape');
  }
  expect((await page.request.patch('/api/users/me', { data: { language: 'en' } })).status()).toBe(200);
  await page.reload();
  await page.setViewportSize({ width: 1280, height: 800 });

  await bell(page).click();
  await items(page).filter({ hasText: FINISHED }).getByText(FINISHED).click();
  // the notification opens the job on its model's results page
  await expect(page).toHaveURL(new RegExp(`/models/${GRAIN_MODEL.name}\\?job=`));
  await expect(page.getByTestId('job-item').filter({ hasText: 'bell-01.png' })).toHaveAttribute('data-status', 'FINISHED');
  await expect(unseenBadge(page)).toHaveCount(0);
  await bell(page).click();
  await expect(items(page).filter({ hasText: FINISHED })).toHaveAttribute('data-seen', 'true');
});

test('a job finishing while its owner has the model results page open is not notified', async ({ page }) => {
  await signIn(page, email, PASSWORD);
  const before = ((await (await page.request.get('/api/notifications')).json()) as unknown[]).length;
  await page.goto(`/models/${GRAIN_MODEL.name}`);
  await expect(page.getByTestId('job-item').first()).toBeVisible();
  const image = await uploadViaApi(page.request, { ...(await grainMicrograph(32)), name: 'bell-02.png' });
  const [job] = await runViaApi(page.request, [image], [await modelId(page.request, GRAIN_MODEL.name)]);
  await expect(jobItem(page, job.id)).toHaveAttribute('data-status', 'FINISHED', { timeout: timeFor(60_000) });
  // nothing new for the bell, now or after leaving the page
  await page.goto('/dashboard');
  await expect(page.getByTestId('recent-job').first()).toBeVisible();
  await expect(unseenBadge(page)).toHaveCount(0);
  expect(((await (await page.request.get('/api/notifications')).json()) as unknown[]).length).toBe(before);
});
