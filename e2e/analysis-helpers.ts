/**
 * Helpers of the analysis journeys (analysis.e2e.ts): synthetic micrographs made at test time by the project's
 * generator (packages/analysis/src/synth, exact ground truth, nothing committed), uploads and jobs through the
 * API of a signed-in page, and locators of the results page.
 */
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { grainImage, poreImage, type GrainTruth, type PoreTruth } from '../packages/analysis/src/synth/index';
import { field, timeFor } from './helpers';

/** The first administrator of the e2e server (playwright.config.ts webServer env). */
export const ADMIN_EMAIL = 'admin@lamella.test';
export const ADMIN_PASSWORD = 'Admin-Password-1';

export const GRAIN_MODEL = { name: 'grain-size', displayName: 'Grain size (ASTM E112)' };
export const PORE_MODEL = { name: 'porosity', displayName: 'Porosity and phase fraction' };

export interface Micrograph<T> {
  name: string;
  mimeType: 'image/png';
  buffer: Buffer;
  width: number;
  height: number;
  truth: T;
}

const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** Voronoi grains with an SEM scale bar strip (50 µm = 100 px), so the model calibrates itself. */
export async function grainMicrograph(seed = 7): Promise<Micrograph<GrainTruth>> {
  const s = await grainImage({
    width: 640,
    height: 480,
    grainPx: 40,
    pixelSizeUm: 0.5,
    noise: 4,
    seed,
    scaleBar: { value: 50, unit: 'µm', lengthPx: 100, style: 'sem' },
  });
  return { name: `grains-${stamp()}.png`, mimeType: 'image/png', buffer: s.png, width: s.width, height: s.height, truth: s.truth };
}

/** Dark pores on a bright matrix with an overlay scale bar (100 µm = 100 px). */
export async function poreMicrograph(seed = 24): Promise<Micrograph<PoreTruth>> {
  const s = await poreImage({
    width: 640,
    height: 480,
    count: 60,
    noise: 5,
    pixelSizeUm: 1,
    seed,
    scaleBar: { value: 100, unit: 'µm', lengthPx: 100, style: 'overlay' },
  });
  return { name: `pores-${stamp()}.png`, mimeType: 'image/png', buffer: s.png, width: s.width, height: s.height, truth: s.truth };
}

export interface ApiJob {
  id: string;
  status: string;
  imageId: string;
  modelId: string;
  model: { name: string; displayName: string };
  crop: { x: number; y: number; width: number; height: number } | null;
  withMasks: boolean;
  masks: { id: string }[];
  result: { measurements?: Record<string, number> } | null;
  image: { orginalFilename: string; width: number; height: number };
}

/** Uploads one image with the session of `request` (page.request shares the browser's cookies). */
export async function uploadViaApi(request: APIRequestContext, img: Micrograph<unknown>): Promise<string> {
  const res = await request.post('/api/images', { multipart: { files: { name: img.name, mimeType: img.mimeType, buffer: img.buffer } } });
  expect(res.ok(), await res.text()).toBeTruthy();
  const [stored] = (await res.json()) as { id: string }[];
  return stored.id;
}

export async function modelId(request: APIRequestContext, name: string): Promise<string> {
  const res = await request.get('/api/settings/available-models');
  expect(res.ok(), await res.text()).toBeTruthy();
  const model = ((await res.json()) as { id: string; name: string }[]).find((m) => m.name === name);
  expect(model, `model ${name} is available`).toBeTruthy();
  return model!.id;
}

export async function runViaApi(request: APIRequestContext, imageIds: string[], modelIds: string[]): Promise<ApiJob[]> {
  const res = await request.post('/api/jobs', { data: { imageIds, modelIds } });
  expect(res.ok(), await res.text()).toBeTruthy();
  return (await res.json()) as ApiJob[];
}

export async function getJob(request: APIRequestContext, id: string): Promise<ApiJob> {
  const res = await request.get(`/api/jobs/${id}`);
  expect(res.ok(), await res.text()).toBeTruthy();
  return (await res.json()) as ApiJob;
}

/** The user's jobs (newest first), as the results page and the history see them. */
export async function listJobs(request: APIRequestContext, modelIdFilter?: string): Promise<ApiJob[]> {
  const res = await request.get('/api/jobs', {
    params: { archived: false, page: 1, pageSize: 100, sortBy: 'createdAt', sortOrder: 'desc', ...(modelIdFilter ? { modelId: modelIdFilter } : {}) },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  return (await res.json()) as ApiJob[];
}

/** Signs in through the login form and waits for the landing page (users: the dashboard, staff: /admin). */
export async function signIn(page: Page, email: string, password: string, landing = /\/dashboard$/): Promise<void> {
  await page.goto('/auth/login');
  await field(page, 'E-mail').fill(email);
  await field(page, 'Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(landing);
}

/** One job of the results accordion, by id. */
export function jobItem(page: Page, id: string): Locator {
  return page.locator(`[data-testid="job-item"][data-job-id="${id}"]`);
}

/** Opens a job's panel (if closed) and waits until the job has finished (the list is polled while it runs). */
export async function openFinishedJob(page: Page, item: Locator, timeout = timeFor(60_000)): Promise<void> {
  await expect(item).toBeVisible();
  const control = item.locator('.mantine-Accordion-control');
  if ((await control.getAttribute('aria-expanded')) !== 'true') await control.click();
  await expect(control).toHaveAttribute('aria-expanded', 'true');
  await expect(item).toHaveAttribute('data-status', /^(FINISHED|CACHED)$/, { timeout });
  await expect(item.getByTestId('result-table')).toBeVisible();
}

/** The number shown in the value cell of a result table row (English number format, unit dropped). */
export async function tableValue(item: Locator, label: string): Promise<number> {
  const row = item
    .getByTestId('result-table')
    .getByRole('row')
    .filter({ has: item.page().getByRole('cell', { name: label, exact: true }) });
  await expect(row).toHaveCount(1);
  const text = (await row.getByRole('cell').nth(1).textContent()) ?? '';
  const n = Number(
    text
      .replace(/,/g, '')
      .replace(/[^\d.\-−]+$/g, '')
      .replace('−', '-')
      .trim()
      .split(' ')[0],
  );
  expect(Number.isFinite(n), `"${text}" of ${label} is a number`).toBeTruthy();
  return n;
}

/** Waits until an <img> has loaded with a real picture (not a broken image). */
export async function expectImageLoaded(img: Locator): Promise<void> {
  await img.scrollIntoViewIfNeeded();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0), { timeout: 15_000 }).toBe(true);
}

/** A Mantine toast (notification) with this title. */
export function toast(page: Page, title: string | RegExp): Locator {
  return page.locator('.mantine-Notification-root').filter({ hasText: title });
}
