/**
 * Translation overrides (issue 11 item 6, Settings → Translations): searching keys, setting and deleting overrides
 * with the key and placeholder checks, publishing them into GET /api/languages/{lng} with PUT /languages, the audit
 * trail and the authorization matrix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { translationsApi } from '@lamella/contracts';
import { ADMIN, startTestApp, type TestApp } from './test-app.ts';
import { auditLog, translationOverrides, users } from '../src/platform/db/schema/index.ts';
import type { HttpClient } from './http-client.ts';

let t: TestApp;
let admin: HttpClient;
let adminId = '';
let editor: HttpClient;
let power: HttpClient;
let alice: HttpClient;

async function withRole(role: 'EDITOR' | 'POWER_USER') {
  const u = await t.signupVerified();
  await t.db.update(users).set({ role }).where(eq(users.id, u.id));
  return (await t.signin(u.email, u.password)).client;
}

const tree = async (lng: string) => (await t.client().get(`/api/languages/${lng}`)).body;
const byField = (body: { details?: Array<{ field: string; message: string }> }) =>
  Object.fromEntries((body.details ?? []).map((d) => [d.field, d.message]));

beforeAll(async () => {
  t = await startTestApp();
  const signed = await t.signin(ADMIN.email, ADMIN.password);
  admin = signed.client;
  adminId = signed.res.body.user.id;
  editor = await withRole('EDITOR');
  power = await withRole('POWER_USER');
  alice = (await t.signupVerified()).client;
});
afterAll(async () => {
  await t?.close();
});

describe('translation overrides', () => {
  it('lists no overrides at first, and finds keys by key or by text in either language', async () => {
    const empty = await admin.call(translationsApi.list);
    expect(empty.body).toEqual({ items: [], total: 0, overrides: 0 });
    const byKey = await admin.call(translationsApi.list, { query: { search: 'auth.login.subtitle' } });
    expect(byKey.body.items).toEqual([
      {
        key: 'auth.login.subtitle',
        en: { file: 'Welcome back to Lamella.', override: null, updatedAt: null },
        de: { file: expect.any(String), override: null, updatedAt: null },
      },
    ]);
    // By the German text, case-insensitive.
    const germanText = byKey.body.items[0].de.file;
    const byText = await admin.call(translationsApi.list, { query: { search: germanText.toUpperCase() } });
    expect(byText.body.items.map((i) => i.key)).toContain('auth.login.subtitle');
    // A broad search is capped by limit but counts every match; mail texts are not overridable.
    const broad = await admin.call(translationsApi.list, { query: { search: 'a', limit: 5 } });
    expect(broad.body.items).toHaveLength(5);
    expect(broad.body.total).toBeGreaterThan(100);
    expect((await admin.call(translationsApi.list, { query: { search: 'mail.' } })).body.items.filter((i) => i.key.startsWith('mail.'))).toEqual([]);
  });

  it('refuses unknown keys and placeholder mismatches with a field error, storing nothing', async () => {
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [{ language: 'de', key: 'auth.login.nope', value: 'x' }, { key: 'The key auth.login.nope does not exist in the English files' }],
      [{ language: 'de', key: 'auth.login', value: 'x' }, { key: 'The key auth.login does not exist in the English files' }],
      [
        { language: 'en', key: 'mail.verifyEmail.subject', value: 'x' },
        { key: 'The key mail.verifyEmail.subject is used only in e-mails, which overrides do not change' },
      ],
      [{ language: 'de', key: '  ', value: 'x' }, { key: 'Key is required' }],
      [{ language: 'de', key: 'auth.login.subtitle', value: '   ' }, { value: 'Text is required' }],
      [
        { language: 'de', key: 'auth.verifyEmail.resendIn', value: 'Neue Mail in {{secs}} s' },
        { value: 'The text must contain exactly these placeholders: {{seconds}}' },
      ],
      [
        { language: 'en', key: 'auth.verifyEmail.resendIn', value: 'Wait a bit' },
        { value: 'The text must contain exactly these placeholders: {{seconds}}' },
      ],
      [{ language: 'en', key: 'auth.login.subtitle', value: 'Hello {{name}}' }, { value: 'The text must not contain placeholders in double braces' }],
    ];
    for (const [body, fields] of cases) {
      const r = await admin.put('/api/admin/translations', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code).toBe('VALIDATION_FAILED');
      expect(byField(r.body), JSON.stringify(body)).toEqual(fields);
    }
    // A language the product does not have is refused by the schema, naming the field.
    const fr = await admin.put('/api/admin/translations', { language: 'fr', key: 'auth.login.subtitle', value: 'Bonjour' });
    expect(fr.status).toBe(400);
    expect(fr.body.details.map((d: { field: string }) => d.field)).toContain('language');
    expect(await t.db.select().from(translationOverrides)).toEqual([]);
  });

  it('publishes a saved override into GET /api/languages/de only after PUT /languages', async () => {
    const before = await tree('de');
    const original = before.auth.login.subtitle;
    const saved = await admin.call(translationsApi.set, {
      body: { language: 'de', key: 'auth.login.subtitle', value: 'Willkommen zurück, Metallograf!' },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe('The override has been saved. Reload translations to publish it.');
    expect(saved.body.entry).toMatchObject({
      key: 'auth.login.subtitle',
      de: { file: original, override: 'Willkommen zurück, Metallograf!', updatedAt: expect.any(String) },
      en: { override: null },
    });
    // A placeholder kept (in another order of spacing) is fine.
    expect(
      (await admin.call(translationsApi.set, { body: { language: 'de', key: 'auth.verifyEmail.resendIn', value: 'Noch {{ seconds }} Sekunden.' } }))
        .status,
    ).toBe(200);
    // Not published yet: the served tree is the one loaded before.
    expect((await tree('de')).auth.login.subtitle).toBe(original);

    const reload = await admin.call(translationsApi.reload);
    expect(reload.status).toBe(200);
    expect(reload.body).toEqual({ message: 'Translations have been updated.' });
    const de = await tree('de');
    expect(de.auth.login.subtitle).toBe('Willkommen zurück, Metallograf!');
    expect(de.auth.verifyEmail.resendIn).toBe('Noch {{ seconds }} Sekunden.');
    // The rest of the namespace and the other language are untouched.
    expect(de.auth.login.title).toBe(before.auth.login.title);
    expect((await tree('en')).auth.login.subtitle).toBe('Welcome back to Lamella.');

    const list = await admin.call(translationsApi.list);
    expect(list.body.overrides).toBe(2);
    expect(list.body.items.map((i) => i.key)).toEqual(['auth.login.subtitle', 'auth.verifyEmail.resendIn']);
    const audits = await t.db.select().from(auditLog).where(eq(auditLog.actorId, adminId));
    const actions = audits.map((a) => a.action);
    expect(actions.filter((a) => a === 'translation.override.set')).toHaveLength(2);
    expect(actions).toContain('translations.reload');
  });

  it('answers the reload message in German and replaces an override on a second save', async () => {
    await admin.call(translationsApi.set, { body: { language: 'de', key: 'auth.login.subtitle', value: 'Zweite Fassung' } });
    admin.cookies.set('lng', 'de');
    const reload = await admin.call(translationsApi.reload);
    admin.cookies.delete('lng');
    expect(reload.body.message).toBe('Die Übersetzungen wurden aktualisiert.');
    expect((await tree('de')).auth.login.subtitle).toBe('Zweite Fassung');
    expect(await t.db.select().from(translationOverrides).where(eq(translationOverrides.key, 'auth.login.subtitle'))).toHaveLength(1);
  });

  it('deletes an override (404 for one that does not exist); the file text is back after the reload', async () => {
    const missing = await admin.call(translationsApi.remove, { params: { language: 'en', key: 'auth.login.subtitle' } });
    expect(missing.status).toBe(404);
    const del = await admin.call(translationsApi.remove, { params: { language: 'de', key: 'auth.login.subtitle' } });
    expect(del.status).toBe(200);
    expect(del.body.entry.de.override).toBeNull();
    expect(del.body.message).toBe('The override has been deleted. Reload translations to publish the change.');
    await admin.call(translationsApi.reload);
    expect((await tree('de')).auth.login.subtitle).toBe(del.body.entry.de.file);
  });

  it('authorization: anonymous 401, USER/EDITOR/POWER_USER 403, ADMIN 2xx; refused calls change nothing', async () => {
    const anonymous = t.client();
    const body = { language: 'en', key: 'auth.login.title', value: 'Hijacked' };
    const staffCalls: Array<[string, string, unknown?]> = [
      ['GET', '/api/admin/translations?search=auth'],
      ['PUT', '/api/admin/translations', body],
      ['DELETE', '/api/admin/translations/de/auth.verifyEmail.resendIn'],
      ['PUT', '/api/languages', {}],
    ];
    for (const [method, path, json] of staffCalls) {
      expect((await anonymous.request(method, path, { json })).status, `${method} ${path}`).toBe(401);
      for (const c of [alice, editor, power]) expect((await c.request(method, path, { json })).status, `${method} ${path}`).toBe(403);
    }
    expect((await admin.call(translationsApi.list)).body.items.map((i) => i.key)).toEqual(['auth.verifyEmail.resendIn']);
    expect((await admin.put('/api/languages', {})).status).toBe(200);
    expect((await tree('en')).auth.login.title).toBe('Sign in');
    // Everyone reads the merged tree.
    expect((await anonymous.get('/api/languages/de')).body.auth.verifyEmail.resendIn).toBe('Noch {{ seconds }} Sekunden.');
    expect((await anonymous.get('/api/languages/fr')).status).toBe(404);
  });
});
