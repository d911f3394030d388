/**
 * The analysis journeys of issue 4 through the browser, against the real server and its local launcher: upload
 * micrographs (made at test time by the synthetic generator, with exact truth), choose models, run, read the
 * results page; re-run with a crop; mask edit by staff and re-run with masks; rating and issue report; the
 * sandbox; the history; screenshots at desktop and phone widths.
 */
import { expect, test, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import type { GrainTruth, PoreTruth } from '../packages/analysis/src/synth/index';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  GRAIN_MODEL,
  PORE_MODEL,
  expectImageLoaded,
  getJob,
  grainMicrograph,
  jobItem,
  listJobs,
  modelId,
  openFinishedJob,
  poreMicrograph,
  runViaApi,
  signIn,
  tableValue,
  toast,
  uploadViaApi,
  type Micrograph,
} from './analysis-helpers';
import { PASSWORD, acceptCookies, createVerifiedUser, timeFor } from './helpers';

test.describe.configure({ mode: 'serial' });

/** test-results/screenshots/ of the repository, whatever the working folder of the run. */
const OUT = fileURLToPath(new URL('../test-results/screenshots', import.meta.url));
const WIDTHS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 375, height: 812 },
];

let email = '';
let grains: Micrograph<GrainTruth>;
let pores: Micrograph<PoreTruth>;
/** The first grain-size job of the grain micrograph (journey 1), re-used by the later journeys. */
let grainJobId = '';

test.beforeAll(async ({ request }) => {
  email = await createVerifiedUser(request, 'analysis');
  grains = await grainMicrograph();
  pores = await poreMicrograph();
});

test.beforeEach(async ({ context, baseURL }) => {
  await acceptCookies(context, baseURL!);
});

const userSignIn = (page: Page) => signIn(page, email, PASSWORD);

test('upload micrographs with progress, choose models, run, read the results', async ({ page }) => {
  test.setTimeout(timeFor(150_000));
  await userSignIn(page);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByText('No images yet. Upload one above.')).toBeVisible();
  await expect(page.getByTestId('license-card')).toContainText('DEMO');
  const run = page.getByRole('button', { name: /^Run \d+ analys/ });
  await expect(run).toBeDisabled();

  // a slow uplink, so the progress bar is seen moving before the upload completes
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 256 * 1024 });
  await page.getByTestId('upload-dropzone').locator('input[type="file"]').setInputFiles([grains, pores]);
  const grainRow = page.getByTestId('upload-row').filter({ hasText: grains.name });
  const grainBar = page.getByRole('progressbar', { name: `Upload progress of ${grains.name}` });
  await expect(grainRow).toHaveAttribute('data-state', 'uploading');
  await expect(page.getByRole('button', { name: 'Cancel upload' }).first()).toBeVisible();
  await expect
    .poll(
      async () => {
        const v = Number(await grainBar.getAttribute('aria-valuenow'));
        return v > 0 && v < 100 && (await grainRow.getAttribute('data-state')) === 'uploading';
      },
      { message: 'a progress between 0 and 100 % while uploading', intervals: [50] },
    )
    .toBe(true);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  for (const img of [grains, pores]) {
    const row = page.getByTestId('upload-row').filter({ hasText: img.name });
    await expect(row).toHaveAttribute('data-state', 'done', { timeout: timeFor(30_000) });
    await expect(row.getByLabel('Uploaded')).toBeVisible();
    await expect(page.getByRole('progressbar', { name: `Upload progress of ${img.name}` })).toHaveAttribute('aria-valuenow', '100');
  }

  // the uploaded images appear in the list, already chosen
  for (const img of [grains, pores]) {
    const choice = page.getByRole('group', { name: 'Recent images' }).getByRole('checkbox', { name: img.name });
    await expect(choice).toHaveAccessibleName(`${img.name} ${img.width}×${img.height}`);
    await expect(choice).toBeChecked();
  }
  await expect(run).toBeDisabled();
  await page.getByRole('checkbox', { name: GRAIN_MODEL.displayName }).check();
  await expect(page.getByRole('button', { name: 'Run 2 analyses' })).toBeEnabled();
  await page.getByRole('checkbox', { name: PORE_MODEL.displayName }).check();
  await page.getByRole('button', { name: 'Run 4 analyses' }).click();
  await expect(toast(page, 'Job started')).toContainText('4 analyses have started.');
  // the choice of images is cleared, the recent jobs list the four new jobs
  await expect(page.getByRole('group', { name: 'Recent images' }).getByRole('checkbox', { checked: true })).toHaveCount(0);
  await expect(page.getByTestId('recent-job')).toHaveCount(4);

  // to the results page of the grain-size model from the recent jobs
  await page.getByTestId('recent-job').filter({ hasText: GRAIN_MODEL.displayName }).getByRole('link', { name: grains.name }).click();
  await expect(page).toHaveURL(new RegExp(`/models/${GRAIN_MODEL.name}$`));
  await expect(page.getByRole('heading', { name: GRAIN_MODEL.displayName, level: 1 })).toBeVisible();
  await expect(page.getByTestId('job-item')).toHaveCount(2);
  await expect(page.getByText('2 of 2 jobs')).toBeVisible();

  const jobs = await listJobs(page.request, await modelId(page.request, GRAIN_MODEL.name));
  grainJobId = jobs.find((j) => j.image.orginalFilename === grains.name)!.id;
  const item = jobItem(page, grainJobId);
  await openFinishedJob(page, item, 90_000);
  await expect(item.getByText('Finished')).toBeVisible();

  // headline numbers close to the truth of the synthetic micrograph
  const gPlanimetric = await tableValue(item, 'ASTM grain size G (planimetric)');
  const gIntercept = await tableValue(item, 'ASTM grain size G (intercept)');
  expect(Math.abs(gPlanimetric - grains.truth.astmGPlanimetric)).toBeLessThan(0.3);
  expect(Math.abs(gIntercept - grains.truth.astmGIntercept)).toBeLessThan(0.3);
  const counted = await tableValue(item, 'Grains counted (Jeffries)');
  expect(Math.abs(counted - grains.truth.grainsJeffries) / grains.truth.grainsJeffries).toBeLessThan(0.1);
  expect(await tableValue(item, 'Pixel size')).toBeCloseTo(0.5, 3);
  await expect(item.getByRole('row', { name: /Scale bar/ })).toContainText('50 µm = 100 px');

  // charts (two histograms), the source image and the boundary overlay
  await expect(item.getByTestId('result-histogram')).toHaveCount(2);
  await expect(item.getByTestId('result-histogram').first()).toContainText('Grain area distribution');
  await expect(item.getByTestId('result-histogram').nth(1)).toContainText('Equivalent diameter distribution');
  await expect(item.getByTestId('result-histogram').first().locator('.recharts-bar-rectangle').first()).toBeVisible();
  await expectImageLoaded(item.getByRole('img', { name: grains.name }));
  // the boundaries, the E112 test lines the intercepts were counted on, and the scale bar read from the image
  const drawn = item.getByTestId('result-image').getByTestId('zoom-image');
  await expect(drawn).toHaveCount(3);
  expect(await drawn.evaluateAll((els) => els.map((e) => e.getAttribute('alt')))).toEqual([
    'grain-boundaries.png',
    'e112-test-lines.png',
    'scale-bar.png',
  ]);
  for (const name of ['grain-boundaries.png', 'e112-test-lines.png', 'scale-bar.png'])
    await expectImageLoaded(item.getByTestId('result-image').getByRole('img', { name }));

  // the porosity results of the pore micrograph, through the model tab of the header
  await page.getByRole('tab', { name: PORE_MODEL.displayName }).click();
  await expect(page).toHaveURL(new RegExp(`/models/${PORE_MODEL.name}$`));
  await expect(page.getByRole('heading', { name: PORE_MODEL.displayName, level: 1 })).toBeVisible();
  const poreJobs = await listJobs(page.request, await modelId(page.request, PORE_MODEL.name));
  const poreJob = poreJobs.find((j) => j.image.orginalFilename === pores.name)!;
  const poreImageId = poreJob.imageId;
  const poreItem = jobItem(page, poreJob.id);
  await openFinishedJob(page, poreItem, 90_000);
  const fraction = await tableValue(poreItem, 'Area fraction (porosity)');
  expect(Math.abs(fraction - pores.truth.areaFractionPercent)).toBeLessThan(1);

  // a plain user has no mask editor: neither the button nor the page
  await expect(poreItem.getByRole('link', { name: 'Mask editor' })).toHaveCount(0);
  await page.goto(`/admin/mask-editor?mask=&image=${poreImageId}`);
  await expect(page.getByText('The mask editor is available to administrators, power users and editors.')).toBeVisible();
});

test('re-run with a crop from the crop editor', async ({ page }) => {
  test.setTimeout(timeFor(120_000));
  await userSignIn(page);
  await page.goto(`/models/${GRAIN_MODEL.name}`);
  const item = jobItem(page, grainJobId);
  await openFinishedJob(page, item);
  await item.getByRole('button', { name: 'Crop and re-run' }).click();
  const dialog = page.getByRole('dialog', { name: 'Crop editor' });
  const box = dialog.getByTestId('crop-box');
  await expect(box).toBeVisible();
  // the initial box: 70 % of the image, centred (natural pixels)
  const w0 = Math.round(grains.width * 0.7);
  const h0 = Math.round(grains.height * 0.7);
  const natural = dialog.getByTestId('crop-natural');
  const parse = async () => {
    const m = /x (\d+), y (\d+), (\d+) × (\d+) px/.exec((await natural.textContent()) ?? '');
    return m ? m.slice(1).map(Number) : null;
  };
  await expect.poll(parse).not.toBeNull();
  const [x0, y0, wi, hi] = (await parse())!;
  expect(Math.abs(wi - w0)).toBeLessThanOrEqual(2);
  expect(Math.abs(hi - h0)).toBeLessThanOrEqual(2);
  expect(Math.abs(x0 - (grains.width - wi) / 2)).toBeLessThanOrEqual(2);
  expect(Math.abs(y0 - (grains.height - hi) / 2)).toBeLessThanOrEqual(2);

  // drag the south-east corner inwards with the mouse: a smaller box
  const bb = (await box.boundingBox())!;
  await page.mouse.move(bb.x + bb.width - 1, bb.y + bb.height - 1);
  await page.mouse.down();
  await page.mouse.move(bb.x + bb.width - 60, bb.y + bb.height - 50, { steps: 6 });
  await page.mouse.up();
  await expect.poll(async () => (await parse())![2]).toBeLessThan(wi);
  // and move the box with the keyboard to the left
  await box.focus();
  await page.keyboard.press('ArrowLeft');
  await expect.poll(async () => (await parse())![0]).toBeLessThan(x0);
  const [cx, cy, cw, ch] = (await parse())!;

  await dialog.getByRole('button', { name: 'Apply' }).click();
  await expect(toast(page, 'Job started')).toContainText('The analysis has started.');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('job-item')).toHaveCount(3);

  const jobs = await listJobs(page.request, await modelId(page.request, GRAIN_MODEL.name));
  const cropped = jobs.find((j) => j.crop)!;
  expect(cropped.id).not.toBe(grainJobId);
  expect(Math.abs(cropped.crop!.x - cx)).toBeLessThanOrEqual(1);
  expect(Math.abs(cropped.crop!.y - cy)).toBeLessThanOrEqual(1);
  expect(Math.abs(cropped.crop!.width - cw)).toBeLessThanOrEqual(1);
  expect(Math.abs(cropped.crop!.height - ch)).toBeLessThanOrEqual(1);
  // newest first: the cropped job leads the list, with its badge, and finishes
  const first = page.getByTestId('job-item').first();
  await expect(first).toHaveAttribute('data-job-id', cropped.id);
  await expect(first.getByText('cropped', { exact: true })).toBeVisible();
  await openFinishedJob(page, first, 60_000);
  const finished = await getJob(page.request, cropped.id);
  expect(finished.result?.measurements?.analysedWidthPx).toBe(cw);
});

test('staff edit a mask in the mask editor, then re-run with masks', async ({ page, context }) => {
  test.setTimeout(timeFor(150_000));
  await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, /\/admin$/);
  // the administrator's own analysis of the grain micrograph (made through the API, the UI path is journey 1)
  const imageId = await uploadViaApi(page.request, grains);
  const [job] = await runViaApi(page.request, [imageId], [await modelId(page.request, GRAIN_MODEL.name)]);
  await page.goto(`/models/${GRAIN_MODEL.name}`);
  const item = jobItem(page, job.id);
  await openFinishedJob(page, item, 90_000);
  await expect(item.getByRole('button', { name: 'Re-run with masks' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Re-run with masks' })).toBeDisabled();

  // the brush button opens the editor in a new tab
  const editorLink = item.getByRole('link', { name: 'Mask editor' });
  await expect(editorLink).toHaveAttribute('href', new RegExp(`/admin/mask-editor\\?mask=&image=${imageId}&job=${job.id}`));
  const [editor] = await Promise.all([context.waitForEvent('page'), editorLink.click()]);
  await expect(editor.getByRole('heading', { name: 'Mask editor' })).toBeVisible();
  await expect(editor.getByText(`${grains.name} · ${GRAIN_MODEL.displayName}`)).toBeVisible();
  const canvas = editor.getByTestId('mask-canvas');
  await expect(canvas).toBeVisible();
  const undo = editor.getByRole('button', { name: 'Undo' });
  await expect(undo).toBeDisabled();

  // paint two strokes with label 2, undo one, redo it
  await editor.getByRole('radio', { name: 'Label 2' }).click();
  await expect(editor.getByRole('radio', { name: 'Label 2' })).toHaveAttribute('aria-checked', 'true');
  const cb = (await canvas.boundingBox())!;
  const stroke = async (fromX: number, fromY: number, toX: number, toY: number) => {
    await editor.mouse.move(cb.x + cb.width * fromX, cb.y + cb.height * fromY);
    await editor.mouse.down();
    await editor.mouse.move(cb.x + cb.width * toX, cb.y + cb.height * toY, { steps: 12 });
    await editor.mouse.up();
  };
  await stroke(0.2, 0.3, 0.6, 0.3);
  await stroke(0.2, 0.5, 0.6, 0.5);
  await expect(undo).toBeEnabled();
  await undo.click();
  const redo = editor.getByRole('button', { name: 'Redo' });
  await expect(redo).toBeEnabled();
  await redo.click();
  await expect(redo).toBeDisabled();
  // the committed mask holds painted (non-transparent) pixels
  const painted = await canvas.evaluate((c: HTMLCanvasElement) => {
    const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
    return n;
  });
  expect(painted).toBeGreaterThan(500);

  await editor.getByRole('textbox', { name: 'Mask name' }).fill('upper grains');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(toast(editor, 'Mask saved')).toContainText('Re-run the job with masks from its results page.');
  await expect(editor).toHaveURL(/mask=[0-9a-f-]{36}/);
  const maskId = new URL(editor.url()).searchParams.get('mask')!;
  const mask = await page.request.get(`/api/masks/${maskId}/image`);
  expect(mask.ok()).toBeTruthy();
  expect(mask.headers()['content-type']).toContain('image/png');
  await editor.close();

  // back on the results page (told over the socket, no reload): the job now has a mask, re-run with masks
  await page.bringToFront();
  await item.getByRole('checkbox', { name: `Select ${grains.name}` }).check();
  await expect(page.getByRole('button', { name: 'Re-run with masks' })).toBeEnabled();
  await page.getByRole('button', { name: 'Re-run with masks' }).click();
  await expect(toast(page, 'Job started')).toContainText('The analysis has started.');
  const withMasks = page.getByTestId('job-item').first();
  await expect(withMasks).not.toHaveAttribute('data-job-id', job.id);
  await expect(withMasks.getByText('with masks', { exact: true })).toBeVisible();
  await openFinishedJob(page, withMasks, 60_000);
  const rerun = await getJob(page.request, (await withMasks.getAttribute('data-job-id'))!);
  expect(rerun.withMasks).toBe(true);
  expect(rerun.status).toMatch(/FINISHED|CACHED/);
});

test('rate a result and report an issue', async ({ page }) => {
  await userSignIn(page);
  await page.goto(`/models/${GRAIN_MODEL.name}`);
  const item = jobItem(page, grainJobId);
  await openFinishedJob(page, item);

  // rating: a star is required, the tooltip text follows the stars, the toast thanks
  await item.getByTestId('rate-button').click();
  const rating = page.getByRole('dialog', { name: 'Rate this result' });
  await expect(rating.getByTestId('rating-tooltip')).toHaveText('Not rated yet');
  await rating.getByRole('button', { name: 'Submit' }).click();
  await expect(rating.getByRole('alert')).toHaveText('Please choose a rating from 1 to 5 stars.');
  const star4 = rating.getByRole('radio', { name: 'Good' });
  await rating.locator(`label[for="${await star4.getAttribute('id')}"]`).click();
  await expect(star4).toBeChecked();
  await expect(rating.getByTestId('rating-tooltip')).toHaveText('Good');
  await expect(rating.getByRole('alert')).toHaveCount(0);
  await rating.getByLabel('Comment (optional)').fill('Boundaries found well.');
  await rating.getByRole('button', { name: 'Submit' }).click();
  await expect(toast(page, 'Thank you!')).toContainText('We appreciate your feedback.');
  await expect(rating).toBeHidden();
  // the star button shows the rating; the dialog opens again with it
  await expect(item.getByTestId('rate-button')).toBeVisible();
  await item.getByTestId('rate-button').hover();
  await expect(page.getByRole('tooltip', { name: 'Your rating: 4 of 5' })).toBeVisible();
  await item.getByTestId('rate-button').click();
  await expect(rating.getByRole('radio', { name: 'Good' })).toBeChecked();
  await expect(rating.getByLabel('Comment (optional)')).toHaveValue('Boundaries found well.');
  await rating.getByRole('button', { name: 'Cancel' }).click();
  await expect(rating).toBeHidden();

  // issue report: details required, then the success screen; closing resets the form
  await item.getByRole('button', { name: 'Report an issue' }).click();
  const issue = page.getByRole('dialog', { name: 'Report an issue' });
  await expect(issue).toContainText(`for ${grains.name}`);
  await issue.getByRole('button', { name: 'Send report' }).click();
  await expect(issue.getByText('Please describe the issue.')).toBeVisible();
  await issue.getByLabel(/What went wrong\?/).fill('Two grains at the top left were merged.');
  const sent = page.waitForResponse((r) => r.url().endsWith('/api/issue-reports') && r.request().method() === 'POST');
  await issue.getByRole('button', { name: 'Send report' }).click();
  expect((await sent).ok()).toBeTruthy();
  await expect(issue.getByTestId('issue-success')).toContainText('Thank you for your report!');
  await issue.getByRole('button', { name: 'Close' }).first().click();
  await expect(issue).toBeHidden();
  await item.getByRole('button', { name: 'Report an issue' }).click();
  await expect(issue.getByLabel(/What went wrong\?/)).toHaveValue('');
});

test('sandbox: three steps, a polled result', async ({ page }) => {
  test.setTimeout(timeFor(120_000));
  await userSignIn(page);
  await page.goto('/sandbox');
  await expect(page.getByRole('heading', { name: 'Sandbox', level: 1 })).toBeVisible();
  await expect(page.getByTestId('sandbox-info')).toContainText('not saved and cannot be exported');
  const next = page.getByRole('button', { name: 'Next' });
  await expect(next).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Back' })).toBeDisabled();

  // 1: one image (click on its row)
  await expect(page.getByTestId('sandbox-image-row')).toHaveCount(2);
  await page.getByTestId('sandbox-image-row').filter({ hasText: grains.name }).click();
  await expect(page.getByRole('radio', { name: grains.name })).toBeChecked();
  await next.click();
  // 2: models (the last input step: Run, disabled until a model is chosen)
  await expect(page.getByText('Choose the models to try')).toBeVisible();
  await expect(next).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Run' })).toBeDisabled();
  await page.getByRole('checkbox', { name: GRAIN_MODEL.displayName }).check();
  await page.getByRole('checkbox', { name: PORE_MODEL.displayName }).check();
  await page.getByRole('button', { name: 'Run' }).click();
  // 3: results, polled until both are done
  const results = page.getByTestId('sandbox-results');
  await expect(results.getByTestId('sandbox-job')).toHaveCount(2);
  for (const model of [GRAIN_MODEL, PORE_MODEL]) {
    const card = results.getByTestId('sandbox-job').filter({ hasText: model.displayName });
    await expect(card).toHaveAttribute('data-status', /^(FINISHED|CACHED)$/, { timeout: timeFor(60_000) });
    await expect(card.getByTestId('result-table')).toBeVisible();
  }
  const grainCard = results.getByTestId('sandbox-job').filter({ hasText: GRAIN_MODEL.displayName });
  const g = await tableValue(grainCard, 'ASTM grain size G (planimetric)');
  expect(Math.abs(g - grains.truth.astmGPlanimetric)).toBeLessThan(0.3);
  await expect(page.getByRole('button', { name: 'New run' })).toBeVisible();
  await page.getByRole('button', { name: 'New run' }).click();
  await expect(page.getByTestId('sandbox-image-row').first()).toBeVisible();

  // sandbox jobs stay out of the job lists
  expect(await listJobs(page.request)).toHaveLength(5);
});

test('history lists the jobs', async ({ page }) => {
  await userSignIn(page);
  await page.goto('/history');
  await expect(page.getByRole('heading', { name: 'Job history', level: 1 })).toBeVisible();
  const rows = page.getByTestId('history-row');
  // 4 from the dashboard + 1 cropped re-run; sandbox jobs are not listed
  await expect(rows).toHaveCount(5);
  await expect(rows.filter({ hasText: GRAIN_MODEL.displayName })).toHaveCount(3);
  await expect(rows.filter({ hasText: PORE_MODEL.displayName })).toHaveCount(2);
  await expect(rows.filter({ hasText: grains.name })).toHaveCount(3);
  await expect(rows.filter({ hasText: pores.name })).toHaveCount(2);
  for (const row of await rows.all()) await expect(row).toContainText('Finished');
  await rows.filter({ hasText: PORE_MODEL.displayName }).filter({ hasText: pores.name }).getByRole('link', { name: 'Results' }).click();
  await expect(page).toHaveURL(new RegExp(`/models/${PORE_MODEL.name}\\?job=`));
  await expect(page.getByTestId('job-item')).toHaveCount(2);
});

/** A full-page screenshot from the top, with the pointer out of the way (no chart tooltip, sticky header on top). */
async function shoot(page: Page, file: string): Promise<void> {
  await page.mouse.move(0, 0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await page.screenshot({ path: `${OUT}/${file}`, fullPage: true });
}

for (const size of WIDTHS) {
  test(`analysis pages at ${size.width}px`, async ({ page }) => {
    test.setTimeout(timeFor(120_000));
    await page.setViewportSize({ width: size.width, height: size.height });
    await userSignIn(page);
    await expect(page.getByTestId('recent-job')).toHaveCount(5);
    await expect(page.getByRole('checkbox', { name: GRAIN_MODEL.displayName })).toBeVisible();
    const thumbs = page.getByRole('group', { name: 'Recent images' }).locator('img');
    await expect(thumbs).toHaveCount(2);
    for (const img of await thumbs.all()) await expectImageLoaded(img);
    await shoot(page, `${size.name}-analysis-dashboard.png`);

    await page.goto(`/models/${GRAIN_MODEL.name}`);
    const item = jobItem(page, grainJobId);
    await openFinishedJob(page, item);
    // the source image and the three drawn images (an overlay that does not cover the whole image drops its under-image)
    await expect(item.getByTestId('zoom-image')).toHaveCount(4);
    for (const img of await item.getByTestId('zoom-image').all()) await expectImageLoaded(img);
    await expect(item.getByTestId('result-histogram').first().locator('.recharts-bar-rectangle').first()).toBeVisible();
    await shoot(page, `${size.name}-analysis-results.png`);

    await page.goto('/history');
    // a table on wide screens, a list on phones
    const rows = size.width < 768 ? page.getByTestId('history-item') : page.getByTestId('history-row');
    await expect(rows).toHaveCount(5);
    for (const row of await rows.all()) {
      await expect(row.getByText('Finished')).toBeVisible();
      await expect(row.getByRole('link', { name: 'Results' })).toBeVisible();
    }
    await shoot(page, `${size.name}-analysis-history.png`);

    await page.goto('/sandbox');
    await expect(page.getByTestId('sandbox-image-row')).toHaveCount(2);
    for (const img of await page.getByTestId('sandbox-images').locator('img').all()) await expectImageLoaded(img);
    await shoot(page, `${size.name}-analysis-sandbox.png`);
    await page.getByTestId('sandbox-image-row').filter({ hasText: pores.name }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('checkbox', { name: PORE_MODEL.displayName }).check();
    await page.getByRole('button', { name: 'Run' }).click();
    const card = page.getByTestId('sandbox-results').getByTestId('sandbox-job');
    await expect(card).toHaveAttribute('data-status', /^(FINISHED|CACHED)$/, { timeout: timeFor(60_000) });
    await expect(card.getByTestId('result-table')).toBeVisible();
    for (const img of await card.getByTestId('zoom-image').all()) await expectImageLoaded(img);
    await shoot(page, `${size.name}-analysis-sandbox-results.png`);
  });
}
