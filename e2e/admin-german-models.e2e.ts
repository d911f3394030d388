/**
 * Issue 26 item 8: German back-office screens show German model names. A staff member reading in German sees a
 * built-in model's German name in the admin Jobs table and the job detail (they showed the
 * English display name).
 */
import { expect, test } from '@playwright/test';
import { acceptCookies, createVerifiedUser, timeFor } from './helpers';
import { loginAdmin, userSession } from './admin-helpers';
import { GRAIN_MODEL, grainMicrograph, modelId, runViaApi, uploadViaApi } from './analysis-helpers';

const GERMAN_GRAIN = 'Korngröße (ASTM E112)';

test.beforeEach(async ({ context, baseURL }) => acceptCookies(context, baseURL!));

test('admin jobs in German: the Model column and the job detail name the model in German', async ({ page, browser, baseURL }) => {
  test.setTimeout(timeFor(120_000));
  const api = await browser.newContext({ baseURL });
  const email = await createVerifiedUser(api.request, 'de-models', { name: 'Greta', surname: 'Modelle' });
  await api.close();
  const user = await userSession(browser, baseURL!, email);
  const grainId = await modelId(user.page.request, GRAIN_MODEL.name);
  const [job] = await runViaApi(user.page.request, [await uploadViaApi(user.page.request, await grainMicrograph(811))], [grainId]);
  const me = (await (await user.page.request.get('/api/users/me')).json()) as { id: string };
  await user.context.close();

  await loginAdmin(page);
  // the user's own language setting wins over a cookie once signed in: set it on the profile
  expect((await page.request.patch('/api/users/me', { data: { language: 'de' } })).ok()).toBeTruthy();
  await page.context().addCookies([{ name: 'lng', value: 'de', url: baseURL! }]);
  try {
    await page.goto(`/admin/jobs?userId=${me.id}`);
    const row = page.getByTestId('admin-jobs-table').locator('tbody tr').first();
    await expect(row).toContainText(GERMAN_GRAIN);
    await expect(row).not.toContainText(GRAIN_MODEL.displayName);

    await page.goto(`/admin/jobs/${job.id}`);
    const detail = page.getByTestId('job-detail-table');
    await expect(detail).toContainText(GERMAN_GRAIN);
    await expect(detail).not.toContainText(GRAIN_MODEL.displayName);
  } finally {
    await page.request.patch('/api/users/me', { data: { language: 'en' } });
  }
});
