/**
 * Access keys through the browser (issue 27 item 5): the owner makes a read-only key with its own requests a minute
 * (a limit out of range is refused with a clear message), sees it listed with its scope, limit, request count and
 * "Never"; the key lists projects (GET 200) and may not make one (POST 403 ACCESS_KEY_READ_ONLY, nothing made); after a
 * reload the list shows the grown request count and a last use. Screenshots at 1280 and 375 px, in English and German.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { signIn } from './analysis-helpers';
import { PASSWORD, acceptCookies, createVerifiedUser, field } from './helpers';

test.describe.configure({ mode: 'serial' });

const OUT = fileURLToPath(new URL('../test-results/screenshots', import.meta.url));
const KEY_NAME = `Read-only script ${Date.now() % 100000}`;
let email = '';

async function signedInPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext();
  await acceptCookies(context, baseURL);
  const page = await context.newPage();
  await signIn(page, email, PASSWORD);
  return page;
}

function keyRow(page: Page) {
  return page.getByTestId('access-key-row').filter({ hasText: KEY_NAME });
}

test.beforeAll(async ({ request }) => {
  email = await createVerifiedUser(request, 'access-keys', { name: 'Ada', surname: 'Keys' });
});

test('a read-only key made in the browser reads (200), is refused a change (403 ACCESS_KEY_READ_ONLY) and its request count grows', async ({
  browser,
  baseURL,
}) => {
  const page = await signedInPage(browser, baseURL!);
  await page.goto('/access-keys');
  await expect(page.getByRole('heading', { name: 'Access keys', level: 1 })).toBeVisible();

  // requests a minute: 600 by default; out of range is refused on the form with a message naming the field
  const rate = field(page, 'Requests a minute');
  await expect(rate).toHaveValue('600');
  await field(page, 'Name').fill(KEY_NAME);
  await page.getByRole('radio', { name: 'Read-only' }).check();
  await rate.fill('601');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByText('Requests a minute must be a whole number from 1 to 600.')).toBeVisible();
  await rate.fill('0');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByText('Requests a minute must be a whole number from 1 to 600.')).toBeVisible();
  await expect(page.getByTestId('access-key-row')).toHaveCount(0);

  await rate.fill('120');
  await page.getByRole('button', { name: 'Create key' }).click();
  const code = (await page.getByTestId('access-key-code').textContent())?.trim() ?? '';
  expect(code).toMatch(/^lam_/);
  await page.getByRole('button', { name: 'I have copied the key' }).click();

  const row = keyRow(page);
  await expect(row).toHaveAttribute('data-scope', 'READ_ONLY');
  await expect(row.getByTestId('access-key-scope')).toHaveText('Read-only');
  await expect(row.getByTestId('access-key-rate')).toHaveText('120 requests a minute');
  await expect(row.getByTestId('access-key-requests')).toHaveText('0');
  await expect(row.getByTestId('access-key-last-used')).toHaveText('Never');

  // the key as a program uses it (the header wins over the browser's session cookie)
  const headers = { Authorization: `Bearer ${code}` };
  const read = await page.request.get('/api/projects', { headers });
  expect(read.status(), await read.text()).toBe(200);
  const write = await page.request.post('/api/projects', { headers, data: { name: 'Made with a read-only key' } });
  expect(write.status()).toBe(403);
  expect(((await write.json()) as { code: string }).code).toBe('ACCESS_KEY_READ_ONLY');
  // the refused POST made nothing (asked with the browser's session, which the key's count does not see)
  const projects = await page.request.get('/api/projects');
  expect((await projects.json()) as unknown[]).toHaveLength(0);

  await page.reload();
  await expect(row.getByTestId('access-key-requests')).toHaveText('2');
  await expect(row.getByTestId('access-key-requests')).toHaveAttribute('data-count', '2');
  await expect(row.getByTestId('access-key-last-used')).not.toHaveText('Never');
  await page.context().close();
});

for (const lng of ['en', 'de'] as const) {
  test(`the access keys page in ${lng} at 1280 and 375 px: scope, limit, count and last use on screen, no sideways scrolling`, async ({
    browser,
    baseURL,
  }) => {
    const page = await signedInPage(browser, baseURL!);
    await page.goto('/access-keys');
    if (lng === 'de') {
      await page.getByText('Deutsch', { exact: true }).click();
      await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    }
    const row = keyRow(page);
    await expect(row.getByTestId('access-key-scope')).toHaveText(lng === 'de' ? 'Nur lesen' : 'Read-only');
    await expect(row.getByTestId('access-key-rate')).toHaveText(lng === 'de' ? '120 Anfragen pro Minute' : '120 requests a minute');
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width > 500 ? 900 : 812 });
      await row.scrollIntoViewIfNeeded();
      for (const id of ['access-key-scope', 'access-key-rate', 'access-key-requests', 'access-key-last-used'])
        await expect(row.getByTestId(id)).toBeInViewport();
      // the switch and the delete button wholly on screen, nothing scrolls sideways (the page nor the table)
      await expect(row.getByRole('switch')).toBeInViewport({ ratio: 1 });
      await expect(row.getByRole('button', { name: new RegExp(KEY_NAME) })).toBeInViewport({ ratio: 1 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      const table = page.getByRole('table', { name: lng === 'de' ? 'Zugangsschlüssel' : 'Access keys' });
      const box = (await table.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: `${OUT}/access-keys-${lng}-${width}.png`, fullPage: true });
    }
    await page.context().close();
  });
}
