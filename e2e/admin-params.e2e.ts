/**
 * The model-parameter form (/admin/model-params): generated from the chosen model's JSON Schema, filled with its
 * defaults, bounds checked in the browser, the whole object validated by the server, the JSON shown to copy.
 */
import { expect, test } from '@playwright/test';
import { acceptCookies } from './helpers';
import { choose, loginAdmin } from './admin-helpers';

const OUT = 'test-results/screenshots';

test('the schema-driven parameter form of a model', async ({ page, context, baseURL }) => {
  await acceptCookies(context, baseURL!);
  await loginAdmin(page);
  await page.goto('/admin/model-params');
  await expect(page.getByRole('heading', { name: 'Model parameters', level: 2 })).toBeVisible();
  await choose(page, page.getByTestId('params-model'), 'Grain size (ASTM E112)');
  await expect(page).toHaveURL(/\?model=/);

  // sections and fields come from the schema, filled with the model's defaults
  for (const section of ['General', 'Magnification', 'Segmentation', 'Layer', 'Colours']) {
    await expect(page.getByRole('heading', { name: section, level: 4 })).toBeVisible();
  }
  const length = page.getByLabel('Length (pixels)');
  await expect(length).toHaveValue('100');
  await expect(page.getByRole('textbox', { name: 'Model version' })).toHaveValue('20261209');
  await expect(page.getByRole('textbox', { name: 'Boundary' })).toHaveValue('#ff1a1a');

  // a bound of the schema is checked in the browser
  await length.fill('5000');
  await expect(page.getByText('Must be at most 1000')).toBeVisible();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Please correct the highlighted fields.')).toBeVisible();
  await expect(page.getByTestId('params-result')).toHaveCount(0);

  await length.fill('250');
  await page.getByRole('textbox', { name: 'Unit', exact: true }).click();
  await page.getByRole('option', { name: 'nm', exact: true }).click();
  await page.getByRole('button', { name: 'Submit' }).click();
  const result = page.getByTestId('params-result');
  await expect(result).toBeVisible();
  await expect(result).toContainText('The parameters are valid.');
  await expect(result).toContainText('"length": 250');
  await expect(result).toContainText('"unit": "nm"');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${OUT}/desktop-admin-model-params.png`, fullPage: true });

  // Reset brings the defaults back; the chosen model survives a reload (query string)
  await page.getByRole('button', { name: 'Reset to defaults' }).click();
  await expect(length).toHaveValue('100');
  await page.reload();
  await expect(page.getByLabel('Length (pixels)')).toHaveValue('100');

  await page.setViewportSize({ width: 375, height: 812 });
  await page.screenshot({ path: `${OUT}/phone-admin-model-params.png`, fullPage: true });
});
