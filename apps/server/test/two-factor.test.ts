import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as OTPAuth from 'otpauth';
import sharp from 'sharp';
import { fields, startTestApp, type TestApp } from './test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const codeAt = (secret: string, offsetSteps = 0) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: Date.now() + offsetSteps * 30_000 });

async function enable(client: ReturnType<TestApp['client']>) {
  const qr = await client.post('/api/users/2fa');
  const secret = qr.headers.get('x-otp-secret')!;
  const res = await client.put('/api/users/2fa', { code: codeAt(secret), enable: true });
  expect(res.body).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
  return secret;
}

describe('two-factor', () => {
  it('enrols with a QR PNG and a 6-digit code', async () => {
    const u = await t.signupVerified();
    expect((await u.client.get('/api/users/2fa')).body).toEqual({ enabled: false });
    const qr = await u.client.post('/api/users/2fa');
    expect(qr.status).toBe(200);
    expect(qr.headers.get('content-type')).toBe('image/png');
    const meta = await sharp(qr.buffer).metadata();
    expect(meta.format).toBe('png');
    const secret = qr.headers.get('x-otp-secret')!;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const wrong = await u.client.put('/api/users/2fa', { code: '000000', enable: true });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'INVALID_CODE', details: [{ field: 'code' }] });
    const short = await u.client.put('/api/users/2fa', { code: '12345', enable: true });
    expect(short.body.code).toBe('INVALID_CODE');
    expect((await u.client.put('/api/users/2fa', { code: codeAt(secret), enable: true })).body).toMatchObject({ enabled: true });
    expect((await u.client.get('/api/users/2fa')).body).toEqual({ enabled: true, recoveryCodesLeft: 10 });
  });

  it('refuses to enable without starting enrolment', async () => {
    const u = await t.signupVerified();
    const res = await u.client.put('/api/users/2fa', { code: '123456', enable: true });
    expect(res.body.code).toBe('TWO_FACTOR_NOT_STARTED');
  });

  it('makes sign-in owe a code: only /users/me and validate work until it is given', async () => {
    const u = await t.signupVerified();
    const secret = await enable(u.client);
    const { client, res } = await t.signin(u.email, u.password);
    expect(res.body.twoFactorRequired).toBe(true);
    expect((await client.get('/api/users/me')).body.twoFactorPending).toBe(true);
    expect((await client.get('/api/access-keys')).body.code).toBe('TWO_FACTOR_REQUIRED');
    expect((await client.get('/api/users/me/account')).status).toBe(401);
    const wrong = await client.post('/api/users/2fa/validate', { code: '999999' });
    expect(wrong.body.code).toBe('INVALID_CODE');
    // the code used to enable is spent; the next step's code is accepted (clock drift window)
    const before = client.cookies.get('lamella_session');
    const next = codeAt(secret, 1);
    const ok = await client.post('/api/users/2fa/validate', { code: next });
    expect(ok.status).toBe(200);
    expect(ok.body.user.twoFactorPending).toBe(false);
    expect(client.cookies.get('lamella_session')).not.toBe(before);
    expect((await client.get('/api/access-keys')).status).toBe(200);
    // a code is accepted once only
    const second = await t.signin(u.email, u.password);
    expect((await second.client.post('/api/users/2fa/validate', { code: next })).body.code).toBe('INVALID_CODE');
  });

  it('rate-limits code guesses', async () => {
    const u = await t.signupVerified();
    await enable(u.client);
    const { client } = await t.signin(u.email, u.password);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await client.post('/api/users/2fa/validate', { code: String(100000 + i) })).status);
    expect(statuses[10]).toBe(429);
  });

  it('disables with a valid code', async () => {
    const u = await t.signupVerified();
    const secret = await enable(u.client);
    expect((await u.client.put('/api/users/2fa', { code: '000000', enable: false })).status).toBe(400);
    expect((await u.client.put('/api/users/2fa', { code: codeAt(secret, 1), enable: false })).body).toEqual({ enabled: false });
    const { res } = await t.signin(u.email, u.password);
    expect(res.body.twoFactorRequired).toBe(false);
    void fields;
  });
});
