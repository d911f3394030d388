import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as OTPAuth from 'otpauth';
import { eq } from 'drizzle-orm';
import { twoFactorApi } from '@lamella/contracts';
import { users } from '../src/platform/db/schema/index.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * Issue 28 item 7: with the second factor on, enrolling a new authenticator or turning it off needs a code of the
 * current one or a recovery code; recovery codes are made at enrolment and answered once.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const codeAt = (secret: string, offsetSteps = 0) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: Date.now() + offsetSteps * 30_000 });
/** Forgets the last used time step (as if a minute had passed), so a test can use codes of the same step again. */
const forgetStep = (id: string) => t.db.update(users).set({ totpLastStep: null }).where(eq(users.id, id));

type Client = ReturnType<TestApp['client']>;
async function start(client: Client): Promise<string> {
  const qr = await client.call(twoFactorApi.start);
  expect(qr.status).toBe(200);
  return qr.headers.get('x-otp-secret')!;
}

async function userWithTwoFactor() {
  const u = await t.signupVerified();
  const secret = await start(u.client);
  const res = await u.client.call(twoFactorApi.update, { body: { code: codeAt(secret), enable: true } });
  expect(res.status).toBe(200);
  const recoveryCodes = res.body.recoveryCodes!;
  return { ...u, secret, recoveryCodes };
}

/** Signs in with the password, then completes with `code`; answers the validate status. */
async function signinWith(email: string, password: string, code: string): Promise<number> {
  const { client, res } = await t.signin(email, password);
  expect(res.body.twoFactorRequired).toBe(true);
  return (await client.call(twoFactorApi.validate, { body: { code } })).status;
}

describe('recovery codes', () => {
  it('are made at enrolment (10, distinct, xxxxx-xxxxx), answered once, and count down as they are used', async () => {
    const u = await userWithTwoFactor();
    expect(u.recoveryCodes).toHaveLength(10);
    expect(new Set(u.recoveryCodes).size).toBe(10);
    for (const c of u.recoveryCodes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const state = await u.client.call(twoFactorApi.state);
    expect(state.body).toEqual({ enabled: true, recoveryCodesLeft: 10 });
    // a recovery code completes a sign-in once (typed in capitals, without the dash), never twice
    expect(await signinWith(u.email, u.password, u.recoveryCodes[0]!.replace('-', '').toUpperCase())).toBe(200);
    expect(await signinWith(u.email, u.password, u.recoveryCodes[0]!)).toBe(400);
    expect((await u.client.call(twoFactorApi.state)).body).toEqual({ enabled: true, recoveryCodesLeft: 9 });
    // a made-up one is refused
    expect(await signinWith(u.email, u.password, 'abcde-fghjk')).toBe(400);
  });

  it('two concurrent uses of one recovery code open one session', async () => {
    const u = await userWithTwoFactor();
    const a = await t.signin(u.email, u.password);
    const b = await t.signin(u.email, u.password);
    const [ra, rb] = await Promise.all([
      a.client.call(twoFactorApi.validate, { body: { code: u.recoveryCodes[1]! } }),
      b.client.call(twoFactorApi.validate, { body: { code: u.recoveryCodes[1]! } }),
    ]);
    expect([ra.status, rb.status].sort()).toEqual([200, 400]);
  });
});

describe('replacing the authenticator needs the current one', () => {
  it('refuses a new authenticator without a current code (the reported attack), and with a wrong one; the old one keeps working', async () => {
    const u = await userWithTwoFactor();
    const next = await start(u.client);
    const missing = await u.client.call(twoFactorApi.update, { body: { code: codeAt(next), enable: true } });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'CURRENT_CODE_REQUIRED', details: [{ field: 'currentCode' }] });
    const wrong = await u.client.call(twoFactorApi.update, { body: { code: codeAt(next), enable: true, currentCode: '000000' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'INVALID_CODE', details: [{ field: 'currentCode' }] });
    // a code of the new secret does not pass for the current one
    const newForOld = await u.client.call(twoFactorApi.update, { body: { code: codeAt(next), enable: true, currentCode: codeAt(next) } });
    expect(newForOld.status).toBe(400);
    await forgetStep(u.id);
    expect(await signinWith(u.email, u.password, codeAt(u.secret))).toBe(200);
    await forgetStep(u.id);
    expect(await signinWith(u.email, u.password, codeAt(next))).toBe(400);
  });

  it('replaces it with a code of the current authenticator: new recovery codes, the old secret and codes stop working', async () => {
    const u = await userWithTwoFactor();
    const next = await start(u.client);
    const res = await u.client.call(twoFactorApi.update, { body: { code: codeAt(next), enable: true, currentCode: codeAt(u.secret, 1) } });
    expect(res.status).toBe(200);
    expect(res.body.recoveryCodes).toHaveLength(10);
    expect(res.body.recoveryCodes!.some((c) => u.recoveryCodes.includes(c))).toBe(false);
    await forgetStep(u.id);
    expect(await signinWith(u.email, u.password, codeAt(u.secret))).toBe(400);
    expect(await signinWith(u.email, u.password, u.recoveryCodes[2]!)).toBe(400);
    expect(await signinWith(u.email, u.password, codeAt(next))).toBe(200);
    expect(await signinWith(u.email, u.password, res.body.recoveryCodes![0]!)).toBe(200);
  });

  it('replaces it with a recovery code (a lost phone), which is spent', async () => {
    const u = await userWithTwoFactor();
    const next = await start(u.client);
    const res = await u.client.call(twoFactorApi.update, { body: { code: codeAt(next), enable: true, currentCode: u.recoveryCodes[3]! } });
    expect(res.status).toBe(200);
    const again = await start(u.client);
    await forgetStep(u.id);
    const reused = await u.client.call(twoFactorApi.update, { body: { code: codeAt(again), enable: true, currentCode: u.recoveryCodes[3]! } });
    expect(reused.status).toBe(400);
  });
});

describe('turning it off needs the current one', () => {
  it('refuses a wrong code or a code of a pending (new) secret; accepts a recovery code', async () => {
    const u = await userWithTwoFactor();
    const next = await start(u.client);
    expect((await u.client.call(twoFactorApi.update, { body: { code: '000000', enable: false } })).status).toBe(400);
    expect((await u.client.call(twoFactorApi.update, { body: { code: codeAt(next), enable: false } })).status).toBe(400);
    expect((await u.client.call(twoFactorApi.state)).body.enabled).toBe(true);
    const off = await u.client.call(twoFactorApi.update, { body: { code: u.recoveryCodes[4]!, enable: false } });
    expect(off.body).toEqual({ enabled: false });
    const { res } = await t.signin(u.email, u.password);
    expect(res.body.twoFactorRequired).toBe(false);
    // its recovery codes went with it
    expect((await u.client.call(twoFactorApi.state)).body).toEqual({ enabled: false });
  });
});
