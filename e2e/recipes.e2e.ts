/**
 * Say what to measure (issue 22): on a coating cross-section (the synthetic samples of /work/shared/samples) the
 * user paints strokes of "Layer to measure" on the coating and of "Other" on the resin and the substrate, sees the
 * layer highlighted by the trained classifier, saves the recipe, applies it to a second coating image and reads the
 * thickness of the layer it marked.
 */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { ADMIN_EMAIL, ADMIN_PASSWORD, signIn } from './analysis-helpers';
import { acceptCookies, timeFor } from './helpers';

const SAMPLES = '/work/shared/samples';
const sample = (name: string) => ({ name: `${name}.png`, mimeType: 'image/png', buffer: readFileSync(`${SAMPLES}/${name}.png`) });
const truth = (name: string) => JSON.parse(readFileSync(`${SAMPLES}/${name}.json`, 'utf8')) as { meanThicknessUm: number };

test.beforeEach(async ({ context, baseURL }) => {
  await acceptCookies(context, baseURL!);
});

/** A horizontal stroke across the canvas at the fraction `fy` of its height, from fx0 to fx1 of its width. */
async function stroke(page: Page, fy: number, fx0 = 0.08, fx1 = 0.92): Promise<void> {
  const box = (await page.getByTestId('stroke-canvas').boundingBox())!;
  await page.mouse.move(box.x + box.width * fx0, box.y + box.height * fy);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * fx1, box.y + box.height * fy, { steps: 12 });
  await page.mouse.up();
}

test('draw strokes on a coating, see the layer, save the recipe, apply it to a second image and read the thickness', async ({ page }) => {
  test.setTimeout(timeFor(480_000));
  // the whole image and the panels at once: strokes are drawn where the pointer can reach
  await page.setViewportSize({ width: 1280, height: 1700 });
  await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, /\/admin/);
  for (const name of ['layer-thick-sem', 'layer-thin']) {
    const res = await page.request.post('/api/images', { multipart: { files: sample(name) } });
    expect(res.ok(), await res.text()).toBeTruthy();
  }
  await page.goto('/recipes');
  await page.getByRole('link', { name: 'New recipe' }).click();
  await expect(page).toHaveURL(/\/recipes\/new$/);
  await page.getByRole('textbox', { name: 'Image', exact: true }).click();
  await page.getByRole('option', { name: 'layer-thick-sem.png' }).first().click();
  await expect(page.getByTestId('stroke-canvas')).toBeVisible();
  // the coating lies between about 25 % and 45 % of the image's height
  await stroke(page, 0.34);
  await page.getByRole('button', { name: 'Brush for Other' }).click();
  await stroke(page, 0.12);
  await stroke(page, 0.75);
  // the layer is highlighted: the preview is over the image, and the layer class holds about 17 % of it
  await expect(page.getByTestId('recipe-preview')).toBeVisible();
  const fractions = page.getByTestId('recipe-fractions');
  await expect(fractions).toContainText('Layer to measure');
  // after the last stroke the classifier is trained again: the substrate is no longer taken for the layer
  const layerPercent = async () => Number(/Layer to measure ([\d.]+) %/.exec((await fractions.textContent()) ?? '')?.[1]);
  await expect.poll(layerPercent, { timeout: timeFor(60_000) }).toBeLessThan(24);
  expect(await layerPercent()).toBeGreaterThan(12);

  await page.getByRole('textbox', { name: 'Recipe name' }).fill('Bright coating');
  await page.getByRole('button', { name: 'Save recipe' }).click();
  await expect(page.getByTestId('recipe-saved')).toHaveText('Saved: Bright coating, version 1');

  // apply it to the second image with the layer thickness model
  await page.getByRole('textbox', { name: 'Images', exact: true }).click();
  await page.getByRole('option', { name: 'layer-thin.png' }).first().click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const value = page.getByTestId('recipe-job-value');
  await expect(value).toContainText('Mean thickness', { timeout: timeFor(300_000) });
  const um = Number(/Mean thickness ([\d.]+) µm/.exec((await value.textContent()) ?? '')?.[1]);
  const expected = truth('layer-thin').meanThicknessUm;
  // three strokes on another image of the material: within 15 % (10.8 % measured: the strokes did not mark the
  // grey edge of the coating, which a user corrects with a few more strokes)
  expect(Math.abs(um - expected) / expected).toBeLessThan(0.15);

  // the recipe is listed
  await page.goto('/recipes');
  await expect(page.getByRole('link', { name: 'Bright coating' })).toBeVisible();
});
