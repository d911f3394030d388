/**
 * The scale bar a result was calibrated from, shown with every model's result (issue 23 item 5), in the browser: a
 * grain micrograph with a bare black bar and its label drawn on it (no plate, no strip) is analysed for grain size;
 * the result names the scale bar as the calibration's source and shows, after the grain boundaries, a figure of the
 * bar found outlined on the image around it, captioned in English and, after switching, in German. At 1280 and 375 px,
 * with screenshots (test-results/screenshots/scale-bar-found-*.png).
 */
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { grainImage } from '../packages/analysis/src/synth/index';
import { drawScaleBar } from '../packages/analysis/src/synth/scalebars';
import { acceptCookies, timeFor } from './helpers';
import { createUserOfCompany, userSession } from './admin-helpers';
import { expectImageLoaded, jobItem, modelId, openFinishedJob, runViaApi, uploadViaApi, type Micrograph } from './analysis-helpers';

test.describe.configure({ mode: 'serial' });

const RUN = Date.now().toString(36);

/** Voronoi grains (0.5 µm/px) with a bare black bar of 100 µm = 200 px and its label above it, bottom right. */
async function bareBarMicrograph(seed: number): Promise<Micrograph<null>> {
  const s = await grainImage({ width: 800, height: 600, grainPx: 40, pixelSizeUm: 0.5, noise: 4, seed, scaleBar: null });
  const { data, info } = await sharp(s.png).greyscale().raw().toBuffer({ resolveWithObject: true });
  const grey = new Uint8Array(info.width * info.height);
  for (let i = 0; i < grey.length; i++) grey[i] = data[i * info.channels];
  const d = await drawScaleBar(grey, info.width, info.height, {
    style: 'bare-dark',
    value: 100,
    unit: 'µm',
    lengthPx: 200,
    corner: 'br',
    label: 'above',
  });
  const png = await sharp(Buffer.from(d.data), { raw: { width: d.width, height: d.height, channels: 1 } })
    .png()
    .toBuffer();
  return { name: `bare-bar-${RUN}-${seed}.png`, mimeType: 'image/png', buffer: png, width: d.width, height: d.height, truth: null };
}

test.beforeEach(async ({ context, baseURL }) => {
  await acceptCookies(context, baseURL!);
});

for (const width of [1280, 375]) {
  test(`every model's result shows the scale bar it was calibrated from, outlined, in English and German (${width} px)`, async ({
    browser,
    baseURL,
    request,
  }) => {
    test.setTimeout(timeFor(480_000));
    const email = await createUserOfCompany(request, `scalebar${width}`, `Scale Bar Lab ${RUN} ${width}`);
    const { context, page } = await userSession(browser, baseURL!, email);
    await page.setViewportSize({ width, height: width > 500 ? 900 : 812 });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));

    const imageId = await uploadViaApi(page.request, await bareBarMicrograph(width));
    const [job] = await runViaApi(page.request, [imageId], [await modelId(page.request, 'grain-size')]);
    await page.goto('/models/grain-size');
    const item = jobItem(page, job.id);
    // (grain size takes minutes on a loaded 2-core machine)
    await openFinishedJob(page, item, 360_000);

    // calibrated from the bar: the source named, 0.5 µm/px
    await expect(item.getByTestId('calibration-info')).toHaveAttribute('data-source', 'scale-bar');
    await expect(item.getByTestId('calibration-value')).toContainText('0.5');
    // the boundaries and the test lines first, then the bar found
    const figures = item.getByTestId('result-image');
    await expect(figures.getByTestId('zoom-image')).toHaveCount(3);
    expect(await figures.getByTestId('zoom-image').evaluateAll((els) => els.map((e) => e.getAttribute('alt')))).toEqual([
      'grain-boundaries.png',
      'e112-test-lines.png',
      'scale-bar.png',
    ]);
    const bar = item.locator('[data-testid="result-image"][data-kind="scale-bar"]');
    await expect(bar.locator('figcaption')).toHaveText('Scale bar found (bar red, label blue)');
    // a picture of its own (the part of the image around the bar): no overlay switch or opacity slider
    await expect(bar.getByTestId('overlay-opacity')).toHaveCount(0);
    await expect(bar.getByTestId('overlay-switch')).toHaveCount(0);
    const img = bar.getByRole('img', { name: 'scale-bar.png' });
    await expectImageLoaded(img);
    // the outline is drawn in red: the picture has pure-red pixels
    const red = await img.evaluate((el: HTMLImageElement) => {
      const c = document.createElement('canvas');
      c.width = el.naturalWidth;
      c.height = el.naturalHeight;
      const g = c.getContext('2d')!;
      g.drawImage(el, 0, 0);
      const px = g.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < px.length; i += 4) if (px[i] > 230 && px[i + 1] < 70 && px[i + 2] < 70) n++;
      return n;
    });
    expect(red).toBeGreaterThan(50);
    await bar.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screenshots/scale-bar-found-en-${width}.png` });

    // in German
    await page.getByText('Deutsch', { exact: true }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(bar.locator('figcaption')).toHaveText('Maßstab gefunden: Balken rot, Text blau');
    await bar.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screenshots/scale-bar-found-de-${width}.png` });

    expect(errors).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    await page.request.patch('/api/users/me', { data: { language: 'en' } });
    await context.close();
  });
}
