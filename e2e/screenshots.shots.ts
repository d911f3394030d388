/**
 * Screenshots of the main account pages at desktop and phone widths, written to test-results/screenshots/, for
 * looking at, not a test: `npm run screenshots` runs it (e2e/screenshots.config.ts); CI does not.
 */
import { expect, test } from '@playwright/test';
import { acceptCookies, createVerifiedUser, field, login } from './helpers';

const WIDTHS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 375, height: 812 },
];
// Relative to the working folder: the repository root, where `npm run test:e2e` runs.
const OUT = 'test-results/screenshots';

let email = '';

test.beforeAll(async ({ request }) => {
  email = await createVerifiedUser(request, 'shots');
});

for (const size of WIDTHS) {
  test(`account pages at ${size.width}px`, async ({ page, context, baseURL }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    // the cookie notice first, then accepted for the other pages
    await page.goto('/auth/login');
    await expect(page.getByRole('button', { name: 'Understood' })).toBeVisible();
    await page.screenshot({ path: `${OUT}/${size.name}-cookie-notice.png` });
    await acceptCookies(context, baseURL!);

    await page.goto('/auth/login');
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await page.screenshot({ path: `${OUT}/${size.name}-login.png`, fullPage: true });

    await page.goto('/auth/register');
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await page.screenshot({ path: `${OUT}/${size.name}-register.png`, fullPage: true });

    await login(page, email);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.screenshot({ path: `${OUT}/${size.name}-dashboard.png`, fullPage: true });

    await page.goto('/profile');
    await expect(page.getByRole('button', { name: 'Save profile' })).toBeVisible();
    await page.screenshot({ path: `${OUT}/${size.name}-profile.png`, fullPage: true });

    await page.goto('/access-keys');
    await field(page, 'Name').fill(`Key ${size.name}`);
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect(page.getByRole('dialog', { name: 'Your new access key' })).toBeVisible();
    await page.screenshot({ path: `${OUT}/${size.name}-access-key-created.png` });
    await page.getByRole('button', { name: 'I have copied the key' }).click();
    await expect(page.getByTestId('access-key-row').first()).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.screenshot({ path: `${OUT}/${size.name}-access-keys.png`, fullPage: true });

    if (size.width < 768) {
      await page.getByRole('button', { name: 'Navigation' }).click();
      await expect(page.getByRole('dialog', { name: 'Navigation' })).toBeVisible();
      await page.screenshot({ path: `${OUT}/${size.name}-drawer.png` });
      await page.keyboard.press('Escape');
    }
    await page.getByTestId('user-menu').click();
    await expect(page.getByRole('menuitem', { name: 'Access keys' })).toBeVisible();
    await page.screenshot({ path: `${OUT}/${size.name}-user-menu.png` });
  });
}
