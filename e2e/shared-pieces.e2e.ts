/**
 * The shared web pieces and the lazy back-office (issue 8 items 7 and 10) through the browser: the back-office
 * layout arrives as its own chunk only when an admin opens /admin; an admin list page (the audit log) uses the
 * shared list skeleton (h1 title, the table) and the back-office date format DD/MM/YYYY HH:mm:ss; a dialog uses
 * the shared Cancel/primary footer with its texts unchanged. Screenshots at 1280 and 375 px.
 */
import { expect, test } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { loginAdmin } from './admin-helpers';
import { acceptCookies } from './helpers';

test.describe.configure({ mode: 'serial' });

test.beforeEach(async ({ context, baseURL }) => {
  await acceptCookies(context, baseURL!);
});

/** test-results/screenshots/ of the repository, wherever Playwright is started from. */
const OUT = fileURLToPath(new URL('../test-results/screenshots', import.meta.url));

test('the back-office layout is loaded lazily, on the first visit of /admin', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.url());
  });
  await page.goto('/auth/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect(scripts.some((u) => /AdminLayout-[^/]*\.js/.test(u))).toBe(false);
  await loginAdmin(page);
  await expect(page.getByRole('navigation').first()).toBeVisible();
  expect(scripts.some((u) => /AdminLayout-[^/]*\.js/.test(u))).toBe(true);
});

for (const width of [1280, 375]) {
  test(`voucher dialog and audit log use the shared pieces at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await loginAdmin(page);

    // The shared footer: "Cancel" closes, the primary button keeps its text ("Create").
    await page.goto('/admin/vouchers');
    await page.getByRole('button', { name: 'Create voucher' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create voucher(s)' });
    await expect(dialog).toBeVisible();
    await page.screenshot({ path: `${OUT}/shared-voucher-dialog-${width}.png` });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole('button', { name: 'Create voucher' }).click();
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    const generated = page.getByRole('dialog', { name: 'Generated vouchers' });
    await expect(generated).toBeVisible();
    await generated.getByRole('button', { name: 'OK' }).click();

    // An admin list on the shared skeleton (h1 title), dates in the back-office format.
    await page.goto('/admin/audit-log');
    await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
    const firstRow = page.getByRole('row').nth(1);
    await expect(firstRow).toBeVisible();
    await expect(firstRow.getByRole('cell').first()).toHaveText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
    await page.screenshot({ path: `${OUT}/shared-audit-log-${width}.png`, fullPage: true });
  });
}
