/**
 * The compute back-office (issue 5) through the browser, against the real server and real launcher processes:
 * servers and launchers, a model's user manual, customization groups, the admin jobs list with its CSV export,
 * the admin sandbox's versions compare, and screenshots of every admin screen of the area.
 */
import { expect, test, type Page } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { acceptCookies, timeFor } from './helpers';
import {
  DEFAULT_LAUNCHER_PORT,
  choose,
  createUserOfCompany,
  finishedJob,
  grainPng,
  loginAdmin,
  runJobOnDashboard,
  setCodeMirror,
  startLauncherProcess,
  stopProcess,
  testLauncherUntilWorking,
  toast,
  uploadOnDashboard,
  userSession,
} from './admin-helpers';

test.describe.configure({ mode: 'serial' });

const RUN = Date.now().toString(36);
const COMPANY = `Compute Lab ${RUN}`;
const MODEL = 'Grain size (ASTM E112)';
const MODEL_PATH = 'grain-size';
/** Ports of the launchers this file creates (8400–8450 are kept for it). */
const LOCAL_PORT = 8401;
const ONPREM_PORT = 8402;
const SERVER_NAME = `Bench ${RUN}`;
const GROUP_A = `Fine grains ${RUN}`;
const GROUP_B = `Fine grains lab ${RUN}`;
/** test-results/screenshots/ of the repository, wherever Playwright is started from. */
const OUT = fileURLToPath(new URL('../test-results/screenshots', import.meta.url));

let userEmail = '';
let onPremLauncher: ChildProcess | null = null;
/** Filled by the journeys, used by the screenshots. */
const seen = { serverId: '', launcherId: '', jobId: '', groupId: '' };

test.beforeAll(async ({ request }) => {
  userEmail = await createUserOfCompany(request, 'compute', COMPANY);
});

test.afterAll(async () => {
  await stopProcess(onPremLauncher);
});

test.beforeEach(async ({ context, baseURL }) => {
  await acceptCookies(context, baseURL!);
});

/** The server list entry whose text contains `text`. */
const serverEntry = (page: Page, text: string) => page.getByTestId('server-list').getByRole('button').filter({ hasText: text });
const launcherCard = (page: Page, port: number) => page.getByTestId('launcher-card').filter({ hasText: `:${port}` });

/** The launcher release of this build (Add Launcher offers it beside the versions the launchers report). */
const RELEASE = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/**
 * Add Launcher: the version is picked from the list (launchers' versions and the releases; no free text). The server
 * answers "deployed" only once the new launcher answered its health check (issue 26); else it says where it asked.
 */
async function addLauncher(page: Page, opts: { port: number; env?: string; answers?: boolean; cannotStart?: boolean }) {
  await page.getByRole('button', { name: 'Add Launcher' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Launcher' });
  await choose(page, dialog.getByRole('textbox', { name: 'Version' }), RELEASE);
  await dialog.getByLabel('Port').fill(String(opts.port));
  await dialog.getByLabel('Environment variables (JSON)').fill(opts.env ?? '');
  await dialog.getByRole('button', { name: 'Create' }).click();
  // a local launcher whose process exits at once is said so as soon as it has failed, not after the 45 s wait
  if (opts.cannotStart)
    await expect(toast(page, `its process on this machine could not start on port ${opts.port}`)).toContainText('address already in use', {
      timeout: timeFor(30_000),
    });
  else if (opts.answers === false)
    await expect(toast(page, `The launcher was added but did not answer its health check at 127.0.0.1:${opts.port}.`)).toBeVisible({
      timeout: timeFor(30_000),
    });
  // a launcher this server starts may take up to LOCAL_DEPLOY_WAIT_MS (45 s) to listen on a busy machine
  else await expect(toast(page, 'Executor has been deployed.')).toBeVisible({ timeout: timeFor(60_000) });
  await expect(dialog).toBeHidden();
  await expect(launcherCard(page, opts.port)).toBeVisible();
}

async function deleteLauncher(page: Page, port: number) {
  await launcherCard(page, port).getByRole('button', { name: 'Delete launcher' }).click();
  const confirm = page.getByRole('dialog').filter({ hasText: 'Are you sure you want to delete this launcher?' });
  await confirm.getByRole('button', { name: 'Yes' }).click();
  await expect(launcherCard(page, port)).toHaveCount(0);
}

test('servers: an on-premise server with a real launcher, a local launcher, and a job that runs on the new server', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(timeFor(240_000));
  await loginAdmin(page);
  await page.goto('/admin/resources');
  await expect(page.getByText('Select a server to view details')).toBeVisible();

  // 1. The `local` node (created at the server's first start): its launchers are processes of the server.
  await serverEntry(page, 'This machine').click();
  await expect(page).toHaveURL(/[?&]server=[0-9a-f-]{36}/);
  await expect(page.getByTestId('server-details').getByRole('heading', { name: 'local' })).toBeVisible();
  await expect(launcherCard(page, DEFAULT_LAUNCHER_PORT)).toBeVisible();
  await addLauncher(page, { port: LOCAL_PORT, env: '{"LAUNCHER_THREADS": "1"}' });
  await expect(launcherCard(page, LOCAL_PORT).getByTestId('launcher-state')).toHaveText('Running');
  await testLauncherUntilWorking(page, launcherCard(page, LOCAL_PORT));
  // a port this machine already uses (the web server's own): the launcher is added, fails to start, and says why
  const taken = Number(new URL(baseURL!).port);
  await addLauncher(page, { port: taken, env: '{"LAUNCHER_THREADS": "1"}', cannotStart: true });
  await expect(launcherCard(page, taken).getByTestId('launcher-state')).toHaveText('Failed');
  await deleteLauncher(page, taken);

  // 2. A new on-premise server at 127.0.0.1, checked by the form first.
  await page.getByRole('button', { name: 'Add Server' }).click();
  const form = page.getByRole('dialog', { name: 'Add Server' });
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form.getByText('This field is required')).toHaveCount(3);
  await form.getByLabel('Name').fill(SERVER_NAME);
  await form.getByLabel('IP address').fill('127.0.0.256');
  await form.getByLabel('Description').fill('Bench machine next to the microscopes of the metallography lab (end-to-end test)');
  await expect(form.getByLabel('Cloud provider')).toBeDisabled();
  await expect(form.getByLabel('Instance id')).toBeDisabled();
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form.getByText('Invalid IP Address')).toBeVisible();
  await form.getByLabel('IP address').fill('127.0.0.1');
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(toast(page, 'Server has been added.')).toBeVisible();
  await expect(form).toBeHidden();
  const details = page.getByTestId('server-details');
  await expect(details.getByRole('heading', { name: SERVER_NAME })).toBeVisible();
  seen.serverId = new URL(page.url()).searchParams.get('server')!;
  await expect(details.getByText('No launchers found for this server.')).toBeVisible();
  // the list truncates descriptions over 50 characters
  await expect(serverEntry(page, SERVER_NAME)).toContainText('Bench machine next to the microscopes of the metal…');

  // its launcher: version required, environment variables must be JSON
  await page.getByRole('button', { name: 'Add Launcher' }).click();
  const launcherForm = page.getByRole('dialog', { name: 'Add Launcher' });
  await expect(launcherForm.getByLabel('Port')).toHaveValue('8000');
  await expect(launcherForm.getByRole('button', { name: 'Create' })).toBeDisabled();
  await launcherForm.getByLabel('Environment variables (JSON)').fill('{"LAUNCHER_THREADS": ');
  await expect(launcherForm.getByText('Invalid JSON')).toBeVisible();
  await launcherForm.getByRole('button', { name: 'Cancel' }).click();
  await expect(launcherForm).toBeHidden();
  // nothing listens there yet: added, but not reported as deployed, and shown as not responding (one state only)
  await addLauncher(page, { port: ONPREM_PORT, answers: false });
  const card = launcherCard(page, ONPREM_PORT);
  await expect(card.getByTestId('launcher-state')).toHaveText('Not responding');
  seen.launcherId = (await card.getAttribute('data-launcher-id'))!;
  // Nobody runs a launcher on that machine yet: the test fails …
  const answer = page.waitForResponse((r) => r.url().endsWith(`/api/admin/executors/${seen.launcherId}/test`));
  await card.getByRole('button', { name: 'Test connection' }).click();
  expect((await (await answer).json()).isConnected).toBe(false);
  await expect(toast(page, 'Communication with model is not working. Please check the launcher and try again.')).toBeVisible();
  // … until the operator starts the launcher on it (on-premise servers run their own launcher processes).
  onPremLauncher = await startLauncherProcess(ONPREM_PORT, 'e2e-onprem');
  await testLauncherUntilWorking(page, card);
  await card.getByRole('button', { name: 'Show details' }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]expanded=${seen.launcherId}`));
  await expect(card.getByText(`Launcher ID: ${seen.launcherId}`)).toBeVisible();
  await expect(card.getByText(/Models: .*grain-size/)).toBeVisible();
  await expect(serverEntry(page, SERVER_NAME).getByTestId('node-status')).toHaveText('Online', { timeout: timeFor(30_000) });

  // 3. Only the new server's launcher is left to take jobs: the local node's launchers are deleted.
  await serverEntry(page, 'This machine').click();
  await deleteLauncher(page, LOCAL_PORT);
  await deleteLauncher(page, DEFAULT_LAUNCHER_PORT);
  await expect(page.getByTestId('server-details').getByText('No launchers found for this server.')).toBeVisible();

  // 4. A user's job lands on it; the job detail names the server and the launcher.
  const user = await userSession(browser, baseURL!, userEmail);
  const filename = `server-journey-${RUN}.png`;
  await runJobOnDashboard(user.page, { name: filename, buffer: await grainPng(101) }, MODEL);
  const { id } = await finishedJob(user.page, MODEL_PATH, filename);
  seen.jobId = id;
  await page.goto(`/admin/jobs/${id}`);
  const table = page.getByTestId('job-detail-table');
  await expect(table.getByRole('row').filter({ hasText: 'Compute on' })).toContainText(SERVER_NAME);
  await expect(table.getByRole('row').filter({ hasText: 'Launcher ID' })).toContainText(seen.launcherId);
  await expect(page.getByTestId('job-status')).toHaveText(/Finished/i);
  await user.context.close();

  // 5. The local node gets its launcher back (a process of the server again) for the rest of the suite.
  await page.goto('/admin/resources');
  await serverEntry(page, 'This machine').click();
  // A health check that ran while its last launcher stopped may have marked it Offline; without launchers the
  // server becomes Unknown again within a check (5 s), and the list shows it at its next refresh.
  await expect(async () => {
    if (await page.getByRole('button', { name: 'Add Launcher' }).isDisabled()) await page.reload();
    await expect(page.getByRole('button', { name: 'Add Launcher' })).toBeEnabled({ timeout: 2000 });
  }).toPass({ timeout: timeFor(30_000) });
  await addLauncher(page, { port: DEFAULT_LAUNCHER_PORT });
  await testLauncherUntilWorking(page, launcherCard(page, DEFAULT_LAUNCHER_PORT));
});

test('models: the English model info manual shows on the results page', async ({ page, browser, baseURL }) => {
  const text = `Etch with Nital 2 % before imaging (${RUN}).`;
  await loginAdmin(page);
  await page.goto('/admin/compute-compute-models-registry');
  await page.getByTestId(`model-actions-${MODEL_PATH}`).click();
  await page.getByRole('menuitem', { name: 'Info' }).click();
  const dialog = page.getByRole('dialog', { name: `User manual: ${MODEL}` });
  // Model info (TOP) in English is the default choice
  await expect(dialog.getByRole('radio', { name: 'Model info' })).toBeChecked();
  await expect(dialog.getByRole('radio', { name: 'English' })).toBeChecked();
  const editor = dialog.getByTestId('manual-editor').locator('.ProseMirror');
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(text);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'Model manual has been updated.')).toBeVisible();
  // the German manual is separate and still empty
  await dialog.getByText('German').click();
  await expect(dialog.getByTestId('manual-editor').locator('.ProseMirror')).not.toContainText(text);
  await dialog.getByText('English').click();
  await expect(dialog.getByTestId('manual-editor').locator('.ProseMirror')).toContainText(text);
  await dialog.getByRole('button', { name: 'Close' }).click();

  const user = await userSession(browser, baseURL!, userEmail);
  await user.page.goto(`/models/${MODEL_PATH}`);
  const manual = user.page.getByTestId('manual-TOP');
  await expect(manual).toContainText('Model info');
  await expect(manual).toContainText(text);
  await expect(user.page.getByTestId('manual-BOTTOM')).toHaveCount(0);
  await user.context.close();
});

test('customization groups: inheritance, settings validation, a member whose job runs with the group', async ({ page, browser, baseURL }) => {
  test.setTimeout(timeFor(120_000));
  await loginAdmin(page);
  await page.goto('/admin/customizations');
  await expect(page.getByText('Select a group to view details')).toBeVisible();

  const createGroup = async (nameEn: string, nameDe: string) => {
    await page.getByRole('button', { name: 'New Group' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create new group' });
    await dialog.getByLabel('Name (English)').fill(nameEn);
    await dialog.getByLabel('Name (German)').fill(nameDe);
    await choose(page, dialog.getByLabel('Model'), MODEL);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(toast(page, 'Group has been created.')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('group-details').getByRole('heading', { name: nameEn })).toBeVisible();
    return new URL(page.url()).searchParams.get('group')!;
  };

  // the form's own rules
  await page.getByRole('button', { name: 'New Group' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create new group' });
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByText('Name is required')).toHaveCount(2);
  await expect(dialog.getByText('Model is required')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await createGroup(GROUP_A, `Feinkorn ${RUN}`);
  const editor = page.getByTestId('settings-editor');
  await setCodeMirror(page, editor, '{"segmentation": {"minScore": 0.7}}');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(toast(page, 'Settings have been updated.')).toBeVisible();

  const b = await createGroup(GROUP_B, `Feinkorn Labor ${RUN}`);
  seen.groupId = b;
  const groups = page.getByTestId('cust-group');
  await expect(groups.filter({ hasText: GROUP_A })).toBeVisible();
  await expect(groups.filter({ hasText: GROUP_B })).toHaveAttribute('data-active', 'true');

  // the first group becomes the second's parent (the group itself is not offered)
  await page.getByTestId('parent-select').click();
  await expect(page.getByRole('option', { name: GROUP_B })).toHaveCount(0);
  await page.getByRole('option', { name: GROUP_A }).click();
  await page.getByRole('button', { name: 'Add parent' }).click();
  await expect(toast(page, 'Parents added successfully')).toBeVisible();
  await expect(page.getByTestId('parent-item')).toHaveCount(1);
  await expect(page.getByTestId('parent-item')).toContainText(GROUP_A);

  // invalid JSON: Save and Validate are disabled
  await setCodeMirror(page, editor, '{"magnification": {"length": 200,');
  await expect(page.getByTestId('json-error')).toHaveText('Invalid JSON');
  await expect(page.getByRole('button', { name: 'Save Settings' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Validate' })).toBeDisabled();

  // valid JSON the schema refuses: the errors grouped by path
  await setCodeMirror(page, editor, '{"magnification": {"length": 5000, "unit": "inch"}, "segmentation": {"minScore": 2}}');
  await expect(page.getByTestId('json-error')).toHaveCount(0);
  await page.getByRole('button', { name: 'Validate' }).click();
  const modal = page.getByRole('dialog', { name: 'Validation Failed' });
  const errors = modal.getByTestId('validation-errors');
  await expect(errors).toContainText('magnification › length');
  await expect(errors).toContainText('magnification › unit');
  await expect(errors).toContainText('segmentation › minScore');
  await expect(errors).toContainText('must be <= 1000');
  await modal.getByRole('button', { name: 'Close' }).click();
  await expect(modal).toBeHidden();

  // valid settings: validated, saved, and resolved over the parent's
  await setCodeMirror(page, editor, '{"magnification": {"length": 200}}');
  await page.getByRole('button', { name: 'Validate' }).click();
  await expect(toast(page, 'Provided data is valid')).toBeVisible();
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(toast(page, 'Settings have been updated.')).toBeVisible();
  await page.getByRole('tab', { name: 'Resolved Settings' }).click();
  const resolved = page.getByTestId('resolved-editor');
  await expect(resolved).toContainText('"length": 200');
  await expect(resolved).toContainText('"minScore": 0.7');

  // the user becomes a member
  const search = page.getByTestId('member-search');
  await search.fill(userEmail);
  await page.getByRole('option', { name: new RegExp(userEmail.replace(/[.+]/g, '\\$&')) }).click();
  await page.getByRole('button', { name: 'Add member' }).click();
  await expect(toast(page, 'Member has been added.')).toBeVisible();
  await expect(page.getByTestId('group-details')).toContainText('Grace Hopper');

  // the member's next job of the model runs with the group: its badge on the results page
  const user = await userSession(browser, baseURL!, userEmail);
  const filename = `customized-${RUN}.png`;
  await runJobOnDashboard(user.page, { name: filename, buffer: await grainPng(202) }, MODEL);
  const { item } = await finishedJob(user.page, MODEL_PATH, filename);
  await expect(item.getByText(GROUP_B, { exact: true })).toBeVisible();
  // the earlier job (before the membership) has no badge
  await expect(
    user.page
      .getByTestId('job-item')
      .filter({ hasText: `server-journey-${RUN}.png` })
      .getByText(GROUP_B),
  ).toHaveCount(0);
  await user.context.close();
});

test('admin jobs list: filters in the query string, CSV export of the filtered rows', async ({ page }) => {
  await loginAdmin(page);
  await page.goto('/admin/jobs');
  const table = page.getByTestId('admin-jobs-table');
  await expect(table).toBeVisible();

  const company = page.getByTestId('filter-company');
  await company.fill(COMPANY);
  await company.press('Enter');
  await expect(page).toHaveURL(new RegExp(`[?&]company=${encodeURIComponent(COMPANY).replace(/%20/g, '(\\+|%20)')}`));
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText(COMPANY);

  await choose(page, page.getByRole('textbox', { name: 'Status' }), 'Finished');
  await expect(page).toHaveURL(/[?&]status=FINISHED/);
  await expect(rows).toHaveCount(2);
  // the sort is kept in the query string too
  await table.getByRole('button', { name: 'Owner' }).click();
  await expect(page).toHaveURL(/sortKey=owner&sortOrder=desc/);
  // a filter that matches nothing
  await choose(page, page.getByRole('textbox', { name: 'Source' }), 'API');
  await expect(page).toHaveURL(/[?&]source=API/);
  await expect(page.getByText('No jobs match these filters.')).toBeVisible();
  // choosing the chosen option again clears it
  await choose(page, page.getByRole('textbox', { name: 'Source' }), 'API');
  await expect(page).not.toHaveURL(/source=/);
  await expect(rows).toHaveCount(2);

  // the reload keeps the filters
  await page.reload();
  await expect(page.getByTestId('filter-company')).toHaveValue(COMPANY);
  await expect(rows).toHaveCount(2);

  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export Job Statistics' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^jobs-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
  const lines = csv.split('\r\n').filter(Boolean);
  // Readable headers in the admin's language; their CSV style (comma decimals by default: `;` between fields).
  expect(lines[0]).toBe(
    'Job ID;Job date (UTC);Owner;Owner e-mail;Company;User rating (1–5);Mean admin rating (1–5);Admin votes;Duration (s);Wait time (s);Status;Source;Model;Model version;Project;Image;Deleted;Submitted masks',
  );
  expect(lines).toHaveLength(1 + (await rows.count()));
  for (const line of lines.slice(1)) {
    expect(line).toContain(userEmail);
    expect(line).toContain(COMPANY);
    expect(line).toContain(';Finished;');
  }
});

test('admin sandbox: one image on versions 20241025 and 20250101 side by side', async ({ page }) => {
  test.setTimeout(timeFor(120_000));
  await loginAdmin(page);
  const filename = `sandbox-${RUN}.png`;
  await uploadOnDashboard(page, [{ name: filename, buffer: await grainPng(303) }]);
  await page.goto('/sandbox/admin');
  await expect(page.getByRole('heading', { name: 'Admin sandbox' })).toBeVisible();
  const next = page.getByRole('button', { name: 'Next' });
  await expect(next).toBeDisabled();
  await page.getByTestId('sandbox-image-row').filter({ hasText: filename }).click();
  await next.click();
  await page.getByRole('checkbox', { name: MODEL }).check();
  await next.click();
  await expect(page.getByText('Params identification').last()).toBeVisible();
  await next.click();
  await expect(page.getByText('Please select at least one version.')).toBeVisible();
  // the picker says how many versions one run compares (as many as the server takes)
  await expect(page.getByText('Up to 10 versions in one run.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Run' })).toBeDisabled();
  // the MultiSelect's dropdown stays open while options are picked
  // (the stepper's versions field comes before the Versions compare card's images field)
  await page.locator('.mantine-MultiSelect-input').first().click();
  await page.getByRole('option', { name: '20241025' }).click();
  await page.getByRole('option', { name: '20250101' }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByText('Please select at least one version.')).toHaveCount(0);
  await page.getByRole('button', { name: 'Run' }).click();

  const results = page.getByTestId('sandbox-results');
  const cards = results.getByTestId('sandbox-job');
  await expect(cards).toHaveCount(2);
  for (const c of await cards.all()) await expect(c).toHaveAttribute('data-status', 'FINISHED', { timeout: timeFor(60_000) });
  // the older version on the left
  await expect(cards.nth(0)).toContainText('v20241025');
  await expect(cards.nth(1)).toContainText('v20250101');
  const [a, b] = [await cards.nth(0).boundingBox(), await cards.nth(1).boundingBox()];
  expect(Math.abs(a!.y - b!.y)).toBeLessThan(2);
  expect(a!.x).not.toBe(b!.x);
  await page.screenshot({ path: `${OUT}/desktop-admin-sandbox-compare.png`, fullPage: true, animations: 'disabled' });
});

const WIDTHS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 375, height: 812 },
];

for (const size of WIDTHS) {
  test(`screenshots of the compute back-office at ${size.width}px`, async ({ page }) => {
    test.setTimeout(timeFor(90_000));
    await page.setViewportSize({ width: size.width, height: size.height });
    // animations: 'disabled' finishes the modals' fade-in, so a dialog is not caught half transparent
    const shot = (name: string, fullPage = true) =>
      page.screenshot({ path: `${OUT}/${size.name}-admin-${name}.png`, fullPage, animations: 'disabled' });
    await loginAdmin(page);

    await page.goto(`/admin/resources?server=${seen.serverId}&expanded=${seen.launcherId}`);
    await expect(page.getByTestId('launcher-card')).toHaveCount(1);
    await expect(page.getByText(`Launcher ID: ${seen.launcherId}`)).toBeVisible();
    await shot('servers');
    await page.getByRole('button', { name: 'Add Server' }).click();
    await expect(page.getByRole('dialog', { name: 'Add Server' })).toBeVisible();
    await shot('add-server', false);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Add Launcher' }).click();
    await expect(page.getByRole('dialog', { name: 'Add Launcher' })).toBeVisible();
    await shot('add-launcher', false);
    await page.keyboard.press('Escape');

    await page.goto('/admin/compute-compute-models-registry');
    await expect(page.getByTestId('models-table')).toBeVisible();
    await shot('models');
    await page.getByTestId(`model-actions-${MODEL_PATH}`).click();
    await page.getByRole('menuitem', { name: 'Info' }).click();
    await expect(page.getByRole('dialog').getByTestId('manual-editor')).toContainText('Etch with Nital');
    await shot('model-manual', false);
    await page.keyboard.press('Escape');

    await page.goto(`/admin/customizations?group=${seen.groupId}`);
    await expect(page.getByTestId('parent-item')).toHaveCount(1);
    await expect(page.getByTestId('settings-editor')).toContainText('"length": 200');
    await shot('customizations');

    await page.goto('/admin/jobs');
    await expect(page.getByTestId('admin-jobs-table')).toBeVisible();
    await shot('jobs');
    await page.goto(`/admin/jobs/${seen.jobId}`);
    await expect(page.getByTestId('job-detail-table')).toContainText(SERVER_NAME);
    await shot('job-detail');

    await page.goto('/admin/model-params');
    await expect(page.getByRole('heading', { name: 'Model parameters' })).toBeVisible();
    await shot('model-params');

    await page.goto('/sandbox/admin');
    await expect(page.getByTestId('sandbox-images')).toBeVisible();
    await shot('sandbox');
  });
}
