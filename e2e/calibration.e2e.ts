/**
 * Calibration for users (issue 13 item 1) through the browser: an image without a scale bar uploaded with a
 * typed calibration is measured with it; named calibrations are kept and picked on upload; the set-scale tool
 * draws a line over a known length on another image, saves the µm per pixel and re-runs the job. At 1280 and
 * 375 px.
 */
import { expect, test, type Page } from '@playwright/test';
import { acceptCookies, timeFor } from './helpers';
import { choose, createUserOfCompany, toast, userSession } from './admin-helpers';
import { openFinishedJob, tableValue } from './analysis-helpers';

test.describe.configure({ mode: 'serial' });

const RUN = Date.now().toString(36);
const MODEL = 'Grain size (ASTM E112)';
const MODEL_PATH = 'grain-size';
let userEmail = '';

/** A synthetic grain micrograph without a scale bar (0.5 µm per pixel in truth); `seed` makes it unique. */
async function grainWithoutBar(seed: number): Promise<Buffer> {
  const synth = await import('../packages/analysis/src/synth/index');
  const img = await synth.grainImage({ width: 480, height: 360, grainPx: 40, seed, pixelSizeUm: 0.5, scaleBar: null });
  return img.png;
}

async function uploadAndRun(page: Page, name: string, buffer: Buffer): Promise<void> {
  await page
    .getByTestId('upload-dropzone')
    .locator('input[type="file"]')
    .setInputFiles([{ name, mimeType: 'image/png', buffer }]);
  await expect(page.getByTestId('upload-row').filter({ hasText: name })).toHaveAttribute('data-state', 'done', { timeout: timeFor(30_000) });
  await page.getByRole('checkbox', { name: MODEL }).check();
  await page.getByRole('button', { name: 'Run 1 analysis' }).click();
  await expect(page.getByTestId('recent-job').filter({ hasText: name })).toBeVisible();
}

/** The page has no horizontal scroll bar (375 px screens). */
async function expectNoHorizontalScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
}

test.beforeAll(async ({ request }) => {
  userEmail = await createUserOfCompany(request, 'calibration', `Calibration Lab ${RUN}`);
});

test.beforeEach(async ({ context, baseURL }) => {
  await acceptCookies(context, baseURL!);
});

test('an image without a scale bar uploaded with a typed calibration is measured with it', async ({ browser, baseURL }) => {
  const { context, page } = await userSession(browser, baseURL!, userEmail);
  const name = `typed-${RUN}.png`;
  await page.goto('/dashboard');
  await choose(page, page.getByTestId('calibration-picker'), 'Typed value');
  await page.getByTestId('calibration-typed').fill('abc');
  await expect(page.getByText('must be a positive number of micrometres per pixel')).toBeVisible();
  await page.getByTestId('calibration-typed').fill('0.5');
  await uploadAndRun(page, name, await grainWithoutBar(31));

  await page.goto(`/models/${MODEL_PATH}`);
  const item = page.getByTestId('job-item').filter({ hasText: name });
  await openFinishedJob(page, item);
  const info = item.getByTestId('calibration-info');
  await expect(info).toHaveAttribute('data-source', 'user');
  await expect(info).toContainText('0.5 µm/px (set by you)');
  await expect(item.getByTestId('set-calibration')).toHaveCount(0);
  // the typed calibration is the truth of the synthetic image: G is measured, not withheld
  expect(Number.isFinite(await tableValue(item, 'ASTM grain size G (planimetric)'))).toBe(true);
  expect(await tableValue(item, 'Pixel size')).toBeCloseTo(0.5, 3);
  await context.close();
});

test('named calibrations are kept and picked on upload', async ({ browser, baseURL }) => {
  const { context, page } = await userSession(browser, baseURL!, userEmail);
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Named calibrations' }).click();
  const manager = page.getByTestId('calibrations-manager');
  await manager.getByTestId('calibration-name').fill('GX53 50×');
  await manager.getByTestId('calibration-size').fill('-1');
  await manager.getByRole('button', { name: 'Add calibration' }).click();
  await expect(manager.getByText('must be a positive number')).toBeVisible();
  await manager.getByTestId('calibration-size').fill('0,5');
  await manager.getByRole('button', { name: 'Add calibration' }).click();
  await expect(manager.getByTestId('calibration-row').filter({ hasText: 'GX53 50×' })).toContainText('0.5');
  await page.keyboard.press('Escape');

  await choose(page, page.getByTestId('calibration-picker'), 'GX53 50× (0.5 µm/px)');
  const name = `named-${RUN}.png`;
  await uploadAndRun(page, name, await grainWithoutBar(32));
  const images = await page.request.get('/api/image');
  const uploaded = ((await images.json()) as Array<{ orginalFilename: string; pixelSizeUm: number | null }>).find((i) => i.orginalFilename === name);
  expect(uploaded?.pixelSizeUm).toBe(0.5);
  await context.close();
});

for (const width of [1280, 375]) {
  test(`the set-scale tool draws a line over a known length and re-runs the job (${width} px)`, async ({ browser, baseURL }) => {
    const { context, page } = await userSession(browser, baseURL!, userEmail);
    await page.setViewportSize({ width, height: width === 375 ? 740 : 900 });
    const name = `scale-${width}-${RUN}.png`;
    await page.goto('/dashboard');
    await uploadAndRun(page, name, await grainWithoutBar(40 + width));

    await page.goto(`/models/${MODEL_PATH}`);
    const item = page.getByTestId('job-item').filter({ hasText: name }).first();
    await openFinishedJob(page, item);
    await expect(item.getByTestId('calibration-info')).toHaveAttribute('data-source', 'none');
    await item.getByTestId('set-calibration').click();

    const dialog = page.getByTestId('set-scale-dialog');
    const canvas = dialog.getByTestId('scale-canvas');
    await expect(canvas.locator('img')).toBeVisible();
    await expectNoHorizontalScroll(page);
    const box = (await canvas.boundingBox())!;
    // a horizontal line over half the image's width: 240 of its 480 pixels, whatever size it is shown at
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width / 4, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, y, { steps: 5 });
    await page.mouse.move(box.x + (box.width * 3) / 4, y, { steps: 5 });
    await page.mouse.up();
    const pixels = Number(await dialog.getByTestId('scale-pixels').inputValue());
    expect(pixels).toBeGreaterThan(230);
    expect(pixels).toBeLessThan(250);
    // the keyboard fallback: the pixel length can be typed
    await dialog.getByTestId('scale-pixels').fill('240');
    await dialog.getByTestId('scale-known').fill('120');
    await dialog.getByRole('radio', { name: 'µm' }).check({ force: true });
    await expect(dialog.getByTestId('scale-result')).toHaveText('0.5 µm per pixel');
    await dialog.getByTestId('scale-save').click();
    await expect(toast(page, 'Calibration saved.')).toBeVisible();
    await expect(dialog).toBeHidden();

    // the re-run is a new job above the first one: wait for it before opening it (else the list moves under the click)
    await expect(page.getByTestId('job-item').filter({ hasText: name })).toHaveCount(2, { timeout: timeFor(30_000) });
    const rerun = page.getByTestId('job-item').filter({ hasText: name }).first();
    await openFinishedJob(page, rerun, 90_000);
    await expect(rerun.getByTestId('calibration-info')).toHaveAttribute('data-source', 'user');
    await context.close();
  });
}
