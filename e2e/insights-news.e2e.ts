/**
 * Insights and news (issue 11 items 3 and 4) through the browser: an admin adds an insight, a user sees it on the
 * dashboard in German, hides it, the admin resets the visibility and the user sees it again; general news on the
 * dashboard and a model's news on its results page; screenshots at 1280 and 375 px.
 */
import { expect, test, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { acceptCookies, createVerifiedUser, timeFor } from './helpers';
import { choose, loginAdmin, toast, userSession } from './admin-helpers';

test.describe.configure({ mode: 'serial' });

const RUN = Date.now().toString(36);
const INSIGHT_EN = `Etching tips ${RUN}`;
const INSIGHT_DE = `Ätztipps ${RUN}`;
const NEWS_EN = `Faster grain runs ${RUN}`;
const MODEL_NEWS_EN = `Grain size model update ${RUN}`;
const MODEL = 'Grain size (ASTM E112)';
const MODEL_PATH = 'grain-size';
const OUT = fileURLToPath(new URL('../test-results/screenshots', import.meta.url));

let userEmail = '';

test.beforeAll(async ({ request }) => {
  userEmail = await createVerifiedUser(request, 'insights');
});

test.beforeEach(async ({ context, baseURL }) => {
  await acceptCookies(context, baseURL!);
});

/** Types into the rich-text editor (Tiptap) of the dialog field with this test id. */
async function writeRichText(page: Page, testId: string, text: string) {
  const editor = page.getByTestId(testId).locator('.ProseMirror');
  await editor.click();
  await editor.fill(text);
}

test('insight: admin adds, user reads it in German, hides it, admin resets, user sees it again', async ({ page, browser, baseURL }) => {
  test.setTimeout(timeFor(120_000));
  await loginAdmin(page);
  await page.goto('/admin/insights');
  await expect(page.getByRole('heading', { name: 'Insights', exact: true })).toBeVisible();

  // Add: the form names every missing field first.
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit insights' });
  await expect(dialog.getByText('Note: images in an insight should not exceed 850px width.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Title is required')).toHaveCount(2);
  await expect(dialog.getByText('Content is required')).toHaveCount(2);
  await dialog.getByTestId('insight-title-en').fill(INSIGHT_EN);
  await dialog.getByTestId('insight-title-de').fill(INSIGHT_DE);
  await writeRichText(page, 'insight-content-en', 'Use fresh Nital for steel samples.');
  await writeRichText(page, 'insight-content-de', 'Verwenden Sie frisches Nital für Stahlproben.');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'Insight has been added.')).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('insight-row').filter({ hasText: INSIGHT_EN });
  await expect(row).toBeVisible();

  // The user, in German: the dashboard shows the German title and content.
  const user = await userSession(browser, baseURL!, userEmail);
  // the user's own language setting wins over a cookie once signed in: set it on the profile
  expect((await user.page.request.patch('/api/users/me', { data: { language: 'de' } })).ok()).toBeTruthy();
  await user.context.addCookies([{ name: 'lng', value: 'de', url: baseURL! }]);
  await user.page.reload();
  const card = user.page.getByTestId('insights-card');
  await expect(card.getByRole('heading', { name: 'Einblicke' })).toBeVisible();
  const item = card.getByTestId('insight-item').filter({ hasText: INSIGHT_DE });
  await expect(item).toBeVisible();
  await expect(card.getByText(INSIGHT_EN)).toHaveCount(0);
  await item.getByRole('button', { name: INSIGHT_DE, exact: true }).click();
  await expect(user.page.getByTestId('insight-content')).toContainText('Verwenden Sie frisches Nital für Stahlproben.');
  await user.page.keyboard.press('Escape');

  // Hide it: gone from the dashboard, also after a reload.
  await item.getByTestId('insight-hide').click();
  await expect(user.page.getByTestId('insight-item').filter({ hasText: INSIGHT_DE })).toHaveCount(0);
  await user.page.reload();
  await expect(user.page.getByTestId('insight-item').filter({ hasText: INSIGHT_DE })).toHaveCount(0);

  // The admin resets the visibility for everyone.
  await page.getByRole('button', { name: 'Reset visibility' }).click();
  // it asks first (issue 26)
  await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
  await expect(toast(page, 'Insights visibility has been reset for all users.')).toBeVisible();
  await user.page.reload();
  await expect(user.page.getByTestId('insight-item').filter({ hasText: INSIGHT_DE })).toBeVisible();

  // Edit: the modal opens with the saved values.
  await row.getByTestId('insight-edit').click();
  await expect(dialog.getByTestId('insight-title-en')).toHaveValue(INSIGHT_EN);
  await dialog.getByTestId('insight-title-en').fill(`${INSIGHT_EN} (revised)`);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'Insight has been updated.')).toBeVisible();
  await expect(page.getByTestId('insight-row').filter({ hasText: `${INSIGHT_EN} (revised)` })).toBeVisible();
  // back to English for the next journeys of this user
  expect((await user.page.request.patch('/api/users/me', { data: { language: 'en' } })).ok()).toBeTruthy();
  await user.context.close();
});

test('news: general news on the dashboard, a model news on its results page', async ({ page, browser, baseURL }) => {
  test.setTimeout(timeFor(120_000));
  await loginAdmin(page);
  await page.goto('/admin/news');
  await expect(page.getByRole('heading', { name: 'News', exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Add', exact: true }).click();
  let dialog = page.getByRole('dialog', { name: 'Edit news' });
  await expect(dialog.getByPlaceholder('Select model or leave empty for general news')).toBeVisible();
  await dialog.getByTestId('news-title-en').fill(NEWS_EN);
  await dialog.getByTestId('news-title-de').fill(`Schnellere Kornläufe ${RUN}`);
  await writeRichText(page, 'news-content-en', 'Grain runs are now twice as fast.');
  await writeRichText(page, 'news-content-de', 'Kornläufe sind jetzt doppelt so schnell.');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'News has been added.')).toBeVisible();

  await page.getByRole('button', { name: 'Add', exact: true }).click();
  dialog = page.getByRole('dialog', { name: 'Edit news' });
  await choose(page, dialog.getByPlaceholder('Select model or leave empty for general news'), MODEL);
  await dialog.getByTestId('news-title-en').fill(MODEL_NEWS_EN);
  await dialog.getByTestId('news-title-de').fill(`Update des Korngrößenmodells ${RUN}`);
  await writeRichText(page, 'news-content-en', 'Version 20250101 measures twin boundaries.');
  await writeRichText(page, 'news-content-de', 'Version 20250101 misst Zwillingsgrenzen.');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'News has been added.')).toBeVisible();
  await expect(page.getByTestId('news-row').filter({ hasText: MODEL_NEWS_EN })).toContainText(MODEL);

  const user = await userSession(browser, baseURL!, userEmail);
  const dashboardNews = user.page.getByTestId('news-card');
  await expect(dashboardNews.getByText(NEWS_EN)).toBeVisible();
  await expect(dashboardNews.getByText(MODEL_NEWS_EN)).toHaveCount(0);
  await user.page.goto(`/models/${MODEL_PATH}`);
  const modelNews = user.page.getByTestId('model-news');
  await expect(modelNews.getByText(MODEL_NEWS_EN)).toBeVisible();
  await expect(modelNews).toContainText('Version 20250101 measures twin boundaries.');
  await expect(modelNews.getByText(NEWS_EN)).toHaveCount(0);
  await user.context.close();

  // Delete the general news: 'Are you sure you want to delete news?' (Yes).
  await page.getByTestId('news-row').filter({ hasText: NEWS_EN }).getByTestId('news-delete').click();
  const confirm = page.getByRole('dialog').filter({ hasText: 'Are you sure you want to delete news?' });
  await confirm.getByRole('button', { name: 'Yes' }).click();
  await expect(toast(page, 'News has been deleted.')).toBeVisible();
  await expect(page.getByTestId('news-row').filter({ hasText: NEWS_EN })).toHaveCount(0);
});

const WIDTHS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 375, height: 812 },
];

for (const size of WIDTHS) {
  test(`screenshots of insights and news at ${size.width}px`, async ({ page, browser, baseURL }) => {
    test.setTimeout(timeFor(90_000));
    await page.setViewportSize({ width: size.width, height: size.height });
    const shot = (p: Page, name: string, fullPage = true) =>
      p.screenshot({ path: `${OUT}/${size.name}-${name}.png`, fullPage, animations: 'disabled' });
    await loginAdmin(page);
    await page.goto('/admin/insights');
    await expect(page.getByTestId('insights-table')).toBeVisible();
    await shot(page, 'admin-insights');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(page.getByRole('dialog', { name: 'Edit insights' })).toBeVisible();
    await shot(page, 'admin-insight-dialog', false);
    await page.keyboard.press('Escape');
    await page.goto('/admin/news');
    await expect(page.getByTestId('news-table')).toBeVisible();
    await shot(page, 'admin-news');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(page.getByRole('dialog', { name: 'Edit news' })).toBeVisible();
    await shot(page, 'admin-news-dialog', false);

    const user = await userSession(browser, baseURL!, userEmail);
    await user.page.setViewportSize({ width: size.width, height: size.height });
    expect((await user.page.request.patch('/api/users/me', { data: { language: 'de' } })).ok()).toBeTruthy();
    await user.context.addCookies([{ name: 'lng', value: 'de', url: baseURL! }]);
    await user.page.reload();
    await expect(user.page.getByTestId('insights-card')).toBeVisible();
    await shot(user.page, 'dashboard-insights-de');
    await user.page.goto(`/models/${MODEL_PATH}`);
    await expect(user.page.getByTestId('model-news')).toBeVisible();
    await shot(user.page, 'model-news-de');
    expect((await user.page.request.patch('/api/users/me', { data: { language: 'en' } })).ok()).toBeTruthy();
    await user.context.close();
  });
}
