/**
 * User groups (issue 10 item 6) and the group-admin area (issue 12 item 4) in Chromium: a member runs an analysis,
 * the admin creates a group with an admin and members on /admin/groups, the group admin opens /group-admin, sees the
 * member's usage, invites a colleague, who joins by accepting in the notification panel; screenshots at 1280 and 375 px.
 */
import { expect, test, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { acceptCookies, createVerifiedUser, timeFor } from './helpers';
import { grainPng, loginAdmin, toast, userSession } from './admin-helpers';
import { modelId, runViaApi, uploadViaApi } from './analysis-helpers';

test.describe.configure({ mode: 'serial' });

const OUT = fileURLToPath(new URL('../test-results/screenshots', import.meta.url));
const MODEL = 'grain-size';
const GROUP = `Weld lab ${Date.now().toString(36)}`;

let leadEmail = '';
let memberEmail = '';
let colleagueEmail = '';

test.beforeAll(async ({ request }) => {
  leadEmail = await createVerifiedUser(request, 'group-lead', { name: 'Lena', surname: 'Lead', company: 'Weld Research' });
  memberEmail = await createVerifiedUser(request, 'group-member', { name: 'Ada', surname: 'Aalto', company: 'Seam Analytics' });
  colleagueEmail = await createVerifiedUser(request, 'group-colleague', { name: 'Bob', surname: 'Berg', company: 'Seam Analytics' });
});

test.beforeEach(async ({ context, baseURL }) => {
  await acceptCookies(context, baseURL!);
});

/**
 * Picks a user in a Mantine (multi)select by typing `search` and clicking the option that shows `name` and `email`.
 * The e-mail makes the option this run's user: a retry makes new users with the same names, and the first try's
 * "Lena Lead" already administers that try's group.
 */
async function pickUser(page: Page, label: string, search: string, name: string, email: string) {
  const input = page.locator(`input[aria-label="${label}"]`);
  await input.click();
  await input.fill(search);
  await page
    .getByRole('option', { name: new RegExp(name) })
    .filter({ hasText: email })
    .click();
}

test('admin creates a group with an admin and members; the group admin sees the member usage and invites', async ({ page, browser, baseURL }) => {
  test.setTimeout(timeFor(360_000));
  await page.setViewportSize({ width: 1280, height: 900 });

  // The member analyses one image (one image, one job this month) and shares its project with the group admin.
  const member = await userSession(browser, baseURL!, memberEmail);
  const api = member.page.request;
  const imageId = await uploadViaApi(api, { name: 'weld-seam.png', mimeType: 'image/png', buffer: await grainPng(611) } as never);
  await runViaApi(api, [imageId], [await modelId(api, MODEL)]);
  const project = await api.post('/api/projects', { data: { name: 'Seam study' } });
  expect(project.ok(), await project.text()).toBeTruthy();
  const { id: projectId } = (await project.json()) as { id: string };
  expect((await api.post(`/api/projects/${projectId}/images`, { data: { imageIds: [imageId] } })).ok()).toBeTruthy();
  expect((await api.post(`/api/projects/${projectId}/share`, { data: { email: leadEmail } })).ok()).toBeTruthy();
  await member.context.close();

  await loginAdmin(page);
  await page.goto('/admin/groups');
  await expect(page.getByTestId('admin-groups')).toBeVisible({ timeout: timeFor(30_000) });
  await page.getByRole('button', { name: 'Add group' }).click();
  await page.getByTestId('group-new-name').fill(GROUP);
  await page.keyboard.press('Enter');
  await expect(toast(page, 'Group has been created.')).toBeVisible();
  const row = page.getByTestId('group-row').filter({ hasText: GROUP });
  await expect(row).toBeVisible();

  await pickUser(page, `Admin of ${GROUP}`, 'Lena', 'Lena Lead', leadEmail);
  await expect(toast(page, 'Group has been edited.')).toBeVisible();
  // Members are found by company.
  await pickUser(page, `Members of ${GROUP}`, 'Seam Analytics', 'Ada Aalto', memberEmail);
  await expect(toast(page, 'Members have been updated.')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.reload();
  await expect(row.locator(`input[aria-label="Admin of ${GROUP}"]`)).toHaveValue('Lena Lead', { timeout: timeFor(30_000) });
  await expect(row).toContainText('Ada Aalto');

  // The group admin's area.
  const lead = await userSession(browser, baseURL!, leadEmail);
  await lead.page.setViewportSize({ width: 1280, height: 900 });
  // the project share is an invitation until the lead accepts it (issue 28 item 4)
  for (const i of (await (await lead.page.request.get('/api/projects/invitations')).json()) as Array<{ id: string }>)
    expect((await lead.page.request.post(`/api/projects/invitations/${i.id}/accept`)).ok()).toBeTruthy();
  await lead.page.goto('/group-admin');
  await expect(lead.page.getByRole('heading', { name: `Group ${GROUP}` })).toBeVisible({ timeout: timeFor(30_000) });
  const ada = lead.page.getByTestId('group-member-row').filter({ hasText: 'Ada Aalto' });
  await expect(ada.getByTestId('member-images')).toHaveText('1');
  await expect(ada.getByTestId('member-jobs')).toHaveText('1');
  await expect(lead.page.getByTestId('group-shared-jobs')).toContainText('Seam study');

  // Inviting needs the person's acceptance (issue 28): the answer is the same for an unknown address.
  const invited = 'If an account uses this address and belongs to no group, it has been invited. The person joins when they accept.';
  await lead.page.getByTestId('group-invite-email').fill('nobody-here@lamella.test');
  await lead.page.getByTestId('group-invite-submit').click();
  await expect(toast(lead.page, invited)).toBeVisible();
  await lead.page.getByTestId('group-invite-email').fill(colleagueEmail);
  await lead.page.getByTestId('group-invite-submit').click();
  await expect(toast(lead.page, invited).first()).toBeVisible();
  await expect(lead.page.getByTestId('group-member-row').filter({ hasText: 'Bob Berg' })).toHaveCount(0);

  // Bob accepts in his notification panel; then the group admin sees him.
  const bob = await userSession(browser, baseURL!, colleagueEmail);
  await bob.page.goto('/dashboard');
  const bell = bob.page.getByRole('banner').getByRole('button', { name: 'Notifications' });
  await expect(bell).toBeVisible({ timeout: timeFor(30_000) });
  // the CI machine is loaded (two browsers, three servers and the launcher's analyses on 2 cores): give the click
  // the expectation's time rather than the default action timeout (a click once waited 15 s for a stable bell)
  await bell.click({ timeout: timeFor(60_000) });
  const invitation = bob.page.getByTestId('notification').filter({ hasText: `invites you to the group "${GROUP}"` });
  await expect(invitation).toBeVisible({ timeout: timeFor(30_000) });
  await invitation.getByTestId('group-invitation-accept').click();
  await expect(toast(bob.page, 'You have joined the group.')).toBeVisible();
  await bob.context.close();
  await lead.page.reload();
  await expect(lead.page.getByTestId('group-member-row').filter({ hasText: 'Bob Berg' })).toBeVisible({ timeout: timeFor(30_000) });
  await lead.context.close();

  // Someone who administers no group is told so.
  const other = await userSession(browser, baseURL!, memberEmail);
  await other.page.goto('/group-admin');
  await expect(other.page.getByTestId('group-admin-denied')).toBeVisible({ timeout: timeFor(30_000) });
  await other.context.close();
});

const WIDTHS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 375, height: 812 },
];

for (const size of WIDTHS) {
  test(`screenshots of groups and the group-admin area at ${size.width}px`, async ({ page, browser, baseURL }) => {
    test.setTimeout(timeFor(240_000));
    await page.setViewportSize({ width: size.width, height: size.height });
    await loginAdmin(page);
    await page.goto('/admin/groups');
    await expect(page.getByTestId('group-row').filter({ hasText: GROUP })).toBeVisible({ timeout: timeFor(30_000) });
    await page.screenshot({ path: `${OUT}/${size.name}-admin-groups.png`, fullPage: true, animations: 'disabled' });
    await page.locator(`input[aria-label="Members of ${GROUP}"]`).click();
    await expect(page.getByRole('option').first()).toBeVisible();
    await page.screenshot({ path: `${OUT}/${size.name}-admin-groups-members.png`, animations: 'disabled' });
    await page.keyboard.press('Escape');

    const lead = await userSession(browser, baseURL!, leadEmail);
    await lead.page.setViewportSize({ width: size.width, height: size.height });
    await lead.page.goto('/group-admin');
    await expect(lead.page.getByTestId('group-member-row').first()).toBeVisible({ timeout: timeFor(30_000) });
    await lead.page.screenshot({ path: `${OUT}/${size.name}-group-admin.png`, fullPage: true, animations: 'disabled' });
    await lead.context.close();
  });
}
