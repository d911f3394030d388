/**
 * Back-office dashboard, users and user profile (issue 10 items 1–3) through the browser: the admin lands on the
 * dashboard with its eight cards, finds a user by e-mail on /admin/users, assigns a licence from the action menu,
 * sees it in the list and in the profile's licence history, and the account is activated with the spec's message.
 * Screenshots of the three screens at 1280 and 375 px.
 */
import { expect, test } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { acceptCookies, createVerifiedUser, timeFor } from './helpers';
import { choose, findUser, loginAdmin, toast, userRow } from './admin-helpers';

test.describe.configure({ mode: 'serial' });

const RUN = Date.now().toString(36);
const NAME = 'Dorothy';
const SURNAME = `Hodgkin ${RUN}`;
const FULL_NAME = `${NAME} ${SURNAME}`;
/** test-results/screenshots/ of the repository, wherever Playwright is started from. */
const OUT = fileURLToPath(new URL('../test-results/screenshots', import.meta.url));

let email = '';

test.beforeAll(async ({ request }) => {
  email = await createVerifiedUser(request, 'adminusers', { name: NAME, surname: SURNAME, company: `Insulin Lab ${RUN}` });
});

test.beforeEach(async ({ context, baseURL }) => {
  await acceptCookies(context, baseURL!);
});

test('the admin lands on the dashboard with both sections and eight cards', async ({ page }) => {
  await loginAdmin(page);
  const dashboard = page.getByTestId('admin-dashboard');
  await expect(dashboard.getByRole('heading', { name: 'Users and licenses' })).toBeVisible();
  await expect(dashboard.getByRole('heading', { name: 'Calculations' })).toBeVisible();
  for (const card of ['active-users', 'nps', 'licenses', 'customers', 'current-jobs', 'average-time', 'fails', 'success']) {
    await expect(page.getByTestId(`card-${card}`)).toBeVisible();
  }
  // the new user counts as a customer who joined in the last 7 days
  await expect(page.getByTestId('card-customers-value')).not.toHaveText('0');
  await expect(page.getByTestId('card-customers')).toContainText('in last 7 days');
  await page.getByTestId('card-customers').getByText('30 days').click();
  await expect(page.getByTestId('card-customers')).toContainText('in last 30 days');
});

test('finds a user by e-mail and assigns a licence from the action menu', async ({ page }) => {
  await loginAdmin(page);
  await findUser(page, email);
  await expect(userRow(page, email)).toContainText(FULL_NAME);
  await expect(userRow(page, email)).toContainText('Demo');

  await userRow(page, email)
    .getByTestId(/^user-actions-/)
    .click();
  await page.getByRole('menuitem', { name: 'Assign license' }).click();
  const dialog = page.getByRole('dialog', { name: 'Assign license' });
  await expect(dialog.getByTestId('license-images')).toHaveValue('20');
  // TIME_LIMITED needs days: an empty field is refused with the field named
  await choose(page, dialog.getByTestId('license-type'), 'Time limited');
  await expect(dialog.getByTestId('license-days')).toHaveValue('30');
  await dialog.getByTestId('license-days').fill('');
  await dialog.getByRole('button', { name: 'Assign' }).click();
  await expect(dialog.getByText('Days are required for a time-limited license')).toBeVisible();
  await dialog.getByTestId('license-days').fill('45');
  await dialog.getByRole('button', { name: 'Assign' }).click();
  await expect(toast(page, 'License has been assigned.')).toBeVisible();
  await expect(userRow(page, email)).toContainText('Time limited');
  await expect(userRow(page, email)).toContainText('created by Admin');

  await userRow(page, email)
    .getByTestId(/^user-actions-/)
    .click();
  await page.getByRole('menuitem', { name: 'Activate account' }).click();
  await expect(toast(page, 'Account has been activated. User can now log in.')).toBeVisible();
});

test('the profile shows the tabs in the URL, the licence history and the job statistics', async ({ page }) => {
  await loginAdmin(page);
  await findUser(page, email);
  await userRow(page, email).getByRole('link', { name: FULL_NAME }).click();
  await expect(page).toHaveURL(/\/admin\/users\/[0-9a-f-]+\/profile$/);
  await expect(page.getByRole('heading', { name: FULL_NAME })).toBeVisible();
  await expect(page.getByText(`Insulin Lab ${RUN}`)).toBeVisible();
  await page.getByRole('tab', { name: 'Licenses' }).click();
  await expect(page).toHaveURL(/\/licenses$/);
  const history = page.getByTestId('license-history');
  await expect(history.locator('tbody tr').first()).toContainText('Time limited');
  await expect(history.locator('tbody tr').first()).toContainText('Active');
  await expect(history).toContainText('Demo');
  await page.getByRole('tab', { name: 'Statistics' }).click();
  await expect(page.getByTestId('stat-NEW')).toContainText('0');
  await page.getByRole('tab', { name: 'Images and jobs' }).click();
  await expect(page.getByTestId('uploaded-count')).toHaveText('0 uploaded images');
  await page.getByRole('link', { name: "Show this user's jobs" }).click();
  await expect(page).toHaveURL(/\/admin\/jobs\?userId=/);
});

const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 812 },
];

for (const size of WIDTHS) {
  test(`screenshots of the dashboard, users and user profile at ${size.width}px`, async ({ page }) => {
    test.setTimeout(timeFor(90_000));
    await page.setViewportSize({ width: size.width, height: size.height });
    const shot = (name: string, fullPage = true) =>
      page.screenshot({ path: `${OUT}/${size.name}-admin-${name}.png`, fullPage, animations: 'disabled' });
    await loginAdmin(page);
    await expect(page.getByTestId('card-success-value')).toBeVisible();
    await shot('dashboard');
    // one card per row on a phone, four per row on a desktop
    const first = await page.getByTestId('card-active-users').boundingBox();
    const second = await page.getByTestId('card-nps').boundingBox();
    if (size.width < 500) expect(second!.y).toBeGreaterThan(first!.y);
    else expect(second!.y).toBe(first!.y);
    await findUser(page, email);
    await shot('users');
    await userRow(page, email).getByRole('link', { name: FULL_NAME }).click();
    await expect(page.getByRole('heading', { name: FULL_NAME })).toBeVisible();
    await shot('user-profile');
  });
}
