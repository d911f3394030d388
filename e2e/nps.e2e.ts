/**
 * The NPS question (issue 26 item 3) in Chromium: a customer is asked on the dashboard only after NPS_AFTER_JOBS
 * successful jobs; answering stores the score (the admin's NPS card fills from it) and the question stays away for
 * the period, also after a reload.
 */
import { expect, test } from '@playwright/test';
import { NPS_AFTER_JOBS } from '../packages/contracts/src/nps';
import { PORE_MODEL, getJob, modelId, poreMicrograph, runViaApi, signIn, uploadViaApi } from './analysis-helpers';
import { PASSWORD, acceptCookies, createVerifiedUser, timeFor } from './helpers';

let email = '';

test.beforeAll(async ({ request }) => {
  email = await createVerifiedUser(request, 'nps', { name: 'Nora', surname: 'Promoter' });
});

test.beforeEach(async ({ context, baseURL }) => {
  await acceptCookies(context, baseURL!);
});

test('after enough successful jobs the dashboard asks once; an answer is stored and the question goes away', async ({ page }) => {
  await signIn(page, email, PASSWORD);
  const prompt = page.getByTestId('nps-prompt');
  // a new customer is not asked
  await expect(page.getByRole('heading').first()).toBeVisible();
  await expect(prompt).toHaveCount(0);

  const pores = await modelId(page.request, PORE_MODEL.name);
  const ids: string[] = [];
  for (let i = 0; i < NPS_AFTER_JOBS; i++) {
    const imageId = await uploadViaApi(page.request, { ...(await poreMicrograph(60 + i)), name: `nps-field-${i + 1}.png` });
    const [job] = await runViaApi(page.request, [imageId], [pores]);
    ids.push(job.id);
  }
  await expect
    .poll(async () => (await Promise.all(ids.map((id) => getJob(page.request, id)))).map((j) => j.status).join(','), { timeout: timeFor(120_000) })
    .toBe(Array(NPS_AFTER_JOBS).fill('FINISHED').join(','));

  await page.reload();
  await expect(prompt).toBeVisible();
  await expect(prompt.getByRole('button', { name: 'Send' })).toBeDisabled();
  await prompt.getByRole('radio', { name: 'Score 9 of 10' }).click();
  await prompt.getByLabel('What is the main reason for your score? (optional)').fill('Grain sizes I can sign.');
  await prompt.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('Thank you for your answer!')).toBeVisible();
  await expect(prompt).toHaveCount(0);

  // stored: the question stays away for the period, and a second answer is refused
  await page.reload();
  await expect(page.getByRole('heading').first()).toBeVisible();
  await expect(prompt).toHaveCount(0);
  const again = await page.request.post('/api/nps', { data: { score: 3 } });
  expect(again.status()).toBe(409);
});
