/** The account journey of accounts.md through the browser, against the real server. */
import { expect, test } from '@playwright/test';
import { PASSWORD, field, acceptCookies, freshTotp, login, pathOf, typeCode, uniqueEmail, waitForMailLink } from './helpers';

test.describe.configure({ mode: 'serial' });

const email = uniqueEmail('journey');
const NEW_PASSWORD = 'Grain-Boundary-2026';
let otpSecret = '';
let lastCode = '';

test.beforeEach(async ({ context, baseURL }) => {
  await acceptCookies(context, baseURL!);
});

test('sign up, read the verification mail, verify, log in', async ({ page }) => {
  const started = Date.now() - 1000;
  await page.goto('/auth/register');
  await field(page, 'Name').fill('Ada');
  await field(page, 'Surname').fill('Lovelace');
  await field(page, 'Company').fill('Foundry Lab');
  await field(page, 'E-mail').fill(email);
  await field(page, 'Phone').fill('12345');
  await field(page, 'Password').fill('short');
  await field(page, 'Confirm password').fill('other');
  await page.getByRole('button', { name: 'Create account' }).click();
  // client-side rules from @lamella/contracts
  await expect(page.getByText('Invalid phone number, e.g. +49 211 1234567')).toBeVisible();
  await expect(page.getByText('Password must contain an uppercase letter')).toBeVisible();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await expect(page.getByText('You must accept the terms')).toBeVisible();

  await field(page, 'Phone').fill('+49 211 1234567');
  await field(page, 'Password').fill(PASSWORD);
  await field(page, 'Confirm password').fill(PASSWORD);
  await page.getByRole('checkbox', { name: /I accept the/ }).check();
  await page.getByRole('button', { name: 'Create account' }).click();
  // training consent unticked → reminder with the 2 extra trial months
  const reminder = page.getByRole('dialog');
  await expect(reminder.getByText(/2 extra trial months/)).toBeVisible();
  await reminder.getByRole('button', { name: 'Register without' }).click();

  await expect(page).toHaveURL(/\/auth\/verify-email$/);
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
  await expect(page.getByText(/You can request a new e-mail in \d+ s/)).toBeVisible();

  const link = await waitForMailLink(email, '/auth/verify-email', started);
  await page.goto(pathOf(link));
  await expect(page.getByText('Your e-mail address has been verified. You can now sign in.')).toBeVisible();
  // the same link a second time fails, with a contact link and a way back
  const again = await page.context().newPage();
  await again.goto(pathOf(link));
  await expect(again.getByText('Verification failed')).toBeVisible();
  await expect(again.getByRole('link', { name: 'Contact the administrator' })).toHaveAttribute('href', /^mailto:/);
  await again.close();

  await page.getByRole('link', { name: 'Go to sign in' }).click();
  // signed in already after signup, and the verification read the session anew: login leads on to the dashboard
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/logout');
  await expect(page.getByText('You have been signed out.')).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login$/, { timeout: 15_000 });

  await login(page, email, 'Wrong-Password-1');
  await expect(page.getByText('Sign-in failed').first()).toBeVisible();
  await login(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'User menu' })).toContainText('Ada Lovelace');
});

test('login keeps the redirect target', async ({ page }) => {
  await page.goto('/access-keys');
  await expect(page).toHaveURL(/redirect=%2Faccess-keys/);
  await field(page, 'E-mail').fill(email);
  await field(page, 'Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/access-keys$/);
});

test('create, disable and revoke an access key', async ({ page, request }) => {
  await login(page, email);
  // signed in before going on (a navigation now would cancel the sign-in request)
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/access-keys');
  await expect(page.getByText('No access keys yet')).toBeVisible();
  await field(page, 'Name').fill('Lab script');
  await page.getByRole('button', { name: 'Create key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Your new access key' });
  await expect(dialog.getByText('It will not be shown again')).toBeVisible();
  const code = (await dialog.getByTestId('access-key-code').textContent())!.trim();
  expect(code.length).toBeGreaterThan(10);
  await dialog.getByRole('button', { name: 'Copy key' }).click();
  await expect(page.getByText('Key copied')).toBeVisible();
  await dialog.getByRole('button', { name: 'I have copied the key' }).click();

  const row = page.getByTestId('access-key-row').filter({ hasText: 'Lab script' });
  await expect(row).toBeVisible();
  await expect(row).toContainText('Never');

  // the key works for the API …
  const ok = await request.get('/api/users/me', { headers: { Authorization: `Bearer ${code}` } });
  expect(ok.status()).toBe(200);

  // … until it is disabled (greyed in the table)
  await expect(row.getByRole('switch')).toBeChecked();
  // by keyboard, as a keyboard user would (Mantine lays the native input over the track)
  await row.getByRole('switch').focus();
  await page.keyboard.press('Space');
  await expect(row.getByRole('switch')).not.toBeChecked();
  await expect(row).toHaveAttribute('data-enabled', 'false');
  const blocked = await request.get('/api/users/me', { headers: { Authorization: `Bearer ${code}` } });
  expect(blocked.status()).toBeGreaterThanOrEqual(400);

  await row.getByRole('button', { name: 'Delete Lab script' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('The access key has been deleted.')).toBeVisible();
  await expect(page.getByTestId('access-key-row')).toHaveCount(0);
});

test('reset the password by e-mail', async ({ page }) => {
  const started = Date.now() - 1000;
  await page.goto('/auth/reset-password');
  await field(page, 'E-mail').fill('not an email');
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText('Invalid email')).toBeVisible();
  await field(page, 'E-mail').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();

  const link = await waitForMailLink(email, '/auth/reset-password', started);
  await page.goto(pathOf(link));
  await field(page, 'New password').fill(NEW_PASSWORD);
  await field(page, 'Confirm password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(page.getByText('Your password has been changed. Please sign in.')).toBeVisible();

  // the used link fails with a token error toast
  await page.goto(pathOf(link));
  await field(page, 'New password').fill(NEW_PASSWORD);
  await field(page, 'Confirm password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByText('Password not changed')).toBeVisible();

  await login(page, email, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('enable two-factor and log in with a code', async ({ page }) => {
  await login(page, email, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Enable two-factor authentication' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  otpSecret = (await page.getByTestId('otp-secret').textContent())!.trim();
  expect(otpSecret).toMatch(/^[A-Z2-7]+=*$/);
  const activate = page.getByRole('button', { name: 'Activate' });
  await expect(activate).toBeDisabled();
  await typeCode(page, '000000');
  await activate.click();
  await expect(page.getByRole('alert').filter({ hasText: /invalid/i })).toBeVisible();
  // clear and enter a real code
  for (let i = 0; i < 8; i++) await page.keyboard.press('Backspace');
  lastCode = await freshTotp(otpSecret);
  await typeCode(page, lastCode);
  await activate.click();
  await expect(page.getByText('Two-factor authentication is on.')).toBeVisible();

  await page.goto('/logout');
  await expect(page.getByText('You have been signed out.')).toBeVisible();

  await page.goto('/profile');
  await expect(page).toHaveURL(/redirect=%2Fprofile/);
  await field(page, 'E-mail').fill(email);
  await field(page, 'Password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/auth\/otp\?redirect=%2Fprofile$/);
  await typeCode(page, '123456');
  await expect(page.getByRole('alert')).toBeVisible();
  for (let i = 0; i < 8; i++) await page.keyboard.press('Backspace');
  await expect(page.getByRole('alert')).toHaveCount(0);
  lastCode = await freshTotp(otpSecret, lastCode);
  await typeCode(page, lastCode);
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
});

test('update the profile and switch to German', async ({ page, context }) => {
  await login(page, email, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/auth\/otp/);
  lastCode = await freshTotp(otpSecret, lastCode);
  await typeCode(page, lastCode);
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/profile');
  await field(page, 'City').fill('Düsseldorf');
  await field(page, 'Country').fill('Germany');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Your profile has been updated')).toBeVisible();

  await page.getByText('Deutsch', { exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Einstellungen', level: 1 })).toBeVisible();
  const lng = (await context.cookies()).find((c) => c.name === 'lng');
  expect(lng?.value).toBe('de');
  // stored on the account too: a fresh browser with an English cookie still gets German after sign-in
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Einstellungen', level: 1 })).toBeVisible();
  const me = await page.request.get('/api/users/me');
  expect((await me.json()).language).toBe('de');
});
