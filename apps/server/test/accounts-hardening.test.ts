import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as OTPAuth from 'otpauth';
import { accessKeysApi, authApi, systemApi, twoFactorApi, usersApi } from '@lamella/contracts';
import { parseTrustProxy } from '../src/config.ts';
import { RESET_ANSWER_MS } from '../src/modules/auth/service.ts';
import { startTestApp, tokenFrom, type TestApp } from './test-app.ts';

/**
 * Issue 9 items 4, 5, 8 and 10 (accounts part): client addresses, password guesses, one TOTP code per
 * session, security headers, access keys after a password change, force-logout by POST, reset timing.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const lifted = { max: 100_000, windowMs: 60_000 };
/** Real per-address limits for one test (the test app lifts them: every test client is 127.0.0.1). */
async function withAddressLimit(name: 'signinAddress' | 'signupAddress' | 'resetAddress' | 'otpAddress', max: number, run: () => Promise<void>) {
  t.limiter.limits[name] = { max, windowMs: 60_000 };
  t.limiter.clear();
  try {
    await run();
  } finally {
    t.limiter.limits[name] = lifted;
  }
}
/** A typed `formFields` body. */
const form = (values: Record<string, string>) => ({ formFields: Object.entries(values).map(([id, value]) => ({ id, value })) });
const forged = (i: number) => ({ 'x-forwarded-for': `203.0.113.${i}` });
const codeAt = (secret: string, offsetSteps = 0) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: Date.now() + offsetSteps * 30_000 });

async function userWithTwoFactor() {
  const u = await t.signupVerified();
  const qr = await u.client.call(twoFactorApi.start);
  const secret = qr.headers.get('x-otp-secret')!;
  expect((await u.client.call(twoFactorApi.update, { body: { code: codeAt(secret), enable: true } })).body).toMatchObject({ enabled: true });
  return { ...u, secret };
}

describe('client addresses (TRUST_PROXY)', () => {
  it('parses TRUST_PROXY: unset is off, a number is a hop count, a list names proxies', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.1, 10.1.0.0/16,::1')).toEqual(['10.0.0.1', '10.1.0.0/16', '::1']);
    expect(() => parseTrustProxy('yes please')).toThrow(/TRUST_PROXY/);
  });

  it('sign-in: the per-address limit holds against a forged X-Forwarded-For', async () => {
    await withAddressLimit('signinAddress', 3, async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await t.client(forged(i)).call(authApi.signin, { body: form({ email: 'nobody@example.com', password: 'x' }) });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
    });
  });

  it("sign-in: the per-address limit is per address and account, so one person's typos never lock out colleagues behind one address", async () => {
    const colleagues = await Promise.all([1, 2, 3, 4, 5].map(() => t.signupVerified()));
    await withAddressLimit('signinAddress', 3, async () => {
      for (const c of colleagues)
        expect((await t.client().call(authApi.signin, { body: form({ email: c.email, password: c.password }) })).status).toBe(200);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await t.client().call(authApi.signin, { body: form({ email: colleagues[0]!.email, password: 'Wrong-1' }) })).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
      // the limit, once reached, holds for that account's right password too (for its window, which it names)
      const right0 = await t.client().call(authApi.signin, { body: form({ email: colleagues[0]!.email, password: colleagues[0]!.password }) });
      expect(right0.status).toBe(429);
      expect(Number(right0.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((right0.body as unknown as { message: string }).message).toMatch(/wait 1 min/);
      // a colleague at the same address signs in
      const right1 = await t.client().call(authApi.signin, { body: form({ email: colleagues[1]!.email, password: colleagues[1]!.password }) });
      expect(right1.status).toBe(200);
    });
  });

  it('signup: the per-address limit holds against a forged X-Forwarded-For', async () => {
    await withAddressLimit('signupAddress', 2, async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await t.client(forged(i)).call(authApi.signup, { body: form({ email: `x${i}` }) })).status);
      expect(statuses).toEqual([400, 400, 429]);
    });
  });

  it('reset: the per-address limit holds against a forged X-Forwarded-For', async () => {
    await withAddressLimit('resetAddress', 2, async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await t.client(forged(i)).call(authApi.requestPasswordReset, { body: form({ email: `ghost${i}@example.com` }) });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([200, 200, 429]);
    });
  });

  it('OTP: the per-address limit holds against a forged X-Forwarded-For', async () => {
    const u = await userWithTwoFactor();
    const { client } = await t.signin(u.email, u.password);
    await withAddressLimit('otpAddress', 2, async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await client.call(twoFactorApi.validate, { body: { code: String(100000 + i) }, headers: forged(i) } as never);
        statuses.push(res.status);
      }
      expect(statuses).toEqual([400, 400, 429]);
    });
  });
});

describe('current-password guesses (PATCH /users/me/auth)', () => {
  it('answers 429 with Retry-After after 5 wrong guesses, then refuses even the right password and changes nothing', async () => {
    const u = await t.signupVerified();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await u.client.call(usersApi.updateAuth, { body: { currentPassword: `wrong-${i}`, email: 'new@example.com' } })).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400]);
    const limited = await u.client.call(usersApi.updateAuth, { body: { currentPassword: u.password, email: 'new@example.com' } });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'RATE_LIMITED' });
    expect((limited.body as unknown as { message: string }).message).toMatch(/Too many wrong passwords/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await u.client.call(usersApi.account)).body.email).toBe(u.email);
  });

  it('a right password resets the count', async () => {
    const u = await t.signupVerified();
    for (let i = 0; i < 4; i++) await u.client.call(usersApi.updateAuth, { body: { currentPassword: 'wrong' } });
    expect((await u.client.call(usersApi.updateAuth, { body: { currentPassword: u.password } })).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await u.client.call(usersApi.updateAuth, { body: { currentPassword: 'wrong' } })).status).toBe(400);
  });
});

describe('one TOTP code opens one session', () => {
  it('concurrent validations of the same code: exactly one succeeds', async () => {
    const u = await userWithTwoFactor();
    const pending = await Promise.all(Array.from({ length: 6 }, () => t.signin(u.email, u.password)));
    const code = codeAt(u.secret, 1);
    const results = await Promise.all(pending.map(({ client }) => client.call(twoFactorApi.validate, { body: { code } })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 400, 400, 400, 400, 400]);
    expect(results.filter((r) => r.status === 400).every((r) => (r.body as unknown as { code: string }).code === 'INVALID_CODE')).toBe(true);
  });
});

describe('security headers', () => {
  it('every answer carries CSP, framing refusal, nosniff and a referrer policy', async () => {
    for (const path of ['/api/version', '/api/users/me', '/api/docs', '/api/nothing-here', '/']) {
      const res = await t.client().get(path);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("default-src 'self'");
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).toContain("style-src 'self' 'unsafe-inline'");
      expect(csp, path).toContain("connect-src 'self' ws: wss:");
      expect(csp, path).toContain("img-src 'self' data: blob:");
      expect(csp, path).not.toContain('upgrade-insecure-requests');
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), path).toBe('same-origin');
    }
  });

  it('authenticated API answers are no-store; public ones are not', async () => {
    const u = await t.signupVerified();
    expect((await u.client.call(usersApi.me)).headers.get('cache-control')).toBe('no-store');
    expect((await u.client.call(accessKeysApi.list)).headers.get('cache-control')).toBe('no-store');
    expect((await t.client().call(usersApi.me)).headers.get('cache-control')).toBe('no-store');
    expect((await t.client().call(systemApi.version)).headers.get('cache-control')).not.toBe('no-store');
    expect((await t.client().call(systemApi.translations, { params: { lng: 'en' } })).headers.get('cache-control')).toBe('no-cache');
  });
});

describe('access keys and passwords', () => {
  it('a request authenticated by an access key cannot create keys (403); anonymous 401', async () => {
    const u = await t.signupVerified();
    const key = await u.client.ok(accessKeysApi.create, { body: { name: 'script' } });
    const viaKey = t.client({ authorization: `Bearer ${key.code}` });
    const refused = await viaKey.call(accessKeysApi.create, { body: { name: 'child' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'ACCESS_KEY_CANNOT_CREATE_KEYS' });
    expect((await u.client.call(accessKeysApi.list)).body).toHaveLength(1);
    expect((await t.client().call(accessKeysApi.create, { body: { name: 'x' } })).status).toBe(401);
    expect((await viaKey.call(accessKeysApi.list)).status).toBe(200);
  });

  it('a password reset revokes the access keys', async () => {
    const u = await t.signupVerified();
    const key = await u.client.ok(accessKeysApi.create, { body: { name: 'script' } });
    await t.client().ok(authApi.requestPasswordReset, { body: form({ email: u.email }) });
    const mail = await t.mailbox.waitFor(u.email, /reset-password/);
    await t.client().ok(authApi.resetPassword, {
      body: { method: 'token', token: tokenFrom(mail, '/auth/reset-password'), formFields: [{ id: 'password', value: 'Another-Horse-8' }] },
    });
    expect((await t.client({ authorization: `Bearer ${key.code}` }).call(usersApi.me)).status).toBe(401);
    const { client } = await t.signin(u.email, 'Another-Horse-8');
    expect((await client.call(accessKeysApi.list)).body).toEqual([]);
  });

  it('a password change revokes the access keys; an e-mail-only change keeps them', async () => {
    const mover = await t.signupVerified();
    const kept = await mover.client.ok(accessKeysApi.create, { body: { name: 'script' } });
    await mover.client.ok(usersApi.updateAuth, { body: { currentPassword: mover.password, email: `moved-${Date.now()}@example.com` } });
    expect((await t.client({ authorization: `Bearer ${kept.code}` }).call(usersApi.me)).status).toBe(200);

    const u = await t.signupVerified();
    const key = await u.client.ok(accessKeysApi.create, { body: { name: 'script' } });
    const viaKey = t.client({ authorization: `Bearer ${key.code}` });
    expect((await viaKey.call(usersApi.me)).status).toBe(200);
    await u.client.ok(usersApi.updateAuth, { body: { currentPassword: u.password, newPassword: 'Another-Horse-8' } });
    expect((await viaKey.call(usersApi.me)).status).toBe(401);
    expect((await u.client.call(usersApi.me)).status).toBe(200);
  });
});

describe('force-logout', () => {
  it('POST ends every session of the user (GET still works); anonymous 401', async () => {
    const u = await t.signupVerified();
    const other = await t.signin(u.email, u.password);
    expect((await t.client().call(usersApi.forceLogout)).status).toBe(401);
    expect((await u.client.call(usersApi.forceLogout)).body).toEqual({ status: 'OK' });
    expect((await u.client.call(usersApi.me)).status).toBe(401);
    expect((await other.client.call(usersApi.me)).status).toBe(401);
    const again = await t.signin(u.email, u.password);
    expect((await again.client.call(usersApi.forceLogoutGet)).body).toEqual({ status: 'OK' });
    expect((await again.client.call(usersApi.me)).status).toBe(401);
  });
});

describe('password reset timing', () => {
  it('answers known and unknown addresses identically and in about the same time', async () => {
    const u = await t.signupVerified();
    const time = async (email: string) => {
      const started = performance.now();
      const res = await t.client().call(authApi.requestPasswordReset, { body: form({ email }) });
      return { ms: performance.now() - started, status: res.status, body: JSON.stringify(res.body) };
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 4; i++) {
      const a = await time(u.email);
      const b = await time(`ghost-${i}-${Date.now()}@example.com`);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(a.body).toBe(b.body);
      known.push(a.ms);
      unknown.push(b.ms);
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    expect(Math.min(...known, ...unknown)).toBeGreaterThanOrEqual(RESET_ANSWER_MS - 5);
    expect(Math.abs(median(known) - median(unknown))).toBeLessThan(100);
  });
});
