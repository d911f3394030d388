/**
 * The recipe editor's brush buttons say what they show (WCAG 2.5.3 "label in name"): the visible "Brush" /
 * "Pinsel" is the start of each button's accessible name, which adds the class it paints ("Brush for Other"), so a
 * speech user who says what they see reaches the button. Their names were "Paint Other" / "Sonstiges malen".
 */
import { expect, test, type Page } from '@playwright/test';
import { userSession } from './admin-helpers';
import { createVerifiedUser } from './helpers';

/** Each brush button's visible text and accessible name, in order. */
async function brushes(page: Page): Promise<{ text: string; name: string }[]> {
  const buttons = page.locator('button[aria-pressed]');
  await expect(buttons.first()).toBeVisible();
  return buttons.evaluateAll((els) => els.map((el) => ({ text: (el.textContent ?? '').trim(), name: el.getAttribute('aria-label') ?? '' })));
}

test('every brush button’s accessible name starts with its visible text and names its class, in English and German', async ({
  browser,
  baseURL,
  request,
}) => {
  const email = await createVerifiedUser(request, 'recipe-brush');
  const { context, page } = await userSession(browser, baseURL!, email);
  await page.goto('/recipes/new');
  await expect(page.getByRole('button', { name: 'Brush for Layer to measure' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Brush for Other' })).toHaveText('Brush');
  await page.getByRole('button', { name: 'Add a class' }).click();
  await expect(page.getByRole('button', { name: 'Brush for Class 3' })).toBeVisible();
  const en = await brushes(page);
  expect(en.map((b) => b.name)).toEqual(['Brush for Layer to measure', 'Brush for Other', 'Brush for Class 3']);
  for (const b of en) expect(b.name.startsWith(b.text), `${b.name} / ${b.text}`).toBe(true);
  // the name follows the class's own name
  await page.getByRole('textbox', { name: 'Name of class 2' }).fill('Resin');
  await expect(page.getByRole('button', { name: 'Brush for Resin' })).toHaveAttribute('aria-pressed', 'false');
  await page.getByRole('button', { name: 'Brush for Resin' }).click();
  await expect(page.getByRole('button', { name: 'Brush for Resin' })).toHaveAttribute('aria-pressed', 'true');
  await page.screenshot({ path: 'test-results/screenshots/recipe-brushes-1280-en.png' });

  await page.getByText('Deutsch', { exact: true }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await page.goto('/recipes/new');
  await expect(page.getByRole('button', { name: 'Pinsel für Sonstiges' })).toHaveText('Pinsel');
  const de = await brushes(page);
  expect(de.map((b) => b.name)).toEqual(['Pinsel für Zu messende Schicht', 'Pinsel für Sonstiges']);
  for (const b of de) expect(b.name.startsWith(b.text), `${b.name} / ${b.text}`).toBe(true);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.getByRole('button', { name: 'Pinsel für Sonstiges' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screenshots/recipe-brushes-375-de.png' });
  await context.close();
});
