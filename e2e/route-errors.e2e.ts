/**
 * Issue 26 item 4: a screen whose code cannot be loaded (a deploy removed the old build's files) reloads the app
 * once, then shows a friendly error with a reload button (both languages) instead of React Router's developer page.
 */
import { expect, test, type Page } from '@playwright/test';
import { acceptCookies } from './helpers';

/** The terms page is a lazily loaded screen of the public area (routes/index.tsx): its chunk is TermsPage-<hash>.js. */
const TERMS_CHUNK = /\/assets\/TermsPage-[^/]*\.js$/;

async function blockTermsChunk(page: Page): Promise<{ blocked: () => number }> {
  let n = 0;
  await page.route(TERMS_CHUNK, async (route) => {
    n++;
    await route.abort('failed');
  });
  return { blocked: () => n };
}

/** Counts the HTML documents the tab loads (the first visit, then each reload). */
function countDocuments(page: Page): () => number {
  let n = 0;
  page.on('request', (r) => {
    if (r.resourceType() === 'document') n++;
  });
  return () => n;
}

test.beforeEach(async ({ context, baseURL }) => {
  await acceptCookies(context, baseURL!);
});

test('a screen whose code fails to load reloads once, then shows a friendly error with a reload button', async ({ page }) => {
  const documents = countDocuments(page);
  const chunk = await blockTermsChunk(page);
  await page.goto('/terms');
  const error = page.getByTestId('route-error');
  await expect(error).toBeVisible();
  await expect(error.getByRole('heading', { name: 'A new version of Lamella is available' })).toBeVisible();
  await expect(error).toContainText('Reload to continue with the new version.');
  await expect(page.getByText(/Unexpected Application Error|Hey developer/)).toHaveCount(0);
  // the first failure reloaded the app (a second document), the second did not reload again
  expect(documents()).toBe(2);
  expect(chunk.blocked()).toBeGreaterThanOrEqual(2);
  // the chunk is back (the new build is there): the button brings the page
  await page.unroute(TERMS_CHUNK);
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByRole('heading', { name: 'Terms of use', level: 1 })).toBeVisible();
  expect(documents()).toBe(3);
});

test('the chunk error page in German', async ({ page }) => {
  await page.goto('/auth/login');
  await page.getByText('Deutsch', { exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Anmelden' })).toBeVisible();
  const chunk = await blockTermsChunk(page);
  await page.goto('/terms');
  const error = page.getByTestId('route-error');
  await expect(error.getByRole('heading', { name: 'Eine neue Version von Lamella ist verfügbar' })).toBeVisible();
  await expect(error.getByRole('button', { name: 'Neu laden' })).toBeVisible();
  expect(chunk.blocked()).toBeGreaterThanOrEqual(2);
});

test('a chunk that fails once (a deploy) is fetched again by the reload and the page shows', async ({ page }) => {
  const documents = countDocuments(page);
  let failed = 0;
  await page.route(TERMS_CHUNK, async (route) => {
    if (failed++ === 0) await route.abort('failed');
    else await route.continue();
  });
  await page.goto('/terms');
  await expect(page.getByRole('heading', { name: 'Terms of use', level: 1 })).toBeVisible();
  await expect(page.getByTestId('route-error')).toHaveCount(0);
  expect(documents()).toBe(2);
});
