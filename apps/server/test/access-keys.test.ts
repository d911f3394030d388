import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessKeys } from '../src/platform/db/schema/index.ts';
import { startTestApp, type TestApp } from './test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('access keys', () => {
  it('creates a key shown once, lists it without the code, and authenticates with it', async () => {
    const u = await t.signupVerified();
    const created = await u.client.post('/api/access-keys', { name: '  CI pipeline ' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'CI pipeline', enabled: true, lastUsed: null });
    expect(created.body.code).toMatch(/^lam_[A-Za-z0-9_-]{40,}$/);
    const list = await u.client.get('/api/access-keys');
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).not.toHaveProperty('code');
    const stored = await t.db.select().from(accessKeys);
    expect(stored.some((k) => k.keyHash === created.body.code)).toBe(false);

    const api = t.client({ authorization: `Bearer ${created.body.code}` });
    const me = await api.get('/api/users/me');
    expect(me.body.email).toBe(u.email);
    const after = await u.client.get('/api/access-keys');
    expect(Date.now() - Date.parse(after.body[0].lastUsed)).toBeLessThan(10_000);
  });

  it('refuses a disabled key, an unknown key, and a blank name', async () => {
    const u = await t.signupVerified();
    const created = await u.client.post('/api/access-keys', { name: 'script' });
    const disabled = await u.client.patch(`/api/access-keys/${created.body.id}`, { enabled: false });
    expect(disabled.body.enabled).toBe(false);
    expect((await t.client({ authorization: `Bearer ${created.body.code}` }).get('/api/users/me')).status).toBe(401);
    expect((await t.client({ authorization: 'Bearer lam_nope' }).get('/api/users/me')).status).toBe(401);
    const blank = await u.client.post('/api/access-keys', { name: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.details[0].field).toBe('name');
    await u.client.patch(`/api/access-keys/${created.body.id}`, { enabled: true });
    expect((await t.client({ authorization: `Bearer ${created.body.code}` }).get('/api/users/me')).status).toBe(200);
  });

  it("answers 404 for another user's key id and leaves it alone", async () => {
    const owner = await t.signupVerified();
    const other = await t.signupVerified();
    const key = await owner.client.post('/api/access-keys', { name: 'mine' });
    expect((await other.client.delete(`/api/access-keys/${key.body.id}`)).status).toBe(404);
    expect((await other.client.patch(`/api/access-keys/${key.body.id}`, { enabled: false })).status).toBe(404);
    expect((await other.client.get('/api/access-keys')).body).toHaveLength(0);
    expect((await owner.client.get('/api/access-keys')).body[0].enabled).toBe(true);
    expect((await other.client.delete('/api/access-keys/not-a-uuid')).status).toBe(400);
  });

  it('deletes a key, which then stops working', async () => {
    const u = await t.signupVerified();
    const key = await u.client.post('/api/access-keys', { name: 'temp' });
    expect((await u.client.delete(`/api/access-keys/${key.body.id}`)).status).toBe(204);
    expect((await u.client.get('/api/access-keys')).body).toHaveLength(0);
    expect((await t.client({ authorization: `Bearer ${key.body.code}` }).get('/api/users/me')).status).toBe(401);
    expect((await u.client.delete(`/api/access-keys/${key.body.id}`)).status).toBe(404);
  });
});
