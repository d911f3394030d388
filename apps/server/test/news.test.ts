/**
 * Model news (back-office.md §2 News screen, §9; issue 11 item 4): staff CRUD on /admin/compute-models-news (create
 * with POST on the collection; POST on an item updates), the optional model, sanitising, required-field messages,
 * the user's general news and a model's news (only for a model the user may use), audit and authorization.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { newsApi } from '@lamella/contracts';
import { ADMIN, startTestApp, type TestApp } from './test-app.ts';
import { auditLog, users } from '../src/platform/db/schema/index.ts';
import type { HttpClient } from './http-client.ts';

let t: TestApp;
let admin: HttpClient;
let editor: HttpClient;
let power: HttpClient;
let alice: HttpClient;
let publicModel = '';
let privateModel = '';

async function withRole(role: 'EDITOR' | 'POWER_USER') {
  const u = await t.signupVerified();
  await t.db.update(users).set({ role }).where(eq(users.id, u.id));
  return (await t.signin(u.email, u.password)).client;
}

async function model(name: string, accessType: 'PUBLIC' | 'PRIVATE') {
  const r = await admin.post('/api/admin/compute-models', {
    internalName: name,
    routingPath: `/${name}`,
    storagePath: `s3://models/${name}`,
    displayName: name,
    version: '20250101',
    accessType,
  });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return r.body.id as string;
}

const body = {
  titleEn: 'New release',
  titleDe: 'Neue Version',
  contentEn: '<p>Faster <a href="javascript:alert(1)">runs</a><script>alert(1)</script></p>',
  contentDe: '<p>Schneller</p><iframe src="https://evil.example"></iframe>',
};

beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.signin(ADMIN.email, ADMIN.password)).client;
  editor = await withRole('EDITOR');
  power = await withRole('POWER_USER');
  alice = (await t.signupVerified()).client;
  publicModel = await model('news-public-model', 'PUBLIC');
  privateModel = await model('news-private-model', 'PRIVATE');
});
afterAll(async () => {
  await t?.close();
});

describe('news', () => {
  let general = '';
  let forModel = '';

  it('requires both titles and contents and an existing model, naming each field; nothing is stored', async () => {
    const r = await admin.post('/api/admin/compute-models-news', {
      titleDe: 'x',
      contentEn: '<p> </p>',
      modelId: '00000000-0000-4000-8000-000000000000',
    });
    expect(r.status).toBe(400);
    const byField = Object.fromEntries(r.body.details.map((d: { field: string; message: string }) => [d.field, d.message]));
    expect(byField).toEqual({
      titleEn: 'Title is required',
      contentEn: 'Content is required',
      contentDe: 'Content is required',
      modelId: 'The selected model does not exist',
    });
    expect((await admin.get('/api/admin/compute-models-news')).body).toEqual([]);
  });

  it('creates general news and model news, sanitised, with audit', async () => {
    const g = await admin.post('/api/admin/compute-models-news', { ...body, modelId: '' });
    expect(g.status).toBe(200);
    expect(g.body).toMatchObject({ titleEn: 'New release', modelId: null, message: 'News has been added.' });
    expect(g.body.contentEn).not.toMatch(/script|javascript:/i);
    expect(g.body.contentDe).not.toMatch(/iframe/i);
    general = g.body.id;
    const m = await admin.call(newsApi.create, { body: { ...body, titleEn: 'Model update', titleDe: 'Modell-Update', modelId: publicModel } });
    expect(m.body).toMatchObject({ modelId: publicModel });
    forModel = m.body.id;
    const p = await admin.post('/api/admin/compute-models-news', { ...body, titleEn: 'Secret', modelId: privateModel });
    expect(p.status).toBe(200);
    const audits = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'news.create'), eq(auditLog.targetId, general)));
    expect(audits).toHaveLength(1);
    const list = await admin.get('/api/admin/compute-models-news');
    expect(list.body).toHaveLength(3);
    expect((await admin.get(`/api/admin/compute-models-news/${forModel}`)).body).toMatchObject({ id: forModel, titleDe: 'Modell-Update' });
  });

  it('updates with PUT and with the spec POST on the item; unknown ids 404', async () => {
    const put = await admin.put(`/api/admin/compute-models-news/${general}`, { ...body, titleEn: 'Release 2' });
    expect(put.body).toMatchObject({ id: general, titleEn: 'Release 2', modelId: null, message: 'News has been updated.' });
    const post = await admin.post(`/api/admin/compute-models-news/${general}`, { ...body, titleEn: 'Release 3' });
    expect(post.body).toMatchObject({ id: general, titleEn: 'Release 3' });
    expect((await admin.get('/api/admin/compute-models-news')).body).toHaveLength(3);
    const bad = await admin.put(`/api/admin/compute-models-news/${general}`, { ...body, titleDe: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0]).toMatchObject({ field: 'titleDe', message: 'Title is required' });
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await admin.get(`/api/admin/compute-models-news/${missing}`)).status).toBe(404);
    expect((await admin.put(`/api/admin/compute-models-news/${missing}`, body)).status).toBe(404);
    expect((await admin.delete(`/api/admin/compute-models-news/${missing}`)).status).toBe(404);
    const audits = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'news.update'), eq(auditLog.targetId, general)));
    expect(audits).toHaveLength(2);
  });

  it('users see general news on the dashboard and a usable model news, in their language', async () => {
    const g = await alice.get('/api/news');
    expect(g.status).toBe(200);
    expect(g.body).toEqual([expect.objectContaining({ id: general, title: 'Release 3', language: 'en', modelId: null })]);
    alice.cookies.set('lng', 'de');
    const m = await alice.get(`/api/news?modelId=${publicModel}`);
    alice.cookies.delete('lng');
    expect(m.body).toEqual([expect.objectContaining({ id: forModel, title: 'Modell-Update', language: 'de', content: '<p>Schneller</p>' })]);
    // A PRIVATE model the user has no access to: 404, its news stay hidden.
    expect((await alice.get(`/api/news?modelId=${privateModel}`)).status).toBe(404);
    expect((await admin.get(`/api/news?modelId=${privateModel}`)).body).toHaveLength(1);
    expect((await alice.get('/api/news?modelId=nope')).status).toBe(400);
  });

  it('authorization: anonymous 401, USER/EDITOR/POWER_USER 403 on staff calls; deleting and model removal', async () => {
    const anonymous = t.client();
    const staff: Array<[string, string, unknown?]> = [
      ['GET', '/api/admin/compute-models-news'],
      ['POST', '/api/admin/compute-models-news', body],
      ['GET', `/api/admin/compute-models-news/${general}`],
      ['PUT', `/api/admin/compute-models-news/${general}`, body],
      ['POST', `/api/admin/compute-models-news/${general}`, body],
      ['DELETE', `/api/admin/compute-models-news/${general}`],
    ];
    for (const [method, path, json] of staff) {
      expect((await anonymous.request(method, path, { json })).status, `${method} ${path}`).toBe(401);
      for (const c of [alice, editor, power]) expect((await c.request(method, path, { json })).status, `${method} ${path}`).toBe(403);
    }
    expect((await anonymous.get('/api/news')).status).toBe(401);
    expect((await admin.get('/api/admin/compute-models-news')).body).toHaveLength(3);
    const del = await admin.delete(`/api/admin/compute-models-news/${general}`);
    expect(del.body).toEqual({ id: general, deleted: true, message: 'News has been deleted.' });
    expect((await alice.get('/api/news')).body).toEqual([]);
    expect(
      (
        await t.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.action, 'news.delete'), eq(auditLog.targetId, general)))
      ).length,
    ).toBe(1);
    // A deleted model takes its news with it.
    expect((await admin.delete(`/api/admin/compute-models/${publicModel}`)).status).toBe(200);
    expect((await admin.get('/api/admin/compute-models-news')).body.map((n: { id: string }) => n.id)).not.toContain(forModel);
  });
});
