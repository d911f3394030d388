/**
 * Terms (issue 11 item 5): the public text per language, the back-office editor (ADMIN only), versioning shared by
 * both languages, acceptance at sign-up and of a newer version after sign-in, the audit trail and the
 * authorization matrix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { termsApi } from '@lamella/contracts';
import { ADMIN, startTestApp, type TestApp } from './test-app.ts';
import { auditLog, termsAcceptances, termsVersions, users } from '../src/platform/db/schema/index.ts';
import type { HttpClient } from './http-client.ts';

let t: TestApp;
let admin: HttpClient;
let adminId = '';
let editor: HttpClient;
let power: HttpClient;
let alice: HttpClient;
let aliceId = '';

async function withRole(role: 'EDITOR' | 'POWER_USER') {
  const u = await t.signupVerified();
  await t.db.update(users).set({ role }).where(eq(users.id, u.id));
  return (await t.signin(u.email, u.password)).client;
}

beforeAll(async () => {
  t = await startTestApp();
  const signed = await t.signin(ADMIN.email, ADMIN.password);
  admin = signed.client;
  adminId = signed.res.body.user.id;
  editor = await withRole('EDITOR');
  power = await withRole('POWER_USER');
  const a = await t.signupVerified();
  alice = a.client;
  aliceId = a.id;
});
afterAll(async () => {
  await t?.close();
});

describe('terms', () => {
  it('serves the built-in text as version 0 until staff publish one; nobody has terms to accept', async () => {
    const de = await t.client().call(termsApi.current, { params: { lng: 'de' } });
    expect(de.status).toBe(200);
    expect(de.body).toMatchObject({ language: 'de', version: 0, publishedAt: null });
    expect(de.body.content).toContain('Nutzungsbedingungen');
    // An unknown language answers English.
    expect((await t.client().get('/api/terms/fr')).body).toMatchObject({ language: 'en', version: 0 });
    expect((await alice.call(termsApi.pending)).body).toEqual({ pending: false, acceptedVersion: 0, currentVersion: 0, terms: null });
    const editorView = await admin.call(termsApi.adminGet, { params: { language: 'en' } });
    expect(editorView.body).toMatchObject({ language: 'en', version: 0, currentVersion: 0, publishedAt: null, publishedBy: null });
    expect(editorView.body.content).toContain('Terms of use');
  });

  it('refuses empty content naming the field, and an unknown language, publishing nothing', async () => {
    for (const content of ['<p></p>', '<script>alert(1)</script>', '   ', undefined]) {
      const r = await admin.put('/api/admin/terms/en', content === undefined ? {} : { content });
      expect(r.status, String(content)).toBe(400);
      expect(r.body.code).toBe('VALIDATION_FAILED');
      expect(r.body.details).toEqual([expect.objectContaining({ field: 'content', message: 'Content is required' })]);
    }
    expect((await admin.put('/api/admin/terms/fr', { content: '<p>x</p>' })).status).toBe(400);
    expect(await t.db.select().from(termsVersions)).toEqual([]);
  });

  it('publishes a sanitised new version, audited; both languages report the shared version', async () => {
    const r = await admin.call(termsApi.save, {
      params: { language: 'en' },
      body: { content: '<h2>Terms v1</h2><p>Be <b>nice</b>.<script>alert(1)</script><img src="x" onerror="alert(2)"></p>' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ language: 'en', version: 1, currentVersion: 1, message: 'Terms have been updated.' });
    expect(r.body.publishedBy).toEqual({ id: adminId, fullName: 'Admin Lamella' });
    expect(r.body.content).toContain('<b>nice</b>');
    expect(r.body.content).not.toMatch(/script|onerror|alert/);
    const en = await t.client().call(termsApi.current, { params: { lng: 'en' } });
    expect(en.body).toMatchObject({ language: 'en', version: 1, publishedAt: expect.any(String) });
    expect(en.body.content).toContain('Terms v1');
    // German still shows its built-in text, under the shared version number (and its date).
    const de = await t.client().call(termsApi.current, { params: { lng: 'de' } });
    expect(de.body).toMatchObject({ version: 1, publishedAt: en.body.publishedAt });
    expect(de.body.content).toContain('Nutzungsbedingungen');
    expect((await admin.call(termsApi.adminGet, { params: { language: 'de' } })).body).toMatchObject({ version: 0, currentVersion: 1 });
    const audits = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'terms.publish'), eq(auditLog.actorId, adminId)));
    expect(audits.map((a) => a.details)).toEqual([{ language: 'en', version: 1 }]);
  });

  it('asks a user who accepted an older version to accept the new one; accepting clears it', async () => {
    const pending = await alice.call(termsApi.pending);
    expect(pending.body).toMatchObject({ pending: true, acceptedVersion: 0, currentVersion: 1 });
    expect(pending.body.terms).toMatchObject({ language: 'en', version: 1 });
    expect(pending.body.terms?.content).toContain('Terms v1');
    // Only the current version can be accepted.
    const stale = await alice.call(termsApi.accept, { body: { version: 2 } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'TERMS_VERSION_OUTDATED' });
    expect((await alice.post('/api/terms/accept', { version: 0 })).status).toBe(400);
    expect((await alice.post('/api/terms/accept', {})).status).toBe(400);
    expect((await alice.call(termsApi.pending)).body.pending).toBe(true);
    const ok = await alice.call(termsApi.accept, { body: { version: 1 } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ pending: false, acceptedVersion: 1, currentVersion: 1, terms: null });
    // Accepting again is harmless.
    expect((await alice.call(termsApi.accept, { body: { version: 1 } })).status).toBe(200);
    const rows = await t.db.select().from(termsAcceptances).where(eq(termsAcceptances.userId, aliceId));
    // Sign-up recorded the built-in text (0), then version 1.
    expect(rows.map((r) => r.version).sort()).toEqual([0, 1]);
  });

  it('saving an unchanged text publishes nothing; a change in German bumps the shared version', async () => {
    const current = (await admin.call(termsApi.adminGet, { params: { language: 'en' } })).body;
    const same = await admin.call(termsApi.save, { params: { language: 'en' }, body: { content: current.content } });
    expect(same.body).toMatchObject({ version: 1, currentVersion: 1, message: 'Terms have been updated.' });
    expect((await alice.call(termsApi.pending)).body.pending).toBe(false);

    admin.cookies.set('lng', 'de');
    const de = await admin.call(termsApi.save, { params: { language: 'de' }, body: { content: '<p>Bedingungen v2</p>' } });
    admin.cookies.delete('lng');
    expect(de.body).toMatchObject({ language: 'de', version: 2, currentVersion: 2, message: 'Die Nutzungsbedingungen wurden aktualisiert.' });
    alice.cookies.set('lng', 'de');
    const pending = await alice.call(termsApi.pending);
    alice.cookies.delete('lng');
    expect(pending.body).toMatchObject({ pending: true, acceptedVersion: 1, currentVersion: 2 });
    expect(pending.body.terms).toMatchObject({ language: 'de', version: 2, content: '<p>Bedingungen v2</p>' });
    expect((await alice.call(termsApi.accept, { body: { version: 2 } })).body.pending).toBe(false);
  });

  it('records the current version for a user signing up, who then has nothing to accept', async () => {
    const bob = await t.signupVerified();
    expect((await bob.client.call(termsApi.pending)).body).toEqual({ pending: false, acceptedVersion: 2, currentVersion: 2, terms: null });
    const rows = await t.db.select().from(termsAcceptances).where(eq(termsAcceptances.userId, bob.id));
    expect(rows.map((r) => r.version)).toEqual([2]);
  });

  it('gives concurrent saves distinct version numbers', async () => {
    const [a, b] = await Promise.all([
      admin.call(termsApi.save, { params: { language: 'en' }, body: { content: '<p>Concurrent A</p>' } }),
      admin.call(termsApi.save, { params: { language: 'de' }, body: { content: '<p>Gleichzeitig B</p>' } }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([a.body.version, b.body.version].sort()).toEqual([3, 4]);
    expect((await t.client().call(termsApi.current, { params: { lng: 'en' } })).body).toMatchObject({ version: 4, content: '<p>Concurrent A</p>' });
  });

  it('authorization: anonymous 401, USER/EDITOR/POWER_USER 403 on the editor, ADMIN 2xx; every user accepts', async () => {
    const anonymous = t.client();
    const staffCalls: Array<[string, string, unknown?]> = [
      ['GET', '/api/admin/terms/en'],
      ['PUT', '/api/admin/terms/en', { content: '<p>Hijacked</p>' }],
    ];
    for (const [method, path, json] of staffCalls) {
      expect((await anonymous.request(method, path, { json })).status, `${method} ${path}`).toBe(401);
      for (const c of [alice, editor, power]) expect((await c.request(method, path, { json })).status, `${method} ${path}`).toBe(403);
      expect((await admin.request(method, path, method === 'PUT' ? { json: { content: '<p>Staff text</p>' } } : {})).status).toBe(200);
    }
    expect((await anonymous.get('/api/terms/pending')).status).toBe(401);
    expect((await anonymous.post('/api/terms/accept', { version: 5 })).status).toBe(401);
    expect((await anonymous.get('/api/terms/en')).status).toBe(200);
    // Nothing of the refused calls was stored.
    expect((await t.client().call(termsApi.current, { params: { lng: 'en' } })).body).toMatchObject({ version: 5, content: '<p>Staff text</p>' });
    for (const c of [alice, editor, power, admin]) {
      expect((await c.call(termsApi.pending)).body).toMatchObject({ pending: true, currentVersion: 5 });
      expect((await c.call(termsApi.accept, { body: { version: 5 } })).body.pending).toBe(false);
    }
  });
});
