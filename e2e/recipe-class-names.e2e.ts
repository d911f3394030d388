/**
 * The recipe editor's default class names follow the language: opened in English, the classes are "Layer to
 * measure" and "Other"; after a switch to German they read "Zu messende Schicht" and "Sonstiges" (they stayed
 * English). A name the user typed is theirs and stays as typed in every language.
 */
import { expect, test, type Page } from '@playwright/test';
import { userSession } from './admin-helpers';
import { createVerifiedUser } from './helpers';

const classNames = (page: Page) => page.getByRole('textbox', { name: /^(Name of class|Name der Klasse) \d+$/ });

test('default class names follow a language switch; a name the user typed does not', async ({ browser, baseURL, request }) => {
  const email = await createVerifiedUser(request, 'recipe-names');
  const { context, page } = await userSession(browser, baseURL!, email);
  await page.goto('/recipes/new');
  await expect(classNames(page)).toHaveCount(2);
  await page.getByRole('button', { name: 'Add a class' }).click();
  await expect(classNames(page).nth(0)).toHaveValue('Layer to measure');
  await expect(classNames(page).nth(1)).toHaveValue('Other');
  await expect(classNames(page).nth(2)).toHaveValue('Class 3');

  await page.getByText('Deutsch', { exact: true }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(classNames(page).nth(0)).toHaveValue('Zu messende Schicht');
  await expect(classNames(page).nth(1)).toHaveValue('Sonstiges');
  await expect(classNames(page).nth(2)).toHaveValue('Klasse 3');
  // the other places that name the classes follow too
  await expect(page.getByRole('button', { name: 'Pinsel für Sonstiges' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sonstiges entfernen' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/recipe-names-1280-de.png' });

  // the user names the second class: from now on it is theirs
  await classNames(page).nth(1).fill('Einbettmittel');
  await page.getByText('English', { exact: true }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(classNames(page).nth(0)).toHaveValue('Layer to measure');
  await expect(classNames(page).nth(1)).toHaveValue('Einbettmittel');
  await expect(classNames(page).nth(2)).toHaveValue('Class 3');
  await expect(page.getByRole('button', { name: 'Brush for Einbettmittel' })).toBeVisible();
  // what the measures offer is named the same
  await page.getByRole('textbox', { name: 'Layer thickness measures', exact: true }).click();
  await expect(page.getByRole('option', { name: 'Einbettmittel' })).toBeVisible();
  await expect(page.getByRole('option', { name: 'Layer to measure' })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 375, height: 800 });
  await classNames(page).nth(0).scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screenshots/recipe-names-375-en.png' });

  await page.getByText('Deutsch', { exact: true }).click();
  await expect(classNames(page).nth(0)).toHaveValue('Zu messende Schicht');
  await expect(classNames(page).nth(1)).toHaveValue('Einbettmittel');
  await page.screenshot({ path: 'test-results/screenshots/recipe-names-375-de.png' });
  await context.close();
});
