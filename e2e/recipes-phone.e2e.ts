/**
 * The recipes journey on a phone (375 px) in German: a user paints strokes on a coating (the synthetic samples of
 * /work/shared/samples), reads the preview's class shares with a decimal comma, saves the recipe, applies it to a
 * second coating image and reads the thickness: the job's status in German, the value with a decimal comma and
 * not cut off at the right edge, and a link to the whole result.
 */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { userSession } from './admin-helpers';
import { createVerifiedUser, timeFor } from './helpers';

const SAMPLES = '/work/shared/samples';
const sample = (name: string) => ({ name: `${name}.png`, mimeType: 'image/png', buffer: readFileSync(`${SAMPLES}/${name}.png`) });

/** A horizontal stroke across the canvas at the fraction `fy` of its height (scrolled into view first). */
async function stroke(page: Page, fy: number): Promise<void> {
  const canvas = page.getByTestId('stroke-canvas');
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.08, box.y + box.height * fy);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.92, box.y + box.height * fy, { steps: 12 });
  await page.mouse.up();
}

test('a German phone user paints a recipe, applies it and reads the thickness with a decimal comma, not cut off (375 px)', async ({
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(timeFor(480_000));
  const email = await createVerifiedUser(request, 'recipes-phone', { company: 'Coatings Lab' });
  const { context, page } = await userSession(browser, baseURL!, email);
  await page.setViewportSize({ width: 375, height: 800 });
  for (const name of ['layer-thick-sem', 'layer-thin']) {
    const res = await page.request.post('/api/images', { multipart: { files: sample(name) } });
    expect(res.ok(), await res.text()).toBeTruthy();
  }
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // German first, then a new recipe (its default class names follow the language: recipe-class-names.e2e.ts)
  await page.goto('/recipes');
  await page.getByText('Deutsch', { exact: true }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await page.goto('/recipes/new');
  await expect(page.getByRole('button', { name: 'Pinsel für Sonstiges' })).toBeVisible();

  await page.getByRole('textbox', { name: 'Bild', exact: true }).click();
  await page.getByRole('option', { name: 'layer-thick-sem.png' }).first().click();
  await expect(page.getByTestId('stroke-canvas')).toBeVisible();
  // the coating lies between about 25 % and 45 % of the image's height
  await stroke(page, 0.34);
  await page.getByRole('button', { name: 'Pinsel für Sonstiges' }).click();
  await stroke(page, 0.12);
  await stroke(page, 0.75);
  // the preview's shares with a decimal comma ("18,0 %"), never "18.0 %"
  const fractions = page.getByTestId('recipe-fractions');
  await expect(fractions).toHaveText(/^Zu messende Schicht \d+,\d % · Sonstiges \d+,\d %$/, { timeout: timeFor(60_000) });

  await page.getByRole('textbox', { name: 'Name des Rezepts' }).fill('Helle Schicht');
  await page.getByRole('button', { name: 'Rezept speichern' }).click();
  await expect(page.getByTestId('recipe-saved')).toHaveText('Gespeichert: Helle Schicht, Version 1');

  await page.getByRole('textbox', { name: 'Bilder', exact: true }).click();
  await page.getByRole('option', { name: 'layer-thin.png' }).first().click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Starten', exact: true }).click();
  const row = page.getByTestId('recipe-job');
  const value = row.getByTestId('recipe-job-value');
  await expect(value).toHaveText(/^Mittlere Dicke \d+,\d\d µm$/, { timeout: timeFor(300_000) });
  // the status in German, not the raw "FINISHED"
  await expect(row.locator('[data-status]').first()).toHaveText('Fertig');
  await expect(row).not.toContainText('FINISHED');
  // the value is inside the screen (not cut off or scrolled away on the right), and the page does not scroll sideways
  await value.scrollIntoViewIfNeeded();
  const box = (await value.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(375);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
  await page.screenshot({ path: 'test-results/screenshots/recipes-phone-375-de.png', fullPage: true });

  // the whole result is one tap away
  await row.getByRole('link', { name: 'Ergebnis öffnen' }).click();
  await expect(page).toHaveURL(/\/models\/layer-thickness\?job=/);
  await expect(page.locator('[data-testid="job-item"] .mantine-Accordion-control[aria-expanded="true"]')).toBeVisible();
  expect(errors).toEqual([]);
  await context.close();
});

test('a recipe address that names no recipe of the user says so in German, with a way back to the list (375 px)', async ({
  browser,
  baseURL,
  request,
}) => {
  const email = await createVerifiedUser(request, 'recipes-missing', { company: 'Coatings Lab' });
  const { context, page } = await userSession(browser, baseURL!, email);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/recipes');
  await page.getByText('Deutsch', { exact: true }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-recipe']) {
    await page.goto(`/recipes/${id}`);
    const error = page.getByTestId('recipe-error');
    await expect(error).toContainText('Rezept nicht gefunden');
    await expect(error).toContainText('Dieses Rezept gibt es nicht oder nicht mehr');
    // not the server's own words: an English entity name or the id's validation rule
    await expect(error).not.toContainText('recipe');
    await expect(error).not.toContainText('params.id');
  }
  await page.getByTestId('recipe-error').getByRole('link', { name: 'Alle Rezepte' }).click();
  await expect(page).toHaveURL(/\/recipes$/);
  await context.close();
});
