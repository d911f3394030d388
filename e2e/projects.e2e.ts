/**
 * Projects and the image library (issue 12 items 1 and 3) through the browser: A creates a project, adds an image
 * from the image library, shares it with B as a viewer; B sees it in their list, read-only; A re-runs an older
 * image from the library and deletes an image (soft, with confirmation); A deletes the project (green toast).
 * Screenshots at 1280 and 375 px.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { GRAIN_MODEL, expectImageLoaded, grainMicrograph, runViaApi, modelId, signIn, toast, uploadViaApi } from './analysis-helpers';
import { PASSWORD, acceptCookies, createVerifiedUser, timeFor } from './helpers';

test.describe.configure({ mode: 'serial' });

const OUT = fileURLToPath(new URL('../test-results/screenshots', import.meta.url));
const WIDTHS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 375, height: 812 },
];

let ownerEmail = '';
let viewerEmail = '';
const PROJECT = `Weld seam ${Date.now() % 100000}`;

async function signedInPage(browser: Browser, baseURL: string, email: string): Promise<Page> {
  const context = await browser.newContext();
  await acceptCookies(context, baseURL);
  const page = await context.newPage();
  await signIn(page, email, PASSWORD);
  return page;
}

test.beforeAll(async ({ request }) => {
  ownerEmail = await createVerifiedUser(request, 'project-owner', { name: 'Ada', surname: 'Owner' });
  viewerEmail = await createVerifiedUser(request, 'project-viewer', { name: 'Bea', surname: 'Viewer' });
});

test('A creates a project, adds an image from the library and shares it as viewer', async ({ browser, baseURL }) => {
  const page = await signedInPage(browser, baseURL!, ownerEmail);
  const micrograph = await grainMicrograph(11);
  await uploadViaApi(page.request, { ...micrograph, name: 'weld-01.png' });

  await page.goto('/projects');
  await page.getByRole('button', { name: 'New project' }).click();
  const dialog = page.getByRole('dialog', { name: 'New project' });
  await dialog.getByLabel('Name').fill(PROJECT);
  await dialog.getByLabel('Description').fill('Cross sections of the seam');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/projects\?project=/);
  const detail = page.getByTestId('project-detail');
  await expect(detail.getByRole('heading', { name: PROJECT })).toBeVisible();

  await detail.getByRole('button', { name: 'Add images' }).click();
  const add = page.getByRole('dialog', { name: 'Add images from the library' });
  await add.getByRole('checkbox', { name: 'Select weld-01.png' }).check();
  await add.getByRole('button', { name: 'Add 1 image' }).click();
  await expect(add).toBeHidden();
  const held = detail.getByTestId('project-image').filter({ hasText: 'weld-01.png' });
  await expect(held).toBeVisible();
  await expectImageLoaded(held.getByRole('img', { name: 'weld-01.png' }));

  await detail.getByLabel('E-mail address').fill(viewerEmail);
  await detail.getByRole('button', { name: 'Share' }).click();
  await expect(detail.getByTestId('project-members')).toContainText(viewerEmail);
  await expect(detail.getByTestId('project-members')).toContainText('Viewer');

  for (const w of WIDTHS) {
    await page.setViewportSize({ width: w.width, height: w.height });
    await page.screenshot({ path: `${OUT}/projects-owner-${w.name}.png`, fullPage: true });
  }
  await page.context().close();
});

test('B sees the shared project read-only', async ({ browser, baseURL }) => {
  const page = await signedInPage(browser, baseURL!, viewerEmail);
  await page.goto('/projects');
  // the share is an invitation until B accepts it from the bell (issue 28 item 4)
  await page.getByRole('banner').getByRole('button', { name: 'Notifications' }).click();
  await expect(page.getByTestId('notification').filter({ hasText: PROJECT })).toBeVisible();
  await page.getByTestId('project-invitation-accept').first().click();
  await expect(toast(page, 'Invitation accepted: the project is in your list.')).toBeVisible();
  await page.keyboard.press('Escape');
  const item = page.getByTestId('project-item').filter({ hasText: PROJECT });
  await expect(item).toBeVisible();
  await expect(item).toContainText('Viewer');
  await item.click();
  const detail = page.getByTestId('project-detail');
  await expect(detail.getByText('This project is shared with you as a viewer')).toBeVisible();
  const held = detail.getByTestId('project-image').filter({ hasText: 'weld-01.png' });
  await expectImageLoaded(held.getByRole('img', { name: 'weld-01.png' }));
  await expect(detail.getByRole('button', { name: 'Add images' })).toHaveCount(0);
  await expect(detail.getByRole('button', { name: 'Rename / describe' })).toHaveCount(0);
  await expect(detail.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  // The server refuses the viewer's writes, whatever the page shows.
  const projectId = new URL(page.url()).searchParams.get('project');
  const res = await page.request.patch(`/api/projects/${projectId}`, { data: { name: 'Changed by viewer' } });
  expect(res.status()).toBe(403);

  for (const w of WIDTHS) {
    await page.setViewportSize({ width: w.width, height: w.height });
    await page.screenshot({ path: `${OUT}/projects-viewer-${w.name}.png`, fullPage: true });
  }
  await page.context().close();
});

test('A runs an older image again from the library without a new licence unit, deletes an image, then the project', async ({ browser, baseURL }) => {
  const page = await signedInPage(browser, baseURL!, ownerEmail);
  const grain = await modelId(page.request, GRAIN_MODEL.name);
  const library = await (await page.request.get('/api/images/library')).json();
  const weld = library.items.find((i: { orginalFilename: string }) => i.orginalFilename === 'weld-01.png');
  await runViaApi(page.request, [weld.id], [grain]);
  const usedBefore = (await (await page.request.get('/api/users/me/account')).json()).license?.used;
  expect(usedBefore).toBeGreaterThan(0);

  await page.goto('/library');
  await page.getByRole('checkbox', { name: 'Select weld-01.png' }).check();
  await page.getByRole('button', { name: 'Run on a model' }).click();
  const run = page.getByRole('dialog');
  await run.getByRole('checkbox', { name: GRAIN_MODEL.displayName }).check();
  await run.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(toast(page, 'Job started')).toBeVisible();
  const usedAfter = (await (await page.request.get('/api/users/me/account')).json()).license?.used;
  expect(usedAfter).toBe(usedBefore);

  for (const w of WIDTHS) {
    await page.setViewportSize({ width: w.width, height: w.height });
    await page.screenshot({ path: `${OUT}/library-${w.name}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  await uploadViaApi(page.request, { ...(await grainMicrograph(12)), name: 'scrap.png' });
  await page.reload();
  await page.getByLabel('Search', { exact: true }).fill('scrap');
  await expect(page.getByTestId('library-image')).toHaveCount(1);
  await page.getByRole('checkbox', { name: 'Select scrap.png' }).check();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(toast(page, 'Success')).toBeVisible();
  await expect(page.getByText('No images match')).toBeVisible();

  await page.goto('/projects');
  await page.getByTestId('project-item').filter({ hasText: PROJECT }).click();
  await page.getByTestId('project-detail').getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete project' }).getByRole('button', { name: 'Delete project' }).click();
  await expect(toast(page, 'Success')).toContainText('The project has been deleted.');
  await expect(page.getByTestId('project-item').filter({ hasText: PROJECT })).toHaveCount(0);
  await page.context().close();
});

test('"Upload into this project" chooses the project on the dashboard; the run brings the image into it', async ({ browser, baseURL, request }) => {
  const email = await createVerifiedUser(request, 'project-picker', { name: 'Cleo', surname: 'Picker' });
  const page = await signedInPage(browser, baseURL!, email);
  const name = `Turbine blade ${Date.now() % 100000}`;
  const created = await page.request.post('/api/projects', { data: { name } });
  expect(created.ok(), await created.text()).toBeTruthy();
  const projectId = ((await created.json()) as { id: string }).id;

  await page.goto(`/projects?project=${projectId}`);
  const detail = page.getByTestId('project-detail');
  await expect(detail.getByText('This project holds no images yet.')).toBeVisible();
  await detail.getByRole('link', { name: 'Upload into this project' }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard\\?project=${projectId}$`));
  await expect(page.getByTestId('run-project')).toHaveValue(name);

  const micrograph = await grainMicrograph(21);
  await page
    .getByTestId('upload-dropzone')
    .locator('input[type="file"]')
    .setInputFiles({ name: 'blade-01.png', mimeType: 'image/png', buffer: micrograph.buffer });
  await expect(page.getByTestId('upload-row').filter({ hasText: 'blade-01.png' })).toHaveAttribute('data-state', 'done', {
    timeout: timeFor(30_000),
  });
  await page.getByRole('checkbox', { name: GRAIN_MODEL.displayName }).check();
  // the project is still chosen after the upload, and the run goes into it
  await expect(page.getByTestId('run-project')).toHaveValue(name);
  await page.getByRole('button', { name: 'Run 1 analysis' }).click();
  await expect(page.getByTestId('recent-job').filter({ hasText: 'blade-01.png' })).toBeVisible();

  await page.goto(`/projects?project=${projectId}`);
  const held = detail.getByTestId('project-image').filter({ hasText: 'blade-01.png' });
  await expect(held).toBeVisible();
  await expectImageLoaded(held.getByRole('img', { name: 'blade-01.png' }));
  await page.context().close();
});
