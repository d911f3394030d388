/**
 * The prerendered first screen of /dashboard (issue 30 item 5, platform/http/first-screen.ts): sent with the user's
 * initials and name, in their language, to a signed-in and verified user only; everyone else gets index.html.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasFirstScreen, seesFirstScreen, userLabels } from '../src/platform/http/first-screen.ts';
import type { AuthContext } from '../src/platform/auth/session.ts';
import { fields } from './http-client.ts';
import { startTestApp, STRONG_PASSWORD, type TestApp } from './test-app.ts';

const INDEX = '<!doctype html><title>plain index</title><div id="root"></div>';
const screen = (lng: string) =>
  `<!doctype html><html lang="${lng}"><div id="first-screen">${lng} <b>\uE001</b> <i>\uE002</i></div><div id="root"></div>`;

describe('first screen: which requests and whose labels', () => {
  it('is the dashboard route only', () => {
    for (const url of ['/dashboard', '/dashboard/', '/dashboard?project=1', '/dashboard/x']) expect(hasFirstScreen(url), url).toBe(true);
    for (const url of ['/', '/dashboards', '/history', '/auth/login?redirect=/dashboard', '/api/dashboard'])
      expect(hasFirstScreen(url), url).toBe(false);
  });

  it('shows the initials and name as the app does: name and surname, else the e-mail address', () => {
    expect(userLabels({ name: 'ada', surname: 'lovelace', email: 'a@x.org' })).toEqual({ initials: 'AL', name: 'ada lovelace' });
    expect(userLabels({ name: '', surname: '', email: 'zoe@x.org' })).toEqual({ initials: 'Z', name: 'zoe@x.org' });
  });

  it('is for a signed-in, verified user past the second factor, not impersonated, by session', () => {
    const base = { user: { emailVerified: true }, via: 'session', twoFactorPending: false, impersonatorId: null } as unknown as AuthContext;
    expect(seesFirstScreen(base)).toBe(true);
    expect(seesFirstScreen(null)).toBe(false);
    expect(seesFirstScreen({ ...base, twoFactorPending: true })).toBe(false);
    expect(seesFirstScreen({ ...base, user: { ...base.user, emailVerified: false } })).toBe(false);
    expect(seesFirstScreen({ ...base, impersonatorId: 'admin' })).toBe(false);
    expect(seesFirstScreen({ ...base, via: 'key' })).toBe(false);
  });
});

describe('first screen: what the server sends for /dashboard', () => {
  let t: TestApp;
  beforeAll(async () => {
    const dist = await mkdtemp(join(tmpdir(), 'lamella-first-screen-'));
    await mkdir(join(dist, 'first-screen'));
    await writeFile(join(dist, 'index.html'), INDEX);
    for (const lng of ['en', 'de']) await writeFile(join(dist, 'first-screen', `dashboard-${lng}.html`), screen(lng));
    t = await startTestApp({ webDist: dist });
  });
  afterAll(() => t.close());

  it('sends a signed-in user the screen with their initials and name (escaped), in their language, not to be stored', async () => {
    const u = await t.signupVerified({ name: '<Ada>', surname: '"Lovelace"' });
    const res = await u.client.get('/dashboard');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toBe(screen('en').replace('\uE001', '&lt;&quot;').replace('\uE002', '&lt;Ada&gt; &quot;Lovelace&quot;'));
    expect((await u.client.get('/dashboard?project=abc')).body).toContain('id="first-screen"');
    // the user's language, whatever the browser asks for
    expect((await u.client.request('PATCH', '/api/users/me', { json: { language: 'de' } })).status).toBe(200);
    const de = await u.client.get('/dashboard', { 'accept-language': 'en-US' });
    expect(de.body).toContain('<html lang="de">');
    // other signed-in pages: index.html
    expect((await u.client.get('/history')).body).toBe(INDEX);
  });

  it('sends index.html to everyone else: no session, an ended or unknown session, an unverified e-mail', async () => {
    expect((await t.client().get('/dashboard')).body).toBe(INDEX);
    // the pages themselves are not static files
    expect((await t.client().get('/first-screen/dashboard-en.html')).body).toBe(INDEX);
    const stranger = t.client();
    stranger.cookies.set('lamella_session', 'not-a-session');
    expect((await stranger.get('/dashboard')).body).toBe(INDEX);
    const u = await t.signupVerified();
    const token = u.client.cookies.get('lamella_session')!;
    expect((await u.client.post('/api/auth/signout')).status).toBeLessThan(300);
    u.client.cookies.set('lamella_session', token);
    expect((await u.client.get('/dashboard')).body).toBe(INDEX);
    const unverified = t.client();
    const signup = await unverified.post(
      '/api/auth/signup',
      fields({ email: `fs-${Date.now()}@example.com`, password: STRONG_PASSWORD, name: 'A', surname: 'B', company: 'C' }),
    );
    expect(signup.status).toBe(200);
    const res = await unverified.get('/dashboard');
    expect(res.status).toBe(200);
    expect(res.body).toBe(INDEX);
  });
});
