/**
 * Settings (issue 11 item 6) through the browser: the admin turns maintenance mode on for one model (the form
 * requires both messages first), the services status card shows each check, the demo license is saved; a user sees
 * the maintenance banner (on the dashboard and, naming the model, on its results page) and a job of that model is
 * refused with the message while another model runs; screenshots at 1280 and 375 px.
 */
import { expect as baseExpect, test, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { acceptCookies, createVerifiedUser, timeFor } from './helpers';
import { choose, grainPng, loginAdmin, toast, uploadOnDashboard, userSession } from './admin-helpers';

test.describe.configure({ mode: 'serial' });
// The shared 2-core machine answers slowly under load: allow each expectation, action and navigation more time.
const expect = baseExpect.configure({ timeout: timeFor(60_000) });
test.use({ actionTimeout: 45_000, navigationTimeout: 90_000 });

const RUN = Date.now().toString(36);
const MESSAGE_EN = `Grain size is being upgraded (${RUN}).`;
const MESSAGE_DE = `Die Korngröße wird aktualisiert (${RUN}).`;
const MODEL = 'Grain size (ASTM E112)';
const MODEL_PATH = 'grain-size';
const OTHER_MODEL = 'Porosity and phase fraction';
const OUT = fileURLToPath(new URL('../test-results/screenshots', import.meta.url));

let userEmail = '';

test.beforeAll(async ({ request }) => {
  userEmail = await createVerifiedUser(request, 'settings');
});

test.beforeEach(async ({ context, baseURL }) => {
  await acceptCookies(context, baseURL!);
});

async function setMaintenance(page: Page, en: string, de: string) {
  const card = page.getByTestId('settings-maintenance');
  await card.getByTestId('maintenance-message-en').fill(en);
  await card.getByTestId('maintenance-message-de').fill(de);
}

test('maintenance: admin turns it on for a model, the user sees the banner and the job is refused', async ({ page, browser, baseURL }) => {
  test.setTimeout(timeFor(600_000));
  await loginAdmin(page);
  await page.goto('/admin/settings');
  await expect(page.getByRole('heading', { name: 'Settings', exact: true })).toBeVisible();
  const card = page.getByTestId('settings-maintenance');
  await expect(card.getByTestId('maintenance-state')).toHaveText('Off');

  // Both messages are required.
  await setMaintenance(page, '', '');
  await card.getByTestId('maintenance-save').click();
  await expect(card.getByText('The English message is required.')).toBeVisible();
  await expect(card.getByText('The German message is required.')).toBeVisible();

  await setMaintenance(page, MESSAGE_EN, MESSAGE_DE);
  await choose(page, card.getByTestId('maintenance-models'), MODEL);
  await page.keyboard.press('Escape');
  await card.getByTestId('maintenance-save').click();
  await expect(toast(page, 'Maintenance mode has been updated.')).toBeVisible();
  await expect(card.getByTestId('maintenance-state')).toHaveText('On');
  // The admin's own layout shows the banner too.
  await expect(page.getByTestId('maintenance-banner')).toContainText(MESSAGE_EN);

  // The user: the banner on the dashboard, the model named on its results page, the job refused with the message.
  const user = await userSession(browser, baseURL!, userEmail);
  const banner = user.page.getByTestId('maintenance-banner');
  await expect(banner).toContainText(MESSAGE_EN);
  await expect(banner).toContainText(MODEL);
  await uploadOnDashboard(user.page, [{ name: `maint-${RUN}.png`, buffer: await grainPng(41) }]);
  await user.page.getByRole('checkbox', { name: MODEL }).check();
  await user.page.getByRole('button', { name: 'Run 1 analysis' }).click();
  await expect(toast(user.page, MESSAGE_EN)).toBeVisible();
  const jobs = await user.page.request.get('/api/jobs');
  expect(jobs.ok()).toBeTruthy();
  expect(JSON.stringify(await jobs.json())).not.toContain(`maint-${RUN}.png`);
  // Another model still runs.
  await user.page.getByRole('checkbox', { name: MODEL }).uncheck();
  await user.page.getByRole('checkbox', { name: OTHER_MODEL }).check();
  await user.page.getByRole('button', { name: 'Run 1 analysis' }).click();
  await expect(user.page.getByTestId('recent-job').filter({ hasText: `maint-${RUN}.png` })).toBeVisible();

  await user.page.goto(`/models/${MODEL_PATH}`);
  await expect(banner).toContainText(`${MODEL} is under maintenance`);
  await expect(banner).toContainText(MESSAGE_EN);

  // In German the banner shows the German message.
  expect((await user.page.request.patch('/api/users/me', { data: { language: 'de' } })).ok()).toBeTruthy();
  await user.context.addCookies([{ name: 'lng', value: 'de', url: baseURL! }]);
  await user.page.goto('/dashboard');
  await expect(banner).toContainText(MESSAGE_DE);
  expect((await user.page.request.patch('/api/users/me', { data: { language: 'en' } })).ok()).toBeTruthy();
  await user.context.close();
});

test('services status and demo license cards', async ({ page }) => {
  test.setTimeout(timeFor(360_000));
  await loginAdmin(page);
  await page.goto('/admin/settings');
  const services = page.getByTestId('settings-services');
  for (const s of ['mail', 'tolgee', 'minio']) await expect(services.getByTestId(`service-${s}`)).toHaveAttribute('data-state', 'ok');
  await expect(services.getByTestId('service-beszel-badge')).toHaveText('Not configured');
  await expect(services.getByTestId('service-registry')).not.toHaveAttribute('data-state', 'checking');
  await services.getByRole('button', { name: 'Re-check File storage' }).click();
  await expect(services.getByTestId('service-minio')).toHaveAttribute('data-state', 'ok');

  const demo = page.getByTestId('settings-demo-license');
  const max = demo.getByTestId('demo-maxImages');
  const before = await max.inputValue();
  await max.fill('');
  await demo.getByTestId('demo-save').click();
  await expect(demo.getByText('A whole number of 0 or more is required.')).toBeVisible();
  await max.fill('25');
  await demo.getByTestId('demo-save').click();
  await expect(toast(page, 'Demo license has been updated successfully.')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('demo-maxImages')).toHaveValue('25');
  await page.getByTestId('demo-maxImages').fill(before);
  await page.getByTestId('demo-save').click();
  await expect(toast(page, 'Demo license has been updated successfully.').last()).toBeVisible();
});

const WIDTHS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 375, height: 812 },
];

for (const size of WIDTHS) {
  test(`screenshots of settings and the maintenance banner at ${size.width}px`, async ({ page, browser, baseURL }) => {
    test.setTimeout(timeFor(360_000));
    await page.setViewportSize({ width: size.width, height: size.height });
    const shot = (p: Page, name: string) => p.screenshot({ path: `${OUT}/${size.name}-${name}.png`, fullPage: true, animations: 'disabled' });
    await loginAdmin(page);
    await page.goto('/admin/settings');
    await expect(page.getByTestId('service-minio')).toHaveAttribute('data-state', 'ok');
    await expect(page.getByTestId('demo-maxImages')).toBeVisible();
    await shot(page, 'admin-settings');

    const user = await userSession(browser, baseURL!, userEmail);
    await user.page.setViewportSize({ width: size.width, height: size.height });
    await expect(user.page.getByTestId('maintenance-banner')).toBeVisible();
    await shot(user.page, 'dashboard-maintenance');
    await user.page.goto(`/models/${MODEL_PATH}`);
    await expect(user.page.getByTestId('maintenance-banner')).toContainText('is under maintenance');
    await shot(user.page, 'model-maintenance');
    await user.context.close();
  });
}

test('turning maintenance off hides the banner', async ({ page }) => {
  test.setTimeout(timeFor(240_000));
  await loginAdmin(page);
  await page.goto('/admin/settings');
  const card = page.getByTestId('settings-maintenance');
  // Keyboard: Backspace in the models input removes the chosen model.
  await card.getByTestId('maintenance-models').click();
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Escape');
  await expect(card.getByText(MODEL)).toHaveCount(0);
  await card.getByTestId('maintenance-save').click();
  await expect(toast(page, 'Maintenance mode has been updated.')).toBeVisible();
  await expect(card.getByTestId('maintenance-state')).toHaveText('Off');
  await expect(page.getByTestId('maintenance-banner')).toHaveCount(0);
});
