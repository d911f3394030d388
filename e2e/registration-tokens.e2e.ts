/**
 * Registration tokens on the Servers screen (issue 15): created (shown once with the launcher command),
 * listed, revoked after a confirmation; screenshots at 1280 and 375 px.
 */
import { expect, test } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { loginAdmin } from './admin-helpers';
import { acceptCookies, timeFor } from './helpers';

const OUT = fileURLToPath(new URL('../test-results/screenshots', import.meta.url));

test.beforeEach(async ({ context, baseURL }) => {
  await acceptCookies(context, baseURL!);
});

for (const size of [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'mobile', width: 375, height: 812 },
]) {
  test(`registration tokens of a server at ${size.width}px`, async ({ page }) => {
    test.setTimeout(timeFor(120_000));
    await page.setViewportSize({ width: size.width, height: size.height });
    await loginAdmin(page);
    await page.goto('/admin/resources');
    await page.getByTestId('server-list').getByRole('button').filter({ hasText: 'This machine' }).click();
    const section = page.getByTestId('registration-tokens');
    await expect(section.getByRole('heading', { name: 'Registration tokens' })).toBeVisible();
    const name = `GPU rack ${size.name}`;
    await section.getByLabel('Token name').fill(name);
    await section.getByRole('button', { name: 'Create token' }).click();
    const shown = section.getByTestId('new-token-value');
    await expect(shown).toHaveText(/^lrt_[A-Za-z0-9_-]{32}$/);
    await expect(section.getByText('LAUNCHER_REGISTRATION_TOKEN=lrt_')).toBeVisible();
    const row = section.getByTestId('token-row').filter({ hasText: name });
    await expect(row).toContainText('launchers: 0');
    await section.screenshot({ path: `${OUT}/${size.name}-admin-registration-tokens.png`, animations: 'disabled' });
    // Revoked after a confirmation.
    await row.getByRole('button', { name: 'Revoke token' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
    await expect(row).toHaveCount(0);
    await expect(section.getByTestId('new-token')).toHaveCount(0);
  });
}
