/**
 * The readable session marker (platform/auth/session.ts SIGNED_IN_COOKIE) and the pages' session hints
 * (platform/http/session-hints.ts): the web app asks GET /users/me only where the browser has a session, so a
 * signed-out visitor's page logs no 401; a signed-in one still gets the session preloaded with the page.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminUsersApi } from '@lamella/contracts';
import { ADMIN, startTestApp, type TestApp } from './test-app.ts';
import type { Res } from './http-client.ts';

const INDEX = '<!doctype html><title>index</title><div id="root"></div>';
const HINT = '</api/users/me>; rel=preload; as=fetch; crossorigin=use-credentials';

/** The Set-Cookie line of `name` in `res`, or undefined. */
const setCookie = (res: Res, name: string) => res.headers.getSetCookie().find((line) => line.startsWith(name + '='));
const cleared = (line: string | undefined) => !!line && (/^[^=]+=;/.test(line) || /expires=Thu, 01 Jan 1970/i.test(line));

let t: TestApp;
beforeAll(async () => {
  const dist = await mkdtemp(join(tmpdir(), 'lamella-session-marker-'));
  await writeFile(join(dist, 'index.html'), INDEX);
  t = await startTestApp({ webDist: dist });
});
afterAll(() => t?.close());

describe('the session marker', () => {
  it('comes with the session cookie at sign-in, readable by the page, with the same lifetime; sign-out clears both', async () => {
    const u = await t.signupVerified();
    const { client, res } = await t.signin(u.email, u.password);
    expect(res.status).toBe(200);
    const session = setCookie(res, 'lamella_session')!;
    const marker = setCookie(res, 'lamella_signed_in')!;
    expect(session).toMatch(/HttpOnly/i);
    expect(marker).toMatch(/^lamella_signed_in=1;/);
    expect(marker).not.toMatch(/HttpOnly/i);
    expect(marker).toMatch(/SameSite=Lax/i);
    expect(/Expires=([^;]+)/i.exec(marker)?.[1]).toBe(/Expires=([^;]+)/i.exec(session)?.[1]);
    expect(client.cookies.get('lamella_signed_in')).toBe('1');
    const out = await client.post('/api/auth/signout');
    expect(out.status).toBe(200);
    expect(cleared(setCookie(out, 'lamella_session'))).toBe(true);
    expect(cleared(setCookie(out, 'lamella_signed_in'))).toBe(true);
    expect(client.cookies.has('lamella_signed_in')).toBe(false);
  });

  it('GET /users/me keeps its 401 for a caller without a session (the spec’d call is unchanged)', async () => {
    expect((await t.client().get('/api/users/me')).status).toBe(401);
  });

  it('goes with "sign out everywhere" and stays with an impersonation and its end', async () => {
    const u = await t.signupVerified();
    const out = await u.client.post('/api/users/me/force-logout');
    expect(out.status).toBe(200);
    expect(cleared(setCookie(out, 'lamella_signed_in'))).toBe(true);

    const victim = await t.signupVerified();
    const { client: admin } = await t.signin(ADMIN.email, ADMIN.password);
    const start = await admin.call(adminUsersApi.impersonate, { params: { id: victim.id } });
    expect(start.status).toBe(200);
    expect(setCookie(start, 'lamella_signed_in')).toMatch(/^lamella_signed_in=1;/);
    const back = await admin.post('/api/auth/signout');
    expect(back.status).toBe(200);
    // the admin's own session is back: so is the marker
    expect(setCookie(back, 'lamella_signed_in')).toMatch(/^lamella_signed_in=1;/);
    expect(admin.cookies.get('lamella_signed_in')).toBe('1');
    expect((await admin.get('/api/users/me')).status).toBe(200);
  });
});

describe('the pages’ session hints', () => {
  it('a visitor without a session: the page, no preload of the session, no cookie', async () => {
    for (const path of ['/', '/auth/login', '/dashboard']) {
      const res = await t.client().get(path);
      expect(res.status, path).toBe(200);
      expect(res.body, path).toBe(INDEX);
      expect(res.headers.get('link'), path).toBeNull();
      expect(res.headers.getSetCookie(), path).toEqual([]);
    }
  });

  it('a signed-in browser: the session is preloaded with the page (a Link header)', async () => {
    const u = await t.signupVerified();
    for (const path of ['/', '/history', '/dashboard']) {
      const res = await u.client.get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('link'), path).toBe(HINT);
    }
  });

  it('a session from before the marker gets it on its next page; an ended one loses its cookie; a lone marker goes', async () => {
    const u = await t.signupVerified();
    u.client.cookies.delete('lamella_signed_in');
    const res = await u.client.get('/history');
    expect(setCookie(res, 'lamella_signed_in')).toMatch(/^lamella_signed_in=1;/);
    expect(setCookie(res, 'lamella_signed_in')).not.toMatch(/HttpOnly/i);
    expect(res.headers.get('link')).toBe(HINT);
    expect(u.client.cookies.get('lamella_signed_in')).toBe('1');

    const stranger = t.client();
    stranger.cookies.set('lamella_session', 'not-a-session');
    const stale = await stranger.get('/auth/login');
    expect(stale.status).toBe(200);
    expect(cleared(setCookie(stale, 'lamella_session'))).toBe(true);
    expect(setCookie(stale, 'lamella_signed_in')?.startsWith('lamella_signed_in=1')).not.toBe(true);
    expect(stale.headers.get('link')).toBeNull();
    expect(stranger.cookies.has('lamella_session')).toBe(false);

    const lone = t.client();
    lone.cookies.set('lamella_signed_in', '1');
    const page = await lone.get('/auth/login');
    expect(cleared(setCookie(page, 'lamella_signed_in'))).toBe(true);
    expect(page.headers.get('link')).toBeNull();
  });
});
