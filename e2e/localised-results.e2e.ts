/**
 * Results in the reader's language and numbers as a metallographer reads them (issue 14 items 3–5), in the
 * browser: a grain-size job computed while the user read English is read after switching to German — the tab and
 * the table in German, the key result (G with a decimal comma) in the collapsed header, counts as integers; the
 * overlay switches off and on, the image zooms with the buttons, the keyboard and the wheel. At 1280 and 375 px.
 */
import { expect, test, type Page } from '@playwright/test';
import { acceptCookies, timeFor } from './helpers';
import { createUserOfCompany, userSession } from './admin-helpers';
import { grainMicrograph, jobItem, modelId, runViaApi, uploadViaApi } from './analysis-helpers';

test.describe.configure({ mode: 'serial' });

const RUN = Date.now().toString(36);
let userEmail = '';

test.beforeAll(async ({ request }) => {
  userEmail = await createUserOfCompany(request, 'localised', `Localised Lab ${RUN}`);
});

test.beforeEach(async ({ context, baseURL }) => {
  await acceptCookies(context, baseURL!);
});

/** Waits until the job has finished (through the API, as the list only polls while a job runs). */
async function waitFinished(page: Page, id: string): Promise<void> {
  await expect
    .poll(async () => ((await (await page.request.get(`/api/jobs/${id}`)).json()) as { status: string }).status, { timeout: timeFor(60_000) })
    .toMatch(/^(FINISHED|CACHED)$/);
}

async function switchToGerman(page: Page): Promise<void> {
  await page.getByText('Deutsch', { exact: true }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
}

for (const width of [1280, 375]) {
  test(`a German reader reads an English job in German, with the key result and a zoomable overlay (${width} px)`, async ({ browser, baseURL }) => {
    const { context, page } = await userSession(browser, baseURL!, userEmail);
    await page.setViewportSize({ width, height: width > 500 ? 900 : 800 });
    // computed while the user reads English: the stored result is English
    const grain = await modelId(page.request, 'grain-size');
    const imageId = await uploadViaApi(page.request, await grainMicrograph(40 + width));
    const [job] = await runViaApi(page.request, [imageId], [grain]);
    await waitFinished(page, job.id);
    const english = (await (await page.request.get(`/api/jobs/${job.id}`)).json()) as {
      result: { results: { type: string; rows?: { label: string }[] }[] };
    };
    expect(english.result.results.find((i) => i.type === 'data-table')?.rows?.[0].label).toBe('ASTM grain size G (planimetric)');

    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto('/models/grain-size');
    await expect(jobItem(page, job.id)).toBeVisible({ timeout: timeFor(30_000) });
    await switchToGerman(page);

    // the tab (or the drawer on small screens) and the page title name the model in German
    if (width > 500) await expect(page.getByRole('tab', { name: 'Korngröße (ASTM E112)' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Korngröße (ASTM E112)' }).first()).toBeVisible();

    // the collapsed header shows G to 2 decimals with the German decimal comma
    const item = jobItem(page, job.id);
    const control = item.locator('.mantine-Accordion-control');
    await expect(control).toHaveAttribute('aria-expanded', 'false');
    await expect(item.getByTestId('key-result')).toHaveText(/^G \d{1,2},\d\d$/);
    // the file name is shown whole, also beside the action icons of a phone (it was cut to "grains-m…" at 375 px)
    const filename = item.getByTestId('job-filename');
    await expect(filename).toHaveText(/^grains-\w+\.png$/);
    expect(await filename.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1)).toBe(true);

    await control.click();
    const table = item.getByTestId('result-table');
    await expect(table).toBeVisible();
    await expect(table.getByRole('cell', { name: 'ASTM-Korngröße G (Flächenverfahren)' })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'Messgröße' })).toBeVisible();
    const g = table.getByRole('row').filter({ hasText: 'ASTM-Korngröße G (Flächenverfahren)' }).getByRole('cell').nth(1);
    await expect(g).toHaveText(/^\d{1,2},\d\d$/);
    // a count is an integer (or a half of Jeffries), never "127,00"
    const count = table.getByRole('row').filter({ hasText: 'Gezählte Körner (Jeffries)' }).getByRole('cell').nth(1);
    await expect(count).toHaveText(/^[\d.]+(,5)?$/);
    // the pixel size to 4 significant digits (about 0.5 µm/px from the scale bar), not rounded to 2 decimals
    await expect(table.getByRole('row').filter({ hasText: 'Pixelgröße' }).getByRole('cell').nth(1)).toHaveText(/^0,\d{1,4} µm\/px$/);
    await expect(item.getByText('Verteilung der Kornfläche')).toBeVisible();

    // the overlay lies over the analysed image; its opacity slider fades it out (the source image alone) and in again
    const figure = item.getByTestId('result-image').first();
    const img = figure.getByTestId('zoom-image');
    await expect(img).toHaveAttribute('alt', 'grain-boundaries.png');
    // each overlay is captioned by what it shows (the legend message names "das Messlinienbild"), not both "Ergebnisbild"
    await expect(figure.locator('figcaption')).toHaveText('Korngrenzen');
    await expect(item.getByTestId('result-image').nth(1).locator('figcaption')).toHaveText('E112-Messlinien');
    const opacity = figure.getByRole('slider', { name: 'Deckkraft der Überlagerung' });
    await expect(opacity).toHaveAttribute('aria-valuenow', '100');
    await opacity.focus();
    await page.keyboard.press('Home');
    await expect(opacity).toHaveAttribute('aria-valuenow', '0');
    await expect(img).toHaveCSS('opacity', '0');
    await page.keyboard.press('End');
    await expect(img).toHaveCSS('opacity', '1');

    // zoom with the button, the keyboard and the wheel; 0 fits again
    const frame = figure.getByTestId('zoom-frame');
    await frame.scrollIntoViewIfNeeded();
    await figure.getByTestId('zoom-in').click();
    await expect(frame).toHaveAttribute('data-scale', '1.25');
    await frame.focus();
    await page.keyboard.press('+');
    await expect(frame).toHaveAttribute('data-scale', '1.56');
    const box = (await frame.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -100);
    await expect(frame).toHaveAttribute('data-scale', '1.95');
    const before = await img.evaluate((el) => el.style.transform);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 60, box.y + box.height / 2 - 40, { steps: 4 });
    await page.mouse.up();
    expect(await img.evaluate((el) => el.style.transform)).not.toBe(before);
    await page.screenshot({ path: `test-results/screenshots/localised-results-${width}.png`, fullPage: false });
    await frame.focus();
    await page.keyboard.press('0');
    await expect(frame).toHaveAttribute('data-scale', '1.00');

    expect(errors).toEqual([]);
    // no horizontal scroll on small screens
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    await page.screenshot({ path: `test-results/screenshots/localised-results-${width}-full.png`, fullPage: true });
    // back to English for the next run
    await page.request.patch('/api/users/me', { data: { language: 'en' } });
    await context.close();
  });
}
