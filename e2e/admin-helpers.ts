/**
 * Helpers of the compute back-office tests (admin-compute.e2e.ts): the administrator's login, users with their
 * own company, synthetic micrographs made at test time, an on-premise launcher process, Mantine widgets.
 */
import { expect, type APIRequestContext, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { acceptCookies, createVerifiedUser, login, timeFor } from './helpers';
import { stopChild } from '../apps/server/src/platform/compute/supervisor';

/** The administrator the e2e server is started with (playwright.config.ts webServer.env). */
export const ADMIN_EMAIL = 'admin@lamella.test';
export const ADMIN_PASSWORD = 'Admin-Password-1';

/** The port of the launcher the server starts for its `local` node (LAUNCHER_PORT = E2E_PORT + 9). */
export const DEFAULT_LAUNCHER_PORT = Number(process.env.E2E_PORT ?? 8190) + 9;

const REPO = fileURLToPath(new URL('..', import.meta.url));

export async function loginAdmin(page: Page): Promise<void> {
  await login(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await expect(page).toHaveURL(/\/admin$/);
}

/** A browser context with the cookie notice accepted, logged in as `email`. */
export async function userSession(browser: Browser, baseURL: string, email: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, locale: 'en-US' });
  await acceptCookies(context, baseURL);
  const page = await context.newPage();
  await login(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  return { context, page };
}

/** Signs up and verifies a user through the API with the given company (the jobs list filters on it). */
export function createUserOfCompany(
  request: APIRequestContext,
  prefix: string,
  company: string,
  name = 'Grace',
  surname = 'Hopper',
): Promise<string> {
  return createVerifiedUser(request, prefix, { company, name, surname });
}

/** A synthetic grain micrograph (packages/analysis/src/synth) with a SEM scale bar; `seed` makes it unique. */
export async function grainPng(seed: number): Promise<Buffer> {
  const synth = await import('../packages/analysis/src/synth/index');
  const img = await synth.grainImage({
    width: 480,
    height: 360,
    grainPx: 40,
    seed,
    pixelSizeUm: 0.5,
    scaleBar: { value: 50, unit: 'µm', lengthPx: 100, style: 'sem' },
  });
  return img.png;
}

/** Uploads PNGs on the dashboard (they are selected for the run) and waits until every upload is done. */
export async function uploadOnDashboard(page: Page, files: Array<{ name: string; buffer: Buffer }>): Promise<void> {
  await page.goto('/dashboard');
  await page
    .getByTestId('upload-dropzone')
    .locator('input[type="file"]')
    .setInputFiles(files.map((f) => ({ name: f.name, mimeType: 'image/png', buffer: f.buffer })));
  for (const f of files)
    await expect(page.getByTestId('upload-row').filter({ hasText: f.name })).toHaveAttribute('data-state', 'done', { timeout: timeFor(30_000) });
}

/** Uploads one image on the dashboard and runs one model on it; returns when the run was accepted. */
export async function runJobOnDashboard(page: Page, file: { name: string; buffer: Buffer }, modelName: string): Promise<void> {
  await uploadOnDashboard(page, [file]);
  await page.getByRole('checkbox', { name: modelName }).check();
  await page.getByRole('button', { name: 'Run 1 analysis' }).click();
  await expect(page.getByTestId('recent-job').filter({ hasText: file.name })).toBeVisible();
}

/** The job of an uploaded image on the model's results page, once it has finished; returns its id. */
export async function finishedJob(page: Page, modelPath: string, filename: string): Promise<{ item: Locator; id: string }> {
  await page.goto(`/models/${modelPath}`);
  const item = page.getByTestId('job-item').filter({ hasText: filename });
  await expect(item).toHaveAttribute('data-status', 'FINISHED', { timeout: timeFor(60_000) });
  return { item, id: (await item.getAttribute('data-job-id'))! };
}

/** Picks an option of a Mantine Select (or Autocomplete) by its visible label. */
export async function choose(page: Page, input: Locator, option: string | RegExp): Promise<void> {
  await input.click();
  await page.getByRole('option', { name: option }).first().click();
}

/** Replaces the text of a CodeMirror editor (inserted in one go, so auto-closed brackets do not double up). */
export async function setCodeMirror(page: Page, editor: Locator, text: string): Promise<void> {
  const content = editor.locator('.cm-content');
  await content.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

/** A notification toast with this text (Mantine keeps several; the newest is enough). */
export const toast = (page: Page, text: string | RegExp) => page.locator('.mantine-Notification-root').filter({ hasText: text }).first();

/**
 * A launcher process as the operator of an on-premise server runs it (apps/launcher on `port`, this checkout);
 * resolves once it listens. The caller stops it with stopProcess.
 */
export async function startLauncherProcess(port: number, version: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'apps/launcher/src/main.ts')], {
    cwd: REPO,
    // at the server's priority, as playwright.config.ts starts the server's launchers (LAUNCHER_NICE)
    env: {
      ...process.env,
      LAUNCHER_PORT: String(port),
      LAUNCHER_VERSION: version,
      LAUNCHER_THREADS: '1',
      LAUNCHER_NICE: process.env.LAUNCHER_NICE ?? '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`launcher on ${port} did not start: ${log}`)), 30_000);
    const onData = (d: Buffer) => {
      log += d.toString();
      if (/listening on/.test(log)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`launcher on ${port} exited (${code}): ${log}`));
    });
  });
  return child;
}

export async function stopProcess(child: ChildProcess | null | undefined): Promise<void> {
  if (child) await stopChild(child);
}

/** Clicks a launcher's "Test connection" until the launcher answers (a process needs a moment to start). */
export async function testLauncherUntilWorking(page: Page, card: Locator): Promise<void> {
  await expect(async () => {
    const answer = page.waitForResponse((r) => /\/api\/admin\/executors\/[^/]+\/test$/.test(r.url()) && r.request().method() === 'POST');
    await card.getByRole('button', { name: 'Test connection' }).click();
    expect((await (await answer).json()).isConnected).toBe(true);
  }).toPass({ timeout: timeFor(45_000) });
  await expect(toast(page, 'Communication with launcher is working.')).toBeVisible();
}

/** Closes every notification toast so the next one can be waited for unambiguously. */
export async function closeToasts(page: Page): Promise<void> {
  const close = page.locator('.mantine-Notification-root .mantine-Notification-closeButton');
  while ((await close.count()) > 0) {
    await close.first().click();
  }
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0);
}

/** The back-office users table row of the user with this e-mail. */
export const userRow = (page: Page, email: string): Locator => page.getByTestId(`user-row-${email}`);

/** Opens /admin/users and searches the user by e-mail: exactly their row is left. */
export async function findUser(page: Page, email: string): Promise<void> {
  await page.goto('/admin/users');
  await page.getByTestId('users-search').fill(email);
  await expect(page).toHaveURL(/filter=/);
  await expect(userRow(page, email)).toBeVisible();
  await expect(page.getByTestId('users-table').locator('tbody tr')).toHaveCount(1);
}
