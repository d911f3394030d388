import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import { authApi, usersApi } from '@lamella/contracts';
import { ADMIN, startTestApp, type TestApp } from './test-app.ts';

/**
 * Issue 28 item 9 (low items): sockets of ended sessions are closed; NUL characters and out-of-range numbers answer
 * 400 naming the field; the GET force-logout only from this site.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const sockets: Socket[] = [];
afterAll(() => sockets.forEach((s) => s.close()));

async function until(check: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A socket of the client's session; resolves once connected. */
async function socketOf(client: ReturnType<TestApp['client']>) {
  const socket = connect(t.baseUrl, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    extraHeaders: { cookie: `lamella_session=${client.cookies.get('lamella_session')}` },
  });
  sockets.push(socket);
  await until(() => socket.connected);
  return socket;
}

describe('sockets of ended sessions', () => {
  it('sign-out closes that session’s socket, not the sockets of the user’s other sessions', async () => {
    const u = await t.signupVerified();
    const other = await t.signin(u.email, u.password);
    const mine = await socketOf(u.client);
    const theirs = await socketOf(other.client);
    expect((await u.client.call(authApi.signout)).status).toBe(200);
    await until(() => !mine.connected);
    await new Promise((r) => setTimeout(r, 300));
    expect(theirs.connected).toBe(true);
  });

  it('force-logout closes every socket of the user; a password change closes the other sessions’ sockets', async () => {
    const u = await t.signupVerified();
    const a = await socketOf(u.client);
    const second = await t.signin(u.email, u.password);
    const b = await socketOf(second.client);
    const bystander = await t.signupVerified();
    const c = await socketOf(bystander.client);
    expect((await second.client.call(usersApi.forceLogout)).status).toBe(200);
    await until(() => !a.connected && !b.connected);
    expect(c.connected).toBe(true);

    const again = await t.signin(u.email, u.password);
    const kept = await socketOf(again.client);
    const third = await t.signin(u.email, u.password);
    const dropped = await socketOf(third.client);
    const changed = await again.client.call(usersApi.updateAuth, { body: { currentPassword: u.password, newPassword: 'Brand-New-Pass-42' } });
    expect(changed.status).toBe(200);
    await until(() => !dropped.connected);
    expect(kept.connected).toBe(true);
  });
});

describe('input the database cannot take answers 400 naming the field', () => {
  it('NUL characters in a JSON body and in a query', async () => {
    const u = await t.signupVerified();
    const body = await u.client.call(usersApi.updateProfile, { body: { name: 'Ada\u0000' } });
    expect(body.status).toBe(400);
    expect(body.body).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'name', key: 'errors.nulCharacter' }] });
    const nested = await u.client.call(usersApi.updateProfile, { body: { address: { country: 'DE', city: 'B\u0000erlin' } } });
    expect(nested.body).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'address.city' }] });
    const query = await u.client.get('/api/images/library?search=%00');
    expect(query.status).toBe(400);
    expect(query.body).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'querystring.search' }] });
    expect((await u.client.call(usersApi.account)).body.name).toBe('Ada');
  });

  it('page=1e309 and page=99999999999999999999', async () => {
    const { client: admin } = await t.signin(ADMIN.email, ADMIN.password);
    for (const page of ['1e309', '99999999999999999999', '3000000000']) {
      const res = await admin.get(`/api/admin/audit-log?page=${page}`);
      expect(res.status, page).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.details[0].field).toMatch(/page/);
    }
    const u = await t.signupVerified();
    const res = await u.client.get('/api/images/library?page=99999999999999999999');
    expect(res.status).toBe(400);
    expect(res.body.details[0].field).toMatch(/page/);
    expect((await admin.get('/api/admin/audit-log?page=2')).status).toBe(200);
  });
});

describe('logout by GET', () => {
  it('is refused when another site made the request, accepted from this site and from scripts', async () => {
    const u = await t.signupVerified();
    const crossSite = await u.client.get('/api/users/me/force-logout', { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.code).toBe('CROSS_SITE_REQUEST');
    const byReferer = await u.client.get('/api/users/me/force-logout', { referer: 'https://evil.example/page' });
    expect(byReferer.status).toBe(403);
    expect((await u.client.call(usersApi.me)).status).toBe(200);
    const sameSite = await u.client.get('/api/users/me/force-logout', { 'sec-fetch-site': 'same-origin' });
    expect(sameSite.status).toBe(200);
    expect((await u.client.call(usersApi.me)).status).toBe(401);
    const v = await t.signupVerified();
    expect((await v.client.get('/api/users/me/force-logout')).status).toBe(200);
  });
});
