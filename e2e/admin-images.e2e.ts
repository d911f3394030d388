/**
 * Back-office images and public images (issue 11 items 1 and 2) through the browser: the admin opens the images
 * page (a customer's thumbnail, enlarge with the original name, filters, remembered column choices), downloads the
 * metadata report, uploads a public image, inserts it into an insight from the editor's library button, and a user
 * sees the picture on the dashboard. Screenshots at 1280 and 375 px.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { acceptCookies, createVerifiedUser, timeFor } from './helpers';
import { grainPng, loginAdmin, toast, userSession } from './admin-helpers';

test.describe.configure({ mode: 'serial' });

const RUN = Date.now().toString(36);
const IMAGE_NAME = `specimen-${RUN}.png`;
const INSIGHT = `Polishing guide ${RUN}`;
const OUT = fileURLToPath(new URL('../test-results/screenshots', import.meta.url));
let userEmail = '';
let publicName = '';

test.beforeAll(async ({ request }) => {
  userEmail = await createVerifiedUser(request, 'images', { name: 'Marie', surname: `Curie${RUN}` });
});

test.beforeEach(async ({ context, baseURL }) => {
  await acceptCookies(context, baseURL!);
});

const shot = (page: Page, name: string) => page.screenshot({ path: `${OUT}/${name}.png`, fullPage: true, animations: 'disabled' });

test('images page: a customer image, enlarge, filters, remembered columns, metadata report', async ({ page, browser, baseURL }) => {
  test.setTimeout(timeFor(240_000));
  // The customer uploads an image.
  const user = await userSession(browser, baseURL!, userEmail);
  const up = await user.page.request.post('/api/images', {
    multipart: { files: { name: IMAGE_NAME, mimeType: 'image/png', buffer: await grainPng(7) } },
  });
  expect(up.ok(), await up.text()).toBeTruthy();
  await user.context.close();

  await loginAdmin(page);
  await page.goto('/admin/images');
  // the back-office chunks load on first visit (slow on a busy machine)
  await expect(page.getByRole('heading', { name: 'Images', exact: true })).toBeVisible({ timeout: timeFor(45_000) });
  const row = page.getByTestId('admin-image-row').filter({ hasText: userEmail });
  await expect(row).toBeVisible({ timeout: timeFor(30_000) });
  await expect(row.getByRole('img')).toHaveJSProperty('complete', true);
  expect(await row.getByRole('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  // A click on the thumbnail enlarges it and shows the original file name.
  await row.getByRole('button', { name: `Enlarge ${IMAGE_NAME}` }).click();
  const preview = page.getByRole('dialog');
  await expect(preview.getByTestId('image-preview-name')).toHaveText(IMAGE_NAME);
  await expect(preview.getByRole('img', { name: IMAGE_NAME })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(preview).toBeHidden();

  // Filters: the shortcut keeps today's image; Deleted = Yes hides it.
  await page.getByRole('button', { name: 'Last 7 days' }).click();
  await expect(page.getByTestId('filter-start')).not.toHaveValue('');
  await expect(row).toBeVisible();
  await page.getByTestId('filter-deleted').click();
  await page.getByRole('option', { name: 'Yes' }).click();
  await expect(row).toHaveCount(0, { timeout: timeFor(30_000) });
  await page.getByRole('button', { name: 'Reset filters' }).click();
  await expect(row).toBeVisible({ timeout: timeFor(30_000) });

  // Column choices are remembered in this browser.
  await page.getByTestId('images-columns').click();
  await page.getByRole('checkbox', { name: 'Training' }).uncheck();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('columnheader', { name: 'Training' })).toHaveCount(0);
  await page.reload();
  await expect(row).toBeVisible({ timeout: timeFor(45_000) });
  await expect(page.getByRole('columnheader', { name: 'Training' })).toHaveCount(0);
  await expect(page.getByRole('columnheader', { name: 'Owner' })).toBeVisible();

  // The metadata report.
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Metadata Report' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^images-metadata-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await file.path())!, 'utf8');
  // readable headers in the reader's language; the default decimal comma puts `;` between fields
  expect(csv.split('\r\n')[0]).toContain('Image ID;File name;Owner ID;Owner e-mail');
  expect(csv).toContain(`;${IMAGE_NAME};`);
  expect(csv).toContain(userEmail);

  await shot(page, 'admin-images-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(row).toBeVisible();
  await shot(page, 'admin-images-375');
  await page.setViewportSize({ width: 1280, height: 800 });
});

test('public image: upload with progress, insert into an insight from the editor, a user sees it', async ({ page, browser, baseURL }) => {
  test.setTimeout(timeFor(240_000));
  await loginAdmin(page);
  await page.goto('/admin/images');
  await page.getByRole('tab', { name: 'Public images' }).click();
  await expect(page).toHaveURL(/tab=public/);

  // A text file named .png is refused by its content.
  const input = page.getByTestId('public-images').locator('input[type="file"]');
  await input.setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('just some text') });
  await expect(toast(page, '"notes.png" is not a PNG or JPEG image. Only PNG and JPEG files can be uploaded.')).toBeVisible();

  await input.setInputFiles({ name: `Etched Steel ${RUN}.png`, mimeType: 'image/png', buffer: await grainPng(11) });
  await expect(toast(page, '1 image has been uploaded.')).toBeVisible();
  const card = page.getByTestId('public-image').filter({ hasText: `etched-steel-${RUN}` });
  await expect(card).toBeVisible();
  publicName = (await card.getByTestId('public-image-name').innerText()).trim();
  expect(publicName).toMatch(new RegExp(`^etched-steel-${RUN}-[0-9a-f]{8}\\.png$`));
  expect(await card.getByRole('img', { name: publicName }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(480);
  // Everyone can read it, outside /api, with its type.
  const served = await page.request.get(`/image/public/${publicName}`);
  expect(served.status()).toBe(200);
  expect(served.headers()['content-type']).toBe('image/png');
  await shot(page, 'admin-public-images-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await shot(page, 'admin-public-images-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  // The insight editor inserts it from the library.
  await page.goto('/admin/insights');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit insights' });
  await dialog.getByTestId('insight-title-en').fill(INSIGHT);
  await dialog.getByTestId('insight-title-de').fill(`Polieranleitung ${RUN}`);
  for (const [id, text] of [
    ['insight-content-en', 'Polish until the surface is mirror-like.'],
    ['insight-content-de', 'Polieren Sie bis zum Spiegelglanz.'],
  ] as const) {
    const editor = dialog.getByTestId(id);
    await editor.locator('.ProseMirror').click();
    await editor.locator('.ProseMirror').fill(text);
    await editor.getByRole('button', { name: 'Insert image from the library' }).click();
    const picker = page.getByRole('dialog', { name: 'Public images' });
    await picker.getByRole('button', { name: `Insert ${publicName}` }).click();
    await expect(picker).toBeHidden();
    await expect(editor.locator(`.ProseMirror img[src="/image/public/${publicName}"]`)).toBeVisible();
  }
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'Insight has been added.')).toBeVisible();

  // The user sees the insight with the picture.
  const user = await userSession(browser, baseURL!, userEmail);
  const item = user.page.getByTestId('insights-card').getByTestId('insight-item').filter({ hasText: INSIGHT });
  await expect(item).toBeVisible();
  await item.getByRole('button', { name: INSIGHT, exact: true }).click();
  const picture = user.page.getByTestId('insight-content').locator(`img[src="/image/public/${publicName}"]`);
  await expect(picture).toBeVisible();
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(480);
  await shot(user.page, 'user-insight-public-image-1280');
  await user.page.setViewportSize({ width: 375, height: 800 });
  await shot(user.page, 'user-insight-public-image-375');
  await user.context.close();

  // Delete from the library after confirmation.
  await page.goto('/admin/images?tab=public');
  await page.getByRole('button', { name: `Delete ${publicName}` }).click();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(toast(page, 'The image has been deleted.')).toBeVisible();
  await expect(page.getByTestId('public-image').filter({ hasText: publicName })).toHaveCount(0);
  expect((await page.request.get(`/image/public/${publicName}`)).status()).toBe(404);
});
