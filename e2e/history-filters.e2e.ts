/**
 * The History page's filters (issue 24 item 7) in Chromium: by model, status, creation day and image name, each
 * answered by GET /jobs with the filter; each row links to its job (the model's results page with that job opened).
 */
import { expect, test } from '@playwright/test';
import { GRAIN_MODEL, PORE_MODEL, grainMicrograph, jobItem, modelId, runViaApi, signIn, uploadViaApi } from './analysis-helpers';
import { PASSWORD, acceptCookies, createVerifiedUser } from './helpers';

let email = '';

test.beforeAll(async ({ request }) => {
  email = await createVerifiedUser(request, 'historian', { name: 'Hilde', surname: 'History' });
});

test.beforeEach(async ({ context, baseURL }) => {
  await acceptCookies(context, baseURL!);
});

test('history filters by model, status, date and name, and each row opens its job', async ({ page }) => {
  await signIn(page, email, PASSWORD);
  const steel = { ...(await grainMicrograph(41)), name: 'steel-ferrite-01.png' };
  const alloy = { ...(await grainMicrograph(42)), name: 'alloy-sample-02.png' };
  const steelId = await uploadViaApi(page.request, steel);
  const alloyId = await uploadViaApi(page.request, alloy);
  const grain = await modelId(page.request, GRAIN_MODEL.name);
  const pores = await modelId(page.request, PORE_MODEL.name);
  const [steelGrain] = await runViaApi(page.request, [steelId], [grain]);
  await runViaApi(page.request, [alloyId], [grain]);
  await runViaApi(page.request, [alloyId], [pores]);

  await page.goto('/history');
  const rows = page.getByTestId('history-row');
  await expect(rows).toHaveCount(3);

  // name: a part of the file name, any case
  await page.getByTestId('history-filter-name').fill('STEEL');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('steel-ferrite-01.png');
  await page.getByTestId('history-filter-clear').click();
  await expect(rows).toHaveCount(3);

  // model
  await page.getByTestId('history-filter-model').click();
  await page.getByRole('option', { name: 'Porosity and phase fraction' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('alloy-sample-02.png');
  await page.getByTestId('history-filter-clear').click();

  // dates: all three today; none tomorrow on; an end before the start is refused in the form
  const today = new Date().toISOString().slice(0, 10);
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await page.getByTestId('history-filter-from').fill(today);
  await expect(rows).toHaveCount(3);
  await page.getByTestId('history-filter-from').fill(tomorrow);
  await expect(page.getByText('No jobs match these filters.')).toBeVisible();
  await page.getByTestId('history-filter-to').fill(today);
  await expect(page.getByText('The end date must not be before the start date.')).toBeVisible();
  await page.getByTestId('history-filter-clear').click();
  await expect(rows).toHaveCount(3);

  // status: none of the three has failed
  await page.getByTestId('history-filter-status').click();
  await page.getByRole('option', { name: 'Failed' }).click();
  await expect(page.getByText('No jobs match these filters.')).toBeVisible();
  await page.getByTestId('history-filter-clear').click();

  // a row links to its job: the model's results page with that job opened
  await rows.filter({ hasText: 'steel-ferrite-01.png' }).getByTestId('history-job-link').click();
  await expect(page).toHaveURL(new RegExp(`/models/${GRAIN_MODEL.name}\\?job=${steelGrain.id}$`));
  await expect(jobItem(page, steelGrain.id)).toHaveAttribute('data-active', 'true');
});
