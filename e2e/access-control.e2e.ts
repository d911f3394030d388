/**
 * Access control (issue 10 item 5, issue 9 item 6) through the browser: the ADMIN grants a power user JOB.READ on
 * /admin/users-privileges and the power user's back-office menu changes; a revocation asks first and takes the
 * menu entry away again; granting "Change users" grants "Read users" with it; the audit log lists the changes.
 * Screenshots of both screens at 1280 and 375 px.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { acceptCookies, createVerifiedUser, timeFor } from './helpers';
import { ADMIN_EMAIL, ADMIN_PASSWORD, loginAdmin, toast, userSession } from './admin-helpers';

test.describe.configure({ mode: 'serial' });

const RUN = Date.now().toString(36);
const NAME = 'Rosalind';
const SURNAME = `Franklin ${RUN}`;
const FULL_NAME = `${NAME} ${SURNAME}`;
/** test-results/screenshots/ of the repository, wherever Playwright is started from. */
const OUT = fileURLToPath(new URL('../test-results/screenshots', import.meta.url));

let powerEmail = '';
let powerId = '';

/** Signs the API context in as the first admin (its cookies stay in the context). */
async function adminApi(request: APIRequestContext): Promise<void> {
  const res = await request.post('/api/auth/signin', {
    data: {
      formFields: [
        { id: 'email', value: ADMIN_EMAIL },
        { id: 'password', value: ADMIN_PASSWORD },
      ],
    },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
}

test.beforeAll(async ({ request }) => {
  powerEmail = await createVerifiedUser(request, 'acl', { name: NAME, surname: SURNAME, company: `Crystal Lab ${RUN}` });
  await adminApi(request);
  const found = await request.get('/api/admin/users2', { params: { filter: powerEmail } });
  expect(found.ok(), await found.text()).toBeTruthy();
  powerId = ((await found.json()) as Array<{ id: string }>)[0].id;
  const promoted = await request.patch(`/api/users/${powerId}`, { data: { role: 'POWER_USER' } });
  expect(promoted.ok(), await promoted.text()).toBeTruthy();
  await request.post('/api/auth/signout');
});

test.beforeEach(async ({ context, baseURL }) => {
  await acceptCookies(context, baseURL!);
});

const row = (page: Page) => page.getByTestId('acl-row').filter({ hasText: powerEmail });
const privilege = (page: Page, label: string) => row(page).getByRole('switch', { name: `${label} for ${FULL_NAME}` });

/** Toggles a Mantine switch by keyboard (the native input lies over the track). */
async function toggle(page: Page, label: string): Promise<void> {
  await privilege(page, label).focus();
  await page.keyboard.press('Space');
}

test('grant JOB.READ and see the power user menu change; revoke it after a confirmation', async ({ page, browser, baseURL }) => {
  test.setTimeout(timeFor(120_000));
  const power = await userSession(browser, baseURL!, powerEmail);
  // no privilege yet: the back-office sends the power user to the dashboard
  await power.page.goto('/admin');
  await expect(power.page).toHaveURL(/\/dashboard$/);

  await loginAdmin(page);
  await page.goto('/admin/users-privileges');
  await expect(page.getByRole('heading', { name: 'Power users' })).toBeVisible();
  await expect(row(page)).toContainText(FULL_NAME);
  for (const label of ['Read users', 'Change users', 'Read jobs', 'Change jobs']) await expect(privilege(page, label)).not.toBeChecked();

  await toggle(page, 'Read jobs');
  await expect(toast(page, 'Access has been granted.')).toBeVisible();
  await expect(privilege(page, 'Read jobs')).toBeChecked();

  // permissions are read live: the power user now lands on the jobs list, and the menu shows only Jobs
  await power.page.goto('/admin');
  await expect(power.page).toHaveURL(/\/admin\/jobs$/);
  const menu = power.page.getByRole('navigation', { name: 'Back-office menu' });
  await expect(menu.getByText('Jobs', { exact: true })).toBeVisible();
  await expect(menu.getByText('Users', { exact: true })).toHaveCount(0);

  // "Change users" brings "Read users" with it
  await toggle(page, 'Change users');
  await expect(privilege(page, 'Read users')).toBeChecked();
  await expect(privilege(page, 'Change users')).toBeChecked();

  // revoking asks first; No keeps the privilege
  await toggle(page, 'Read jobs');
  const dialog = page.getByRole('dialog', { name: 'Revoke access' });
  await expect(dialog).toContainText(`Revoke Read jobs from ${FULL_NAME}?`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(privilege(page, 'Read jobs')).toBeChecked();
  await toggle(page, 'Read jobs');
  await page.getByRole('dialog', { name: 'Revoke access' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(toast(page, 'Access has been revoked.')).toBeVisible();
  await expect(privilege(page, 'Read jobs')).not.toBeChecked();

  await power.page.goto('/admin');
  await expect(power.page).toHaveURL(/\/admin\/users$/);
  await expect(power.page.getByRole('navigation', { name: 'Back-office menu' }).getByText('Jobs', { exact: true })).toHaveCount(0);
  await power.context.close();

  // the audit log shows who changed the privileges
  await page.goto('/admin/audit-log');
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  await page.getByLabel('Target id').fill(powerId);
  await expect(page.getByRole('row').filter({ hasText: 'Privileges changed' })).toHaveCount(3);
  await expect(page.getByRole('row').filter({ hasText: 'Role changed' })).toHaveCount(1);
  await expect(page.getByRole('row').filter({ hasText: 'Privileges changed' }).first()).toContainText(ADMIN_EMAIL);
});

const WIDTHS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 375, height: 812 },
];

for (const size of WIDTHS) {
  test(`screenshots of access control and the audit log at ${size.width}px`, async ({ page }) => {
    test.setTimeout(timeFor(90_000));
    await page.setViewportSize({ width: size.width, height: size.height });
    const shot = (name: string, fullPage = true) =>
      page.screenshot({ path: `${OUT}/${size.name}-admin-${name}.png`, fullPage, animations: 'disabled' });
    await loginAdmin(page);
    await page.goto('/admin/users-privileges');
    await expect(row(page)).toBeVisible();
    await shot('users-privileges');
    await toggle(page, 'Change users');
    await expect(page.getByRole('dialog', { name: 'Revoke access' })).toBeVisible();
    await shot('users-privileges-revoke', false);
    await page.keyboard.press('Escape');
    await page.goto('/admin/audit-log');
    await expect(page.getByRole('row').filter({ hasText: 'Privileges changed' }).first()).toBeVisible();
    await shot('audit-log');
  });
}
