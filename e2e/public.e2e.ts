/** Public area: redirects for visitors without a session, public pages, the language switch. */
import { expect, test } from '@playwright/test';
import { acceptCookies } from './helpers';

test.beforeEach(async ({ context, baseURL }) => {
  await acceptCookies(context, baseURL!);
});

test('unauthenticated visitors are sent to login, keeping the target', async ({ page }) => {
  await page.goto('/profile?tab=x');
  await expect(page).toHaveURL(/\/auth\/login\?redirect=%2Fprofile%3Ftab%3Dx$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
});

test('plain / goes to login without a redirect parameter', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
});

test('public pages and the footer', async ({ page }) => {
  await page.goto('/terms');
  await expect(page.getByRole('heading', { name: 'Terms of use', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Imprint' }).click();
  await expect(page.getByRole('heading', { name: 'Imprint' })).toBeVisible();
  await page.getByRole('link', { name: 'Licenses' }).click();
  await expect(page.getByRole('heading', { name: 'Licenses' })).toBeVisible();
  await expect(page.getByTestId('app-version')).toContainText(/Version \S+ \(testing\)/);
  await page.getByText('Deutsch', { exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Lizenzen' })).toBeVisible();
  await page.goto('/auth/login');
  await expect(page.getByRole('heading', { name: 'Anmelden' })).toBeVisible();
});

test('the cookie notice shows until it is understood', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto('/auth/login');
  await page.getByRole('button', { name: 'Understood' }).click();
  await expect(page.getByRole('button', { name: 'Understood' })).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Understood' })).toHaveCount(0);
  expect((await context.cookies()).some((c) => c.name === 'cookie-consent')).toBe(true);
  await context.close();
});

test('logout page counts down and goes to /', async ({ page }) => {
  await page.goto('/logout');
  await expect(page.getByText(/Redirecting in \d s/)).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login$/, { timeout: 15_000 });
});

test('account removal with a bad token fails', async ({ page }) => {
  await page.goto('/auth/account-removal?token=nope');
  await expect(page.getByText(/Account removal failed, try again or contact support/)).toBeVisible();
});
