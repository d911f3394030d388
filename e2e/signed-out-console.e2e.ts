/**
 * A signed-out visitor's pages log nothing in the console. The app used to ask GET /api/users/me on every page
 * (and index.html preloaded it): for a visitor without a session it answers 401, which Chromium logs as "Failed to
 * load resource: the server responded with a status of 401". The app now asks only where the browser has a session
 * (the readable `lamella_signed_in` marker the server sets with the session cookie); a signed-in user still is.
 */
import { expect, test, type Page } from '@playwright/test';
import { acceptCookies, createVerifiedUser, login } from './helpers';

/** Console errors, uncaught page errors and failed (4xx/5xx) answers of `page`, from now on. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${String(e)}`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  return problems;
}

test.beforeEach(async ({ context, baseURL }) => {
  await acceptCookies(context, baseURL!);
});

test('the sign-in page and the other public pages log no console error for a signed-out visitor', async ({ page }) => {
  const problems = watch(page);
  for (const path of ['/auth/login', '/', '/auth/register', '/auth/reset-password', '/terms']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
  }
  await expect(page.getByRole('heading', { name: 'Terms of use', level: 1 })).toBeVisible();
  await page.goto('/auth/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  // and in German
  await page.getByText('Deutsch', { exact: true }).click();
  await expect(page.getByRole('button', { name: 'Anmelden' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Anmelden' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(problems).toEqual([]);
});

test('a signed-in user stays signed in across reloads; after signing out the sign-in page is clean again', async ({ page, request }) => {
  const email = await createVerifiedUser(request, 'console');
  await login(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.reload();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Upload micrographs' })).toBeVisible();
  await page.goto('/history');
  await expect(page).toHaveURL(/\/history/);

  await page.goto('/logout');
  await expect(page).toHaveURL(/\/auth\/login$/, { timeout: 15_000 });
  const problems = watch(page);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(problems).toEqual([]);
  // a signed-out visitor is still sent to sign in
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth\/login\?redirect=%2Fdashboard/);
});

test('a session started before the marker existed is still recognised (the page sets the marker)', async ({ page, context, request, baseURL }) => {
  const email = await createVerifiedUser(request, 'console-old');
  await login(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  await context.clearCookies({ name: 'lamella_signed_in' });
  expect((await context.cookies(baseURL!)).some((c) => c.name === 'lamella_signed_in')).toBe(false);
  await page.goto('/history');
  await expect(page).toHaveURL(/\/history/);
  expect((await context.cookies(baseURL!)).find((c) => c.name === 'lamella_signed_in')?.value).toBe('1');
});
