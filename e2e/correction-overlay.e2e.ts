/**
 * Issue 24 items 3, 4, 7 in Chromium: a user's results page shows the grain overlays with an opacity slider and
 * the E112 test-line image; the user corrects the segmentation (delete an object: the live recount drops) before
 * re-running; the current tab stays visible. Screenshots at 1280 and 375 px in English and German.
 */
import { expect, test } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { GRAIN_MODEL, grainMicrograph, jobItem, modelId, openFinishedJob, runViaApi, signIn, uploadViaApi } from './analysis-helpers';
import { PASSWORD, acceptCookies, createVerifiedUser, timeFor } from './helpers';

const OUT = fileURLToPath(new URL('../test-results/screenshots', import.meta.url));

test('overlays with an opacity slider, the correction tools with a live recount, in both languages', async ({ page, context, baseURL, request }) => {
  test.setTimeout(timeFor(840_000));
  await acceptCookies(context, baseURL!);
  const email = await createVerifiedUser(request, 'corrector', { name: 'Cora', surname: 'Corrector' });
  await signIn(page, email, PASSWORD);
  const image = await uploadViaApi(page.request, { ...(await grainMicrograph(41)), name: 'correct-me.png' });
  const [job] = await runViaApi(page.request, [image], [await modelId(page.request, GRAIN_MODEL.name)]);
  for (const lang of ['en', 'de'] as const) {
    expect((await page.request.patch('/api/users/me', { data: { language: lang } })).status()).toBe(200);
    for (const size of [
      { name: 'desktop', width: 1280, height: 900 },
      { name: 'phone', width: 375, height: 812 },
    ]) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.goto(`/models/${GRAIN_MODEL.name}`);
      const item = jobItem(page, job.id);
      await openFinishedJob(page, item, 600_000);
      // two overlays: the boundaries (with the opacity slider over the original) and the E112 test lines
      await expect(item.getByRole('img', { name: 'grain-boundaries.png' })).toBeVisible();
      await expect(item.getByRole('img', { name: 'e112-test-lines.png' })).toBeVisible();
      await expect(item.getByTestId('overlay-opacity').first()).toBeVisible();
      // the current tab is on screen
      const tab = page.getByRole('tab', { selected: true });
      if (size.width >= 1280) {
        await expect(tab).toBeVisible();
        const b = (await tab.boundingBox())!;
        expect(b.x + b.width).toBeLessThanOrEqual(size.width);
      }
      await item.getByTestId('result-image').first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${OUT}/${size.name}-results-overlays-${lang}.png`, animations: 'disabled' });
      // the correction tools: delete one object, the live recount drops by one
      await item.getByTestId('correct-button').click();
      const count = page.getByTestId('correction-count');
      await expect(count).toBeVisible({ timeout: timeFor(30_000) });
      const before = Number((await count.textContent())!.match(/^\d+/)![0]);
      await page
        .getByTestId('correction-tools')
        .getByText(lang === 'en' ? 'Delete' : 'Löschen')
        .click();
      const canvas = page.getByTestId('correction-canvas');
      const c = (await canvas.boundingBox())!;
      await page.mouse.click(c.x + c.width / 2, c.y + c.height / 2);
      await expect(count).not.toHaveText(new RegExp(`^${before} `));
      await page.screenshot({ path: `${OUT}/${size.name}-correction-${lang}.png`, animations: 'disabled' });
      await page.keyboard.press('Escape');
    }
  }
});
