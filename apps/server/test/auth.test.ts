import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { userTokens, users, licenses, sessions } from '../src/platform/db/schema/index.ts';
import { ADMIN, STRONG_PASSWORD, fields, startTestApp, tokenFrom, type TestApp } from './test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const signupFields = (email: string, extra: Record<string, unknown> = {}) =>
  fields({ email, password: STRONG_PASSWORD, name: 'Grace', surname: 'Hopper', company: 'Navy Labs', ...extra });

describe('signup', () => {
  it('creates the account, a DEMO license, a session, and mails a verification link', async () => {
    const c = t.client();
    const res = await c.post('/api/auth/signup', signupFields('Grace@Example.com ', { phone: '+49 211 1234567', subscribe: true }));
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ email: 'grace@example.com', role: 'USER', emailVerified: false, fullName: 'Grace Hopper' });
    const me = await c.get('/api/users/me');
    expect(me.body.emailVerified).toBe(false);
    // unverified: app calls are refused until the address is confirmed
    expect((await c.get('/api/access-keys')).body.code).toBe('EMAIL_NOT_VERIFIED');
    const mail = await t.mailbox.waitFor('grace@example.com', /verify-email/);
    expect(mail.subject).toMatch(/Confirm your e-mail/);
    const [user] = await t.db.select().from(users).where(eq(users.email, 'grace@example.com'));
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    const [license] = await t.db.select().from(licenses).where(eq(licenses.userId, user.id));
    expect(license).toMatchObject({ type: 'DEMO', images: 20, createdBy: 'SYSTEM' });
    const days = (license.finishAt!.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29);
    expect(days).toBeLessThan(31);
    const ok = await c.post('/api/auth/user/email/verify', { method: 'token', token: tokenFrom(mail, '/auth/verify-email') });
    expect(ok.status).toBe(200);
    expect((await c.get('/api/users/me')).body.emailVerified).toBe(true);
    expect((await c.get('/api/access-keys')).status).toBe(200);
  });

  it('gives the 2 extra trial months with training consent', async () => {
    const res = await t.client().post('/api/auth/signup', signupFields('consent@example.com', { trainingConsent: true }));
    const [license] = await t.db.select().from(licenses).where(eq(licenses.userId, res.body.user.id));
    const days = (license.finishAt!.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(89);
  });

  it('rejects every rule of accounts.md §5 with 400 naming the field, and stores nothing', async () => {
    const c = t.client();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ name: ' ' }, 'name', 'validation.required'],
      [{ surname: '' }, 'surname', 'validation.required'],
      [{ company: '' }, 'company', 'validation.required'],
      [{ email: 'no-at-sign' }, 'email', 'auth.emailInvalid'],
      [{ email: 'a b@c.de' }, 'email', 'auth.emailInvalid'],
      [{ password: 'alllowercase1!' }, 'password', 'auth.passwordValidator.uppercase'],
      [{ password: 'ALLUPPERCASE1!' }, 'password', 'auth.passwordValidator.lowercase'],
      [{ password: 'NoDigitsOrSpecials' }, 'password', 'auth.passwordValidator.digitOrSpecial'],
      [{ password: 'Short-1a' }, 'password', 'auth.passwordValidator.length'],
      [{ phone: '0211 1234' }, 'phone', 'auth.phoneInvalid'],
      [{ phone: '+49 12' }, 'phone', 'auth.phoneInvalid'],
    ];
    for (const [override, field, key] of cases) {
      const email = `bad-${field}-${Math.random().toString(36).slice(2)}@example.com`;
      const res = await c.post('/api/auth/signup', signupFields(email, override));
      expect(res.status, `${field} ${JSON.stringify(override)}`).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.details).toContainEqual(expect.objectContaining({ field, key }));
      expect(res.body.message).toContain(field === 'phone' ? 'Phone' : '');
    }
    const rows = await t.db.select().from(users);
    expect(rows.some((u) => u.email.startsWith('bad-'))).toBe(false);
  });

  it('answers validation messages in German for a German caller', async () => {
    const res = await t
      .client({ 'accept-language': 'de-DE,de;q=0.9' })
      .post('/api/auth/signup', signupFields('de@example.com', { password: 'short' }));
    expect(res.status).toBe(400);
    expect(res.body.details[0].message).toMatch(/Großbuchstaben|Passwort/);
  });

  it('refuses a second account with the same address (any case)', async () => {
    await t.client().post('/api/auth/signup', signupFields('twice@example.com'));
    const res = await t.client().post('/api/auth/signup', signupFields('TWICE@example.com'));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('EMAIL_EXISTS');
  });

  it('refuses a malformed body', async () => {
    const res = await t.client().post('/api/auth/signup', { formFields: 'nope' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.details[0].field).toMatch(/^formFields/);
  });
});

describe('e-mail verification', () => {
  it('refuses wrong, reused and expired tokens', async () => {
    const c = t.client();
    await c.post('/api/auth/signup', signupFields('verify@example.com'));
    const mail = await t.mailbox.waitFor('verify@example.com', /verify-email/);
    const token = tokenFrom(mail, '/auth/verify-email');
    // Change the first character to a different one (a fixed 'x' would equal the real token 1 time in 64).
    const tampered = (token[0] === 'a' ? 'b' : 'a') + token.slice(1);
    const wrong = await c.post('/api/auth/user/email/verify', { method: 'token', token: tampered });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('INVALID_TOKEN');
    expect((await c.post('/api/auth/user/email/verify', { method: 'token', token })).status).toBe(200);
    const reused = await c.post('/api/auth/user/email/verify', { method: 'token', token });
    expect(reused.body.code).toBe('INVALID_TOKEN');

    const c2 = t.client();
    const res = await c2.post('/api/auth/signup', signupFields('expired@example.com'));
    const mail2 = await t.mailbox.waitFor('expired@example.com', /verify-email/);
    await t.db
      .update(userTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(userTokens.userId, res.body.user.id));
    const expired = await c2.post('/api/auth/user/email/verify', { method: 'token', token: tokenFrom(mail2, '/auth/verify-email') });
    expect(expired.body.code).toBe('INVALID_TOKEN');
    expect((await c2.get('/api/users/me')).body.emailVerified).toBe(false);
  });

  it('resends at most once per 60 s, and the new mail replaces the old link', async () => {
    const c = t.client();
    const res = await c.post('/api/auth/signup', signupFields('resend@example.com'));
    const first = await t.mailbox.waitFor('resend@example.com', /verify-email/);
    const tooSoon = await c.post('/api/auth/user/email/verify/token');
    expect(tooSoon.status).toBe(429);
    expect(Number(tooSoon.headers.get('retry-after'))).toBeGreaterThan(50);
    await t.db
      .update(users)
      .set({ lastVerificationMailAt: new Date(Date.now() - 61_000) })
      .where(eq(users.id, res.body.user.id));
    const count = t.mailbox.messages.length;
    const again = await c.post('/api/auth/user/email/verify/token');
    expect(again.body).toEqual({ status: 'OK' });
    await expect.poll(() => t.mailbox.messages.length).toBe(count + 1);
    const second = t.mailbox.messages[t.mailbox.messages.length - 1];
    expect(tokenFrom(second, '/auth/verify-email')).not.toBe(tokenFrom(first, '/auth/verify-email'));
    expect((await c.post('/api/auth/user/email/verify', { method: 'token', token: tokenFrom(first, '/auth/verify-email') })).status).toBe(400);
    expect((await c.post('/api/auth/user/email/verify', { method: 'token', token: tokenFrom(second, '/auth/verify-email') })).status).toBe(200);
    expect((await c.post('/api/auth/user/email/verify/token')).body).toEqual({ status: 'EMAIL_ALREADY_VERIFIED_ERROR' });
  });

  it('needs a session to resend', async () => {
    expect((await t.client().post('/api/auth/user/email/verify/token')).status).toBe(401);
  });
});

describe('signin and signout', () => {
  it('signs in with the right password, rotating the session cookie', async () => {
    const u = await t.signupVerified();
    const oldCookie = u.client.cookies.get('lamella_session');
    const res = await u.client.post('/api/auth/signin', fields({ email: u.email.toUpperCase(), password: u.password }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'OK', twoFactorRequired: false, user: { email: u.email } });
    const cookieHeader = res.headers.get('set-cookie')!;
    expect(cookieHeader).toMatch(/HttpOnly/i);
    expect(cookieHeader).toMatch(/SameSite=Lax/i);
    expect(u.client.cookies.get('lamella_session')).not.toBe(oldCookie);
    // the old session is gone
    const stale = t.client();
    stale.cookies.set('lamella_session', oldCookie!);
    expect((await stale.get('/api/users/me')).status).toBe(401);
    expect((await u.client.get('/api/users/me')).status).toBe(200);
  });

  it('refuses a wrong password or unknown address with 401 and the same message', async () => {
    const u = await t.signupVerified();
    const wrong = await t.client().post('/api/auth/signin', fields({ email: u.email, password: 'Wrong-Password-1' }));
    const unknown = await t.client().post('/api/auth/signin', fields({ email: 'nobody@example.com', password: 'Wrong-Password-1' }));
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.message).toBe(unknown.body.message);
    expect(wrong.body.code).toBe('INVALID_CREDENTIALS');
  });

  it('refuses a BLOCKED user with 403 and the server message, and ends their sessions', async () => {
    const u = await t.signupVerified();
    await t.db.update(users).set({ role: 'BLOCKED' }).where(eq(users.email, u.email));
    expect((await u.client.get('/api/users/me')).status).toBe(401);
    const res = await t.client().post('/api/auth/signin', fields({ email: u.email, password: u.password }));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('ACCOUNT_BLOCKED');
    expect(res.body.message).toMatch(/blocked/);
  });

  it('rate-limits sign-in per account', async () => {
    const u = await t.signupVerified();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await t.client().post('/api/auth/signin', fields({ email: u.email, password: 'Wrong-Password-1' }))).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    const right = await t.client().post('/api/auth/signin', fields({ email: u.email, password: u.password }));
    expect(right.status).toBe(429);
    expect(right.body.code).toBe('RATE_LIMITED');
  });

  it('signs out', async () => {
    const u = await t.signupVerified();
    expect((await u.client.post('/api/auth/signout')).body).toEqual({ status: 'OK' });
    expect((await u.client.get('/api/users/me')).status).toBe(401);
  });

  it('lets the first admin sign in', async () => {
    const { res } = await t.signin(ADMIN.email, ADMIN.password);
    expect(res.status).toBe(200);
    expect(res.body.user.role).toBe('ADMIN');
  });
});

describe('password reset', () => {
  it('mails a single-use link, sets the new password, and ends old sessions', async () => {
    const u = await t.signupVerified();
    const anon = t.client();
    expect((await anon.post('/api/auth/user/password/reset/token', fields({ email: u.email }))).body).toEqual({ status: 'OK' });
    const mail = await t.mailbox.waitFor(u.email, /reset-password/);
    const token = tokenFrom(mail, '/auth/reset-password');
    const weak = await anon.post('/api/auth/user/password/reset', { method: 'token', token, formFields: [{ id: 'password', value: 'weak' }] });
    expect(weak.status).toBe(400);
    expect(weak.body.details[0]).toMatchObject({ field: 'password', key: 'auth.passwordValidator.uppercase' });
    const ok = await anon.post('/api/auth/user/password/reset', {
      method: 'token',
      token,
      formFields: [{ id: 'password', value: 'New-Password-42' }],
    });
    expect(ok.status).toBe(200);
    expect((await u.client.get('/api/users/me')).status).toBe(401);
    const reused = await anon.post('/api/auth/user/password/reset', {
      method: 'token',
      token,
      formFields: [{ id: 'password', value: 'Other-Password-42' }],
    });
    expect(reused.body.code).toBe('INVALID_TOKEN');
    expect((await t.signin(u.email, u.password)).res.status).toBe(401);
    expect((await t.signin(u.email, 'New-Password-42')).res.status).toBe(200);
  });

  it('answers OK for unknown addresses without sending mail, refuses bad addresses, and expired tokens', async () => {
    const count = t.mailbox.messages.length;
    expect((await t.client().post('/api/auth/user/password/reset/token', fields({ email: 'ghost@example.com' }))).status).toBe(200);
    expect((await t.client().post('/api/auth/user/password/reset/token', fields({ email: 'not an email' }))).status).toBe(400);
    expect(t.mailbox.messages.length).toBe(count);
    const u = await t.signupVerified();
    await t.client().post('/api/auth/user/password/reset/token', fields({ email: u.email }));
    const mail = await t.mailbox.waitFor(u.email, /reset-password/);
    const [row] = await t.db.select().from(users).where(eq(users.email, u.email));
    await t.db
      .update(userTokens)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(userTokens.userId, row.id));
    const res = await t.client().post('/api/auth/user/password/reset', {
      method: 'token',
      token: tokenFrom(mail, '/auth/reset-password'),
      formFields: [{ id: 'password', value: 'New-Password-42' }],
    });
    expect(res.body.code).toBe('INVALID_TOKEN');
  });

  it('stores tokens only as hashes', async () => {
    const rows = await t.db.select().from(userTokens);
    const sess = await t.db.select().from(sessions);
    for (const r of [...rows.map((x) => x.tokenHash), ...sess.map((s) => s.tokenHash)]) expect(r).toMatch(/^[0-9a-f]{64}$/);
    const mail = t.mailbox.messages.find((m) => /reset-password/.test(m.text))!;
    const token = tokenFrom(mail, '/auth/reset-password');
    expect(rows.some((r) => r.tokenHash === token)).toBe(false);
  });
});
