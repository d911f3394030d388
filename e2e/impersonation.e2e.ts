/**
 * Issue 10 item 8 through the browser: the admin changes a user's role from the users action menu ("Assign
 * role"), and impersonates a user and comes back: POST /users/{id}/impersonate from the action menu lands on
 * /dashboard with the banner naming the user; "Back to my account" restores the admin's session on the
 * back-office; signing out while impersonating ends only the impersonation. Screenshots of the banner at 1280
 * and 375 px.
 */
import { expect, test, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { acceptCookies, createVerifiedUser } from './helpers';
import { ADMIN_EMAIL, choose, findUser, loginAdmin, toast, userRow } from './admin-helpers';

test.describe.configure({ mode: 'serial' });

const RUN = Date.now().toString(36);
const NAME = 'Rosalind';
const SURNAME = `Franklin ${RUN}`;
const FULL_NAME = `${NAME} ${SURNAME}`;
const OUT = fileURLToPath(new URL('../test-results/screenshots', import.meta.url));
const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 812 },
];

let email = '';

test.beforeAll(async ({ request }) => {
  email = await createVerifiedUser(request, 'impersonated', { name: NAME, surname: SURNAME, company: `Photo 51 Lab ${RUN}` });
});

test.beforeEach(async ({ context, baseURL }) => {
  await acceptCookies(context, baseURL!);
});

async function openAction(page: Page, action: string): Promise<void> {
  await userRow(page, email)
    .getByTestId(/^user-actions-/)
    .click();
  await page.getByRole('menuitem', { name: action }).click();
}

/** The account the browser's session belongs to. */
async function signedInAs(page: Page): Promise<string | null> {
  const res = await page.request.get('/api/users/me');
  return res.ok() ? ((await res.json()) as { email: string }).email : null;
}

async function assignRole(page: Page, role: string): Promise<void> {
  await openAction(page, 'Assign role');
  const dialog = page.getByRole('dialog', { name: 'Assign role' });
  await choose(page, dialog.getByTestId('assign-role-select'), role);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'Role has been assigned.')).toBeVisible();
  await expect(dialog).toBeHidden();
}

test('the admin changes a role from the users action menu', async ({ page }) => {
  await loginAdmin(page);
  await findUser(page, email);
  await expect(userRow(page, email)).toContainText('User');
  await assignRole(page, 'Editor');
  await expect(userRow(page, email)).toContainText('Editor');
  // kept by the server, not only in the page
  await page.reload();
  await expect(userRow(page, email)).toContainText('Editor');
  await page.getByTestId('users-search').fill(email);
  await assignRole(page, 'User');
  await expect(userRow(page, email)).not.toContainText('Editor');
});

test('the admin impersonates a user, comes back, and signing out while impersonating ends only the impersonation', async ({ page }) => {
  await loginAdmin(page);
  await findUser(page, email);
  await openAction(page, 'Impersonate');
  await expect(page).toHaveURL(/\/dashboard$/);
  const banner = page.getByTestId('impersonation-banner');
  await expect(banner).toContainText(`You are acting as ${FULL_NAME} (${email})`);
  expect(await signedInAs(page)).toBe(email);
  // the banner stays on the user's other pages
  await page.goto('/projects');
  await expect(banner).toBeVisible();

  await banner.getByRole('button', { name: 'Back to my account' }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(banner).toHaveCount(0);
  expect(await signedInAs(page)).toBe(ADMIN_EMAIL);
  await page.goto('/admin');
  await expect(page.getByTestId('admin-dashboard')).toBeVisible();

  // again, then sign out from the user menu's route: the admin is back, not signed out
  await findUser(page, email);
  await openAction(page, 'Impersonate');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(banner).toBeVisible();
  expect(await signedInAs(page)).toBe(email);
  await page.goto('/logout');
  await expect.poll(() => signedInAs(page)).toBe(ADMIN_EMAIL);
  await page.goto('/admin');
  await expect(page.getByTestId('admin-dashboard')).toBeVisible();
  await expect(banner).toHaveCount(0);
});

for (const size of WIDTHS) {
  test(`screenshot of the impersonation banner at ${size.width}px`, async ({ page }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await loginAdmin(page);
    await findUser(page, email);
    await openAction(page, 'Impersonate');
    await expect(page).toHaveURL(/\/dashboard$/);
    const banner = page.getByTestId('impersonation-banner');
    await expect(banner).toBeVisible();
    await expect(page.getByTestId('upload-dropzone')).toBeVisible();
    // the banner spans the page and its button stays inside it
    const box = (await banner.boundingBox())!;
    const button = (await banner.getByRole('button', { name: 'Back to my account' }).boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(size.width - 20);
    expect(button.x + button.width).toBeLessThanOrEqual(box.x + box.width + 1);
    await page.screenshot({ path: `${OUT}/${size.name}-impersonation-banner.png`, animations: 'disabled' });
    await banner.getByRole('button', { name: 'Back to my account' }).click();
    await expect(page).toHaveURL(/\/admin\/users$/);
  });
}
