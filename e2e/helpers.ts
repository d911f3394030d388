/** Shared helpers of the browser tests: mails written by the server, TOTP codes, users made through the API. */
import { expect, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as OTPAuth from 'otpauth';

export const PASSWORD = 'Micro-Structure-42';

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6)}@lamella.test`;
}

function mailDir(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set');
  return join(dir, 'mail');
}

/** Quoted-printable → text (soft line breaks and =XX escapes), enough for the links we need. */
function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const m = /^=([0-9A-F]{2})/.exec(joined.slice(i, i + 3));
    if (m) {
      bytes.push(parseInt(m[1], 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i], 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Waits for a mail to `to` whose body contains a link to `path`, newest first; returns the link. */
export async function waitForMailLink(to: string, path: string, after = 0): Promise<string> {
  const re = new RegExp(`https?://[^\\s"'<>]+${path.replace(/[/?]/g, '\\$&')}\\?token=[A-Za-z0-9_\\-.~%]+`);
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (existsSync(mailDir())) {
      const files = readdirSync(mailDir())
        .filter((f) => f.endsWith('.eml'))
        .map((f) => join(mailDir(), f))
        .filter((f) => statSync(f).mtimeMs >= after)
        .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
      for (const file of files) {
        const text = decodeQuotedPrintable(readFileSync(file, 'utf8'));
        if (!new RegExp(`^To:.*${to.replace(/[.+]/g, '\\$&')}`, 'mi').test(text)) continue;
        const m = re.exec(text);
        if (m) return m[0];
      }
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no mail to ${to} with a ${path} link`);
}

/** Relative path + query of an absolute link from a mail (the test's baseURL serves it). */
export function pathOf(link: string): string {
  const u = new URL(link);
  return u.pathname + u.search;
}

export function totp(secret: string, timestamp = Date.now()): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp,
  });
}

/**
 * A code the server has not seen yet. The server accepts one 30 s step of clock drift and refuses a step at or
 * before the last one used, so after `lastCode` (step n) the code of step n+1 is taken — at once when n+1 is at
 * most one step ahead of now, else after waiting for the clock.
 */
export async function freshTotp(secret: string, lastCode?: string): Promise<string> {
  for (;;) {
    const now = Math.floor(Date.now() / 30_000);
    const lastStep = lastCode ? [now - 1, now, now + 1].find((n) => totp(secret, n * 30_000) === lastCode) : undefined;
    const next = lastStep === undefined ? now : lastStep + 1;
    if (next <= now + 1) return totp(secret, next * 30_000 + 1000);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** Accept the cookie notice up front so its dialog does not cover the pages. */
export async function acceptCookies(context: BrowserContext, baseURL: string): Promise<void> {
  await context.addCookies([{ name: 'cookie-consent', value: 'true', url: baseURL }]);
}

/** Signs up and verifies a user through the API (no browser), returns the e-mail. */
export async function createVerifiedUser(
  request: APIRequestContext,
  prefix: string,
  who: { name?: string; surname?: string; company?: string } = {},
): Promise<string> {
  const email = uniqueEmail(prefix);
  const started = Date.now() - 1000;
  const res = await request.post('/api/auth/signup', {
    data: {
      formFields: [
        { id: 'email', value: email },
        { id: 'password', value: PASSWORD },
        { id: 'name', value: who.name ?? 'Grace' },
        { id: 'surname', value: who.surname ?? 'Hopper' },
        { id: 'company', value: who.company ?? 'Metallography Lab' },
        { id: 'phone', value: '+49 211 1234567' },
        { id: 'subscribe', value: false },
        { id: 'trainingConsent', value: true },
      ],
    },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  const link = await waitForMailLink(email, '/auth/verify-email', started);
  const token = new URL(link).searchParams.get('token');
  const verify = await request.post('/api/auth/user/email/verify', { data: { method: 'token', token } });
  expect(verify.ok(), await verify.text()).toBeTruthy();
  await request.post('/api/auth/signout');
  return email;
}

export async function login(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/auth/login');
  await field(page, 'E-mail').fill(email);
  await field(page, 'Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Types a 6-digit code into a Mantine PinInput (focus moves on by itself). */
export async function typeCode(page: Page, code: string): Promise<void> {
  const first = page.locator('input[inputmode="numeric"]').first();
  await first.click();
  await page.keyboard.type(code, { delay: 30 });
}

/** An input by its label; Mantine adds " *" to the label of required fields. */
export function field(page: Page, label: string) {
  return page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`));
}

/**
 * A time limit (ms) of a test or of a long expectation, for the machine it runs on. CI machines differ in speed:
 * one CI run took twice as long as the same run on the development machine, and a test ran past its own limit, set
 * below the configuration's CI default. On CI every such limit is doubled (so none is below that default).
 */
export const timeFor = (ms: number): number => (process.env.CI ? 2 * ms : ms);
