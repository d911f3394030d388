/**
 * Insights (back-office.md §2 Insights screen, §5, §9; issue 11 item 3): staff CRUD with sanitising and the
 * required-field messages, the user's dashboard list in their language, hiding one until staff reset the visibility,
 * the audit trail, and the authorization matrix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { insightsApi } from '@lamella/contracts';
import { ADMIN, startTestApp, type TestApp } from './test-app.ts';
import { auditLog, users } from '../src/platform/db/schema/index.ts';
import type { HttpClient } from './http-client.ts';

let t: TestApp;
let admin: HttpClient;
let adminId = '';
let editor: HttpClient;
let power: HttpClient;
let alice: HttpClient;
let bob: HttpClient;
let bobId = '';

async function withRole(role: 'EDITOR' | 'POWER_USER') {
  const u = await t.signupVerified();
  await t.db.update(users).set({ role }).where(eq(users.id, u.id));
  return (await t.signin(u.email, u.password)).client;
}

const body = {
  titleEn: '  Grain size basics ',
  titleDe: 'Grundlagen der Korngröße',
  contentEn: '<p>Read <b>this</b><script>alert(1)</script><img src="x" onerror="alert(2)"></p>',
  contentDe: '<p>Lies <i>das</i></p><script>document.cookie</script>',
};

beforeAll(async () => {
  t = await startTestApp();
  const signed = await t.signin(ADMIN.email, ADMIN.password);
  admin = signed.client;
  adminId = signed.res.body.user.id;
  editor = await withRole('EDITOR');
  power = await withRole('POWER_USER');
  alice = (await t.signupVerified()).client;
  const b = await t.signupVerified();
  bob = b.client;
  bobId = b.id;
});
afterAll(async () => {
  await t?.close();
});

describe('insights', () => {
  let id = '';

  it('requires both titles and contents, naming each field, and changes nothing', async () => {
    const r = await admin.post('/api/admin/insights/', { titleEn: ' ', contentEn: '<p></p>', contentDe: '<script>x</script>' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('VALIDATION_FAILED');
    const byField = Object.fromEntries(r.body.details.map((d: { field: string; message: string }) => [d.field, d.message]));
    expect(byField).toEqual({
      titleEn: 'Title is required',
      titleDe: 'Title is required',
      contentEn: 'Content is required',
      contentDe: 'Content is required',
    });
    expect((await admin.get('/api/admin/insights')).body).toEqual([]);
  });

  it('creates with sanitised content (a <script> never comes back) and records the audit', async () => {
    const r = await admin.post('/api/admin/insights/', body);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ titleEn: 'Grain size basics', titleDe: 'Grundlagen der Korngröße', message: 'Insight has been added.' });
    id = r.body.id;
    for (const html of [r.body.contentEn, r.body.contentDe]) {
      expect(html).not.toMatch(/<script|onerror|alert\(1\)|document\.cookie/i);
    }
    expect(r.body.contentEn).toContain('<b>this</b>');
    const rows = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'insight.create'), eq(auditLog.targetId, id)));
    expect(rows).toHaveLength(1);
    expect(rows[0].actorId).toBe(adminId);
    // The path without the trailing slash answers too.
    const second = await admin.post('/api/admin/insights', { ...body, titleEn: 'Second', titleDe: 'Zweiter' });
    expect(second.status).toBe(200);
    expect((await admin.delete(`/api/admin/insights/${second.body.id}`)).body).toMatchObject({ deleted: true, message: 'Insight has been deleted.' });
  });

  it('shows users the insight in their language, with or without details', async () => {
    const en = await alice.get('/api/insights?without-details=true');
    expect(en.status).toBe(200);
    expect(en.body).toEqual([{ id, language: 'en', title: 'Grain size basics', createdAt: expect.any(String) }]);
    alice.cookies.set('lng', 'de');
    const de = await alice.get('/api/insights');
    expect(de.body[0]).toMatchObject({ id, language: 'de', title: 'Grundlagen der Korngröße' });
    expect(de.body[0].content).toContain('<i>das</i>');
    expect(de.body[0].content).not.toMatch(/script/i);
    const one = await alice.get(`/api/insights/${id}`);
    expect(one.body).toMatchObject({ id, language: 'de', title: 'Grundlagen der Korngröße' });
    alice.cookies.delete('lng');
    // Without the cookie, the user's saved language decides.
    await t.db.update(users).set({ language: 'de' }).where(eq(users.id, bobId));
    expect((await bob.get(`/api/insights/${id}`)).body.title).toBe('Grundlagen der Korngröße');
    await t.db.update(users).set({ language: 'en' }).where(eq(users.id, bobId));
  });

  it('updates (PUT) with validation and audit; unknown ids answer 404', async () => {
    const bad = await admin.put(`/api/admin/insights/${id}`, { ...body, contentDe: '   ' });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([expect.objectContaining({ field: 'contentDe', message: 'Content is required' })]);
    const ok = await admin.put(`/api/admin/insights/${id}`, { ...body, titleEn: 'Grain size, revised' });
    expect(ok.body).toMatchObject({ id, titleEn: 'Grain size, revised', message: 'Insight has been updated.' });
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await admin.put(`/api/admin/insights/${missing}`, body)).status).toBe(404);
    expect((await admin.delete(`/api/admin/insights/${missing}`)).status).toBe(404);
    expect((await alice.get(`/api/insights/${missing}`)).status).toBe(404);
    expect((await alice.post(`/api/insights/${missing}/hide`)).status).toBe(404);
    expect((await alice.get('/api/insights/not-a-uuid')).status).toBe(400);
    const audits = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'insight.update'), eq(auditLog.targetId, id)));
    expect(audits).toHaveLength(1);
  });

  it('hides an insight for one user only, until staff reset the visibility', async () => {
    const hidden = await alice.call(insightsApi.hide, { params: { id } });
    expect(hidden.body).toEqual({ id, hidden: true });
    expect((await alice.get('/api/insights?without-details=true')).body).toEqual([]);
    // Another user still sees it.
    expect((await bob.get('/api/insights?without-details=true')).body.map((i: { id: string }) => i.id)).toEqual([id]);
    // Hiding twice is harmless; the detail stays readable.
    expect((await alice.post(`/api/insights/${id}/hide`)).status).toBe(200);
    expect((await alice.get(`/api/insights/${id}`)).status).toBe(200);

    const reset = await admin.put('/api/admin/users/preferences/insights');
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ message: 'Insights visibility has been reset for all users.' });
    expect((await alice.get('/api/insights?without-details=true')).body.map((i: { id: string }) => i.id)).toEqual([id]);
    const audits = await t.db.select().from(auditLog).where(eq(auditLog.action, 'insight.visibility.reset'));
    expect(audits).toHaveLength(1);
    expect(audits[0].details).toEqual({ removed: 1 });
  });

  it('answers the reset message in German', async () => {
    admin.cookies.set('lng', 'de');
    const r = await admin.put('/api/admin/users/preferences/insights');
    admin.cookies.delete('lng');
    expect(r.body.message).not.toBe('Insights visibility has been reset for all users.');
    expect(r.body.message.length).toBeGreaterThan(10);
  });

  it('authorization: anonymous 401, USER/EDITOR/POWER_USER 403 on staff calls, ADMIN 2xx', async () => {
    const anonymous = t.client();
    const staffCalls: Array<[string, string, unknown?]> = [
      ['GET', '/api/admin/insights'],
      ['POST', '/api/admin/insights/', body],
      ['PUT', `/api/admin/insights/${id}`, body],
      ['DELETE', `/api/admin/insights/${id}`],
      ['PUT', '/api/admin/users/preferences/insights', {}],
    ];
    for (const [method, path, json] of staffCalls) {
      expect((await anonymous.request(method, path, { json })).status, `${method} ${path}`).toBe(401);
      for (const c of [alice, editor, power]) expect((await c.request(method, path, { json })).status, `${method} ${path}`).toBe(403);
    }
    for (const path of ['/api/insights?without-details=true', `/api/insights/${id}`]) {
      expect((await anonymous.get(path)).status).toBe(401);
      expect((await editor.get(path)).status).toBe(200);
    }
    expect((await anonymous.post(`/api/insights/${id}/hide`)).status).toBe(401);
    // Nothing changed through the refused calls.
    const list = await admin.get('/api/admin/insights');
    expect(list.body.map((i: { id: string; titleEn: string }) => [i.id, i.titleEn])).toEqual([[id, 'Grain size, revised']]);
    // ADMIN deletes; the user's list follows.
    const del = await admin.delete(`/api/admin/insights/${id}`);
    expect(del.status).toBe(200);
    expect((await alice.get('/api/insights')).body).toEqual([]);
  });
});
