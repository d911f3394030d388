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

  it('counts every request of a key and shows the count and last use to its owner only', async () => {
    const u = await t.signupVerified();
    const created = await u.client.post('/api/access-keys', { name: 'counter' });
    expect(created.body).toMatchObject({ scope: 'READ_WRITE', ratePerMinute: 600, requestCount: 0, lastUsed: null });
    const api = t.client({ authorization: `Bearer ${created.body.code}` });
    for (let i = 0; i < 3; i++) expect((await api.get('/api/users/me')).status).toBe(200);
    const [listed] = (await u.client.get('/api/access-keys')).body;
    expect(listed.requestCount).toBe(3);
    expect(Date.now() - Date.parse(listed.lastUsed)).toBeLessThan(10_000);
    const other = await t.signupVerified();
    expect((await other.client.get('/api/access-keys')).body).toHaveLength(0);
  });

  it("answers 429 with Retry-After past the key's requests a minute, while the owner's session and other keys go on", async () => {
    const u = await t.signupVerified();
    const slow = await u.client.post('/api/access-keys', { name: 'slow', ratePerMinute: 3 });
    expect(slow.body.ratePerMinute).toBe(3);
    const fast = await u.client.post('/api/access-keys', { name: 'fast' });
    const api = t.client({ authorization: `Bearer ${slow.body.code}` });
    for (let i = 0; i < 3; i++) expect((await api.get('/api/users/me')).status).toBe(200);
    const limited = await api.get('/api/users/me');
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    expect(limited.body.message).toMatch(/3 requests a minute/);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await t.client({ authorization: `Bearer ${fast.body.code}` }).get('/api/users/me')).status).toBe(200);
    expect((await u.client.get('/api/users/me')).status).toBe(200);
    // the owner raises the limit within the maximum; beyond it is a field error that changes nothing
    const tooMany = await u.client.patch(`/api/access-keys/${slow.body.id}`, { ratePerMinute: 601 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.details[0].field).toBe('ratePerMinute');
    expect((await u.client.get('/api/access-keys')).body.find((k: { id: string }) => k.id === slow.body.id).ratePerMinute).toBe(3);
  });

  it('lets a READ_ONLY key read but not change anything (403 ACCESS_KEY_READ_ONLY), and narrows or widens a key', async () => {
    const u = await t.signupVerified();
    const created = await u.client.post('/api/access-keys', { name: 'reader', scope: 'READ_ONLY' });
    expect(created.body.scope).toBe('READ_ONLY');
    const api = t.client({ authorization: `Bearer ${created.body.code}` });
    expect((await api.get('/api/access-keys')).status).toBe(200);
    const write = await api.patch('/api/users/me', { address: { city: 'Aachen' } });
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('ACCESS_KEY_READ_ONLY');
    // a key cannot change keys, not even its own scope
    const selfWiden = await t
      .client({ authorization: `Bearer ${(await u.client.post('/api/access-keys', { name: 'rw' })).body.code}` })
      .patch(`/api/access-keys/${created.body.id}`, { scope: 'READ_WRITE' });
    expect(selfWiden.status).toBe(403);
    expect(selfWiden.body.code).toBe('ACCESS_KEY_CANNOT_MANAGE_KEYS');
    const widened = await u.client.patch(`/api/access-keys/${created.body.id}`, { scope: 'READ_WRITE' });
    expect(widened.body.scope).toBe('READ_WRITE');
    expect((await api.post('/api/access-keys', { name: 'x' })).body.code).toBe('ACCESS_KEY_CANNOT_CREATE_KEYS');
    const bad = await u.client.post('/api/access-keys', { name: 'bad', scope: 'ADMIN' });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe('scope');
  });
});
