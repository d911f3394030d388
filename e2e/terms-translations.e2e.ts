/**
 * Terms and translation overrides (issue 11 items 5 and 6) through the browser: an admin publishes new terms, a
 * user signing in must accept them (a blocking dialog), the /terms page shows the version; an admin overrides a
 * key in English and German, reloads the translations and sees the new text without reloading the page, a German
 * visitor sees the German override. Screenshots at 1280 and 375 px.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { acceptCookies, createVerifiedUser, login, timeFor } from './helpers';
import { ADMIN_EMAIL, ADMIN_PASSWORD, loginAdmin, toast } from './admin-helpers';

test.describe.configure({ mode: 'serial' });

const RUN = Date.now().toString(36);
const OUT = fileURLToPath(new URL('../test-results/screenshots', import.meta.url));
const TERMS_TEXT = `Updated terms ${RUN}: analyses may be kept for 90 days.`;
const MOBILE = { width: 375, height: 812 };

const shot = (page: Page, name: string) => page.screenshot({ path: `${OUT}/terms-translations-${name}.png`, fullPage: true, animations: 'disabled' });

/** Signs in as `email` in a fresh browser context (cookie notice accepted) and answers the page. */
async function signIn(browser: Browser, baseURL: string, email: string, password?: string, viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ baseURL, locale: 'en-US', viewport });
  await acceptCookies(context, baseURL);
  const page = await context.newPage();
  await login(page, email, password);
  return { context, page };
}

let alice = '';
let bob = '';

test.beforeAll(async ({ request }) => {
  // Both accept the terms current at sign-up (the built-in text), before the admin publishes a new version.
  alice = await createVerifiedUser(request, 'terms-a');
  bob = await createVerifiedUser(request, 'terms-b');
});

test.beforeEach(async ({ context, baseURL }) => {
  await acceptCookies(context, baseURL!);
});

test('terms: admin publishes a new version; users accept it at their next sign-in', async ({ page, browser, baseURL }) => {
  test.setTimeout(timeFor(300_000));
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginAdmin(page);
  await page.goto('/admin/terms');
  // The editor's chunk (Tiptap) can take a while on a loaded machine.
  await expect(page.getByRole('heading', { name: 'Terms', exact: true })).toBeVisible({ timeout: timeFor(45_000) });
  const versionEn = page.getByTestId('terms-version-en');
  await expect(versionEn).toBeVisible();
  const before = Number(/\d+/.exec((await page.getByTestId('terms-current-version').textContent()) ?? '')?.[0] ?? 0);

  // An empty text is refused before anything is sent.
  const editor = page.getByTestId('terms-editor-en').locator('.ProseMirror');
  await editor.click();
  await editor.fill('');
  await page.getByTestId('terms-save-en').click();
  await expect(page.getByText('Content is required')).toBeVisible();

  await editor.fill(TERMS_TEXT);
  await page.getByTestId('terms-save-en').click();
  await expect(toast(page, 'Terms have been updated.')).toBeVisible();
  await expect(versionEn).toContainText(`This text is version ${before + 1}, published`);
  await expect(page.getByTestId('terms-current-version')).toHaveText(`Current version: ${before + 1}`);
  await shot(page, '1280-admin-terms');
  // The German tab reports the same current version.
  await page.getByTestId('terms-tab-de').click();
  await expect(page.getByTestId('terms-current-version')).toHaveText(`Current version: ${before + 1}`);
  await expect(page.getByTestId('terms-editor-de')).toBeVisible();

  // Alice signs in: the new terms block the app until she accepts them.
  const a = await signIn(browser, baseURL!, alice);
  await expect(a.page).toHaveURL(/\/dashboard$/, { timeout: timeFor(30_000) });
  const dialog = a.page.getByRole('dialog', { name: 'Updated terms of use' });
  await expect(dialog).toBeVisible({ timeout: timeFor(30_000) });
  await expect(dialog.getByText(TERMS_TEXT)).toBeVisible();
  await expect(dialog.getByText(`Version ${before + 1} of`)).toBeVisible();
  await a.page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await shot(a.page, '1280-accept-terms');
  await dialog.getByRole('button', { name: 'Accept' }).click();
  await expect(dialog).toBeHidden();
  await a.page.reload();
  await expect(a.page.getByRole('tab', { name: 'Dashboard' }).first()).toBeVisible();
  await expect(a.page.getByRole('dialog', { name: 'Updated terms of use' })).toBeHidden();
  // The public terms page shows the current version.
  await a.page.goto('/terms');
  await expect(a.page.getByText(TERMS_TEXT)).toBeVisible();
  await expect(a.page.getByTestId('terms-version')).toContainText(`Version ${before + 1} of`);
  await a.context.close();

  // Bob, on a phone.
  const b = await signIn(browser, baseURL!, bob, undefined, MOBILE);
  const mobileDialog = b.page.getByRole('dialog', { name: 'Updated terms of use' });
  await expect(mobileDialog.getByText(TERMS_TEXT)).toBeVisible({ timeout: timeFor(30_000) });
  await shot(b.page, '375-accept-terms');
  await mobileDialog.getByRole('button', { name: 'Accept' }).click();
  await expect(mobileDialog).toBeHidden();
  await b.context.close();

  // The admin accepts too at the next sign-in (so later tests' admin sessions are not blocked).
  const admin = await signIn(browser, baseURL!, ADMIN_EMAIL, ADMIN_PASSWORD, MOBILE);
  const adminDialog = admin.page.getByRole('dialog', { name: 'Updated terms of use' });
  await expect(adminDialog).toBeVisible({ timeout: timeFor(30_000) });
  await adminDialog.getByRole('button', { name: 'Accept' }).click();
  await expect(adminDialog).toBeHidden();
  await admin.page.goto('/admin/terms');
  await expect(admin.page.getByTestId('terms-current-version')).toBeVisible();
  await shot(admin.page, '375-admin-terms');
  await admin.context.close();
});

test('translations: admin overrides keys, reloads and sees the new text at once; a German visitor sees the German one', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(timeFor(300_000));
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginAdmin(page);
  await page.goto('/admin/settings');
  const card = page.getByTestId('settings-translations');
  await expect(card.getByRole('heading', { name: 'Translations', exact: true })).toBeVisible({ timeout: timeFor(45_000) });

  // The card's own title, in English.
  await card.getByTestId('translations-search').fill('adminTranslations.title');
  const entry = card.getByTestId('translation-adminTranslations.title');
  await expect(entry).toBeVisible();
  await entry.getByRole('button', { name: 'Edit adminTranslations.title' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit translation' });
  await expect(dialog.getByTestId('translation-edit-en')).toContainText('Translations');
  // A placeholder the file text does not have is refused, naming the field.
  await dialog.getByTestId('translation-value-en').fill('Translations {{count}}');
  await dialog.getByTestId('translation-save-en').click();
  await expect(dialog.getByText('The text must not contain placeholders in double braces').first()).toBeVisible();
  await dialog.getByTestId('translation-value-en').fill(`Texts ${RUN}`);
  await dialog.getByTestId('translation-save-en').click();
  await expect(toast(page, 'The override has been saved. Reload translations to publish it.')).toBeVisible();
  await expect(dialog.getByTestId('translation-delete-en')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  // The German sign-in subtitle.
  await card.getByTestId('translations-search').fill('auth.login.subtitle');
  const subtitle = card.getByTestId('translation-auth.login.subtitle');
  await subtitle.getByRole('button', { name: 'Edit auth.login.subtitle' }).click();
  await dialog.getByTestId('translation-value-de').fill(`Willkommen zurück, Metallograf ${RUN}!`);
  await dialog.getByTestId('translation-save-de').click();
  await expect(toast(page, 'The override has been saved. Reload translations to publish it.').first()).toBeVisible();
  await shot(page, '1280-translation-dialog');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // Not published until the reload; then this page shows the new text without a page reload.
  await expect(card.getByRole('heading', { name: 'Translations', exact: true })).toBeVisible();
  await card.getByTestId('translations-reload').click();
  await expect(toast(page, 'Translations have been updated.')).toBeVisible();
  await expect(card.getByRole('heading', { name: `Texts ${RUN}`, exact: true })).toBeVisible();
  await card.getByTestId('translations-search').fill('');
  await expect(card.getByTestId('translation-auth.login.subtitle')).toBeVisible();
  await shot(page, '1280-translations-card');

  // A German visitor sees the German override on the sign-in page.
  const de = await browser.newContext({ baseURL, locale: 'de-DE' });
  await acceptCookies(de, baseURL!);
  await de.addCookies([{ name: 'lng', value: 'de', url: baseURL! }]);
  const dePage = await de.newPage();
  await dePage.goto('/auth/login');
  await expect(dePage.getByText(`Willkommen zurück, Metallograf ${RUN}!`)).toBeVisible();
  await de.close();

  // On a phone.
  await page.setViewportSize(MOBILE);
  await page.reload();
  await expect(page.getByTestId('settings-translations').getByRole('heading', { name: `Texts ${RUN}` })).toBeVisible();
  await page.getByTestId('settings-translations').scrollIntoViewIfNeeded();
  await shot(page, '375-translations-card');
  await page.getByTestId('translation-auth.login.subtitle').getByRole('button', { name: 'Edit auth.login.subtitle' }).click();
  await expect(dialog).toBeVisible();
  await shot(page, '375-translation-dialog');
  // Delete the German override (confirmed), then put the texts back for the tests that follow.
  await dialog.getByTestId('translation-delete-de').click();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(toast(page, 'The override has been deleted. Reload translations to publish the change.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  const del = await page.request.delete('/api/admin/translations/en/adminTranslations.title');
  expect(del.ok()).toBeTruthy();
  await page.getByTestId('translations-reload').click();
  await expect(toast(page, 'Translations have been updated.').first()).toBeVisible();
  await expect(page.getByTestId('settings-translations').getByRole('heading', { name: 'Translations', exact: true })).toBeVisible();
});
