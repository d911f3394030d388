/**
 * The back-office safety net (issue 26 item 7) through the browser: a model with jobs is archived (not deleted) and
 * unarchived; deleting a user blocks them with the day of deletion, and Restore user brings them back; "Reset
 * visibility" for all users asks first; the settings template form says "Invalid JSON format". English and German.
 */
import { expect, test } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { findUser, grainPng, loginAdmin, toast, userRow, userSession } from './admin-helpers';
import { uploadViaApi } from './analysis-helpers';
import { PASSWORD, acceptCookies, createVerifiedUser, timeFor } from './helpers';

test.describe.configure({ mode: 'serial' });
const OUT = fileURLToPath(new URL('../test-results/screenshots', import.meta.url));
const MODEL = `archive-e2e-${Date.now() % 100000}`;

test.beforeEach(async ({ context, baseURL }) => acceptCookies(context, baseURL!));

test('a model with jobs is archived instead of deleted, then unarchived', async ({ page, browser, baseURL, request }) => {
  test.setTimeout(timeFor(180_000));
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginAdmin(page);
  const created = await page.request.post('/api/admin/compute-models', {
    data: {
      internalName: MODEL,
      routingPath: `/${MODEL}`,
      storagePath: `models/${MODEL}`,
      displayName: 'Archive test',
      version: '20260101',
      accessType: 'PUBLIC',
      isDefaultVisible: true,
    },
  });
  expect(created.ok(), await created.text()).toBeTruthy();
  const model = (await created.json()) as { id: string };
  const email = await createVerifiedUser(request, 'archive-user');
  const user = await userSession(browser, baseURL!, email);
  const imageId = await uploadViaApi(user.page.request, { name: 'seam.png', mimeType: 'image/png', buffer: await grainPng(5) } as never);
  expect((await user.page.request.post('/api/jobs', { data: { imageIds: [imageId], modelIds: [model.id] } })).ok()).toBeTruthy();

  await page.goto('/admin/compute-compute-models-registry');
  await page.getByTestId(`model-actions-${MODEL}`).click();
  // a model with jobs offers no Delete, only Archive
  await expect(page.getByRole('menuitem', { name: 'Delete' })).toHaveCount(0);
  await page.getByTestId('model-archive').click();
  await expect(page.getByRole('dialog')).toContainText('Users no longer see it; its jobs and results are kept.');
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(toast(page, 'Model archived: hidden from users, its jobs are kept.')).toBeVisible();
  const row = page.locator(`tr[data-model="${MODEL}"]`);
  await expect(row.getByTestId('model-archived')).toHaveText('Archived');
  await page.screenshot({ path: `${OUT}/admin-model-archived-en.png` });
  const available = (await (await user.page.request.get('/api/settings/available-models')).json()) as Array<{ id: string }>;
  expect(available.map((m) => m.id)).not.toContain(model.id);

  await page.getByTestId(`model-actions-${MODEL}`).click();
  await page.getByTestId('model-unarchive').click();
  await expect(toast(page, 'Model available again.')).toBeVisible();
  await expect(row.getByTestId('model-archived')).toHaveCount(0);
  await user.context.close();
});

test('deleting a user blocks them until the grace period ends; Restore user brings them back (English and German)', async ({
  page,
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(timeFor(180_000));
  await page.setViewportSize({ width: 1280, height: 900 });
  const email = await createVerifiedUser(request, 'grace-user', { name: 'Grace', surname: 'Period' });
  await loginAdmin(page);
  await findUser(page, email);
  const actions = () => userRow(page, email).locator('[data-testid^="user-actions-"]');
  await actions().click();
  await page.getByRole('menuitem', { name: 'Delete user' }).click();
  await expect(page.getByRole('dialog')).toContainText('blocked at once and deleted for good after the grace period');
  await page.getByTestId('confirm-delete').click();
  await expect(toast(page, 'User blocked and scheduled for deletion.')).toBeVisible();
  await expect(userRow(page, email)).toContainText(/Deletion on/);
  await page.screenshot({ path: `${OUT}/admin-user-deletion-en.png` });
  // the account is blocked at once
  const ctx = await browser.newContext({ baseURL });
  const signin = await ctx.request.post('/api/auth/signin', {
    data: {
      formFields: [
        { id: 'email', value: email },
        { id: 'password', value: PASSWORD },
      ],
    },
  });
  expect(signin.status()).not.toBe(200);
  await ctx.close();

  // German: the same screen names the day and offers Restore
  await page.request.patch('/api/users/me', { data: { language: 'de' } });
  await page.reload();
  await expect(userRow(page, email)).toContainText(/Löschung am/);
  await page.screenshot({ path: `${OUT}/admin-user-deletion-de.png` });
  await actions().click();
  await page.getByTestId('restore-user').click();
  await expect(toast(page, 'Benutzer wiederhergestellt.')).toBeVisible();
  await expect(userRow(page, email)).not.toContainText(/Löschung am/);
  await page.request.patch('/api/users/me', { data: { language: 'en' } });
});

test('Reset visibility for all users asks first; the template form says Invalid JSON format', async ({ page }) => {
  test.setTimeout(timeFor(120_000));
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginAdmin(page);
  await page.goto('/admin/insights');
  await page.getByTestId('insights-reset').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Reset the visibility of every insight for all users?');
  await page.screenshot({ path: `${OUT}/admin-insights-reset-confirm-en.png` });
  await dialog.getByRole('button', { name: 'No' }).click();
  await expect(dialog).toBeHidden();
  await page.getByTestId('insights-reset').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
  await expect(page.locator('.mantine-Notification-root').first()).toBeVisible();

  await page.goto('/admin/project-settings-templates');
  await page.getByRole('button', { name: 'Add Template' }).click();
  const form = page.getByRole('dialog');
  await form.getByLabel('Template Name').fill('Broken JSON');
  const json = form.getByLabel('Settings');
  await json.fill('{"threshold": ');
  await json.blur();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Invalid JSON format')).toBeVisible();
  await page.screenshot({ path: `${OUT}/admin-template-invalid-json-en.png` });
});
