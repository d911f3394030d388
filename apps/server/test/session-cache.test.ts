import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { adminJobsApi, adminUsersApi, authApi, usersApi } from '@lamella/contracts';
import { groups, sessions } from '../src/platform/db/schema/index.ts';
import { hashToken } from '../src/platform/auth/tokens.ts';
import { factories, type Factories, type TestUser } from './factories.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * Issue 15 item 1: the guard reads session + user + privileges + group administration in ONE statement per request
 * (platform/auth/session.ts) and keeps nothing between requests. These tests pin that a role change, a block, a
 * privilege grant or revoke, becoming a group admin and a sign-out take effect on the very next request, for a
 * session cookie and for an access key, and that the session's sliding renewal is written at most once an hour.
 */
let t: TestApp;
let f: Factories;
beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
});
afterAll(() => t?.close());

const sessionRow = async (u: TestUser) =>
  (
    await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(u.client.cookies.get('lamella_session')!)))
  )[0];

describe('changes take effect on the next request (no stale session cache)', () => {
  it('a privilege revoke refuses the next call, a grant allows it, for the session and an access key', async () => {
    const reader = await f.powerUser(['JOB.READ']);
    const key = (await reader.client.post('/api/access-keys', { name: 'bench' })).body.code as string;
    const viaKey = t.client({ authorization: `Bearer ${key}` });
    expect((await reader.client.call(adminJobsApi.list, { query: {} })).status).toBe(200);
    expect((await viaKey.call(adminJobsApi.list, { query: {} })).status).toBe(200);
    expect((await reader.client.ok(usersApi.me)).permissions).toEqual(['JOB.READ']);

    const { client: admin } = await f.admin();
    await admin.ok(adminUsersApi.setAcl, { params: { id: reader.id }, body: { privileges: [] } });
    expect((await reader.client.call(adminJobsApi.list, { query: {} })).status).toBe(403);
    expect((await viaKey.call(adminJobsApi.list, { query: {} })).status).toBe(403);
    expect((await reader.client.ok(usersApi.me)).permissions).toEqual([]);

    await admin.ok(adminUsersApi.setAcl, { params: { id: reader.id }, body: { privileges: [{ resource: 'JOB', action: 'READ' }] } });
    expect((await reader.client.call(adminJobsApi.list, { query: {} })).status).toBe(200);
    expect((await viaKey.call(adminJobsApi.list, { query: {} })).status).toBe(200);
  });

  it('a block signs the user out at once: session and access key answer 401 on the next request', async () => {
    const u = await f.user();
    const key = (await u.client.post('/api/access-keys', { name: 'script' })).body.code as string;
    const viaKey = t.client({ authorization: `Bearer ${key}` });
    expect((await u.client.call(usersApi.me)).status).toBe(200);
    expect((await viaKey.call(usersApi.me)).status).toBe(200);
    const { client: admin } = await f.admin();
    await admin.ok(adminUsersApi.setRole, { params: { id: u.id }, body: { role: 'BLOCKED' } });
    expect((await u.client.call(usersApi.me)).status).toBe(401);
    expect((await viaKey.call(usersApi.me)).status).toBe(401);
  });

  it('a role change seen through an access key on the next request (USER → POWER_USER → USER)', async () => {
    const u = await f.user();
    const key = (await u.client.post('/api/access-keys', { name: 'script' })).body.code as string;
    const viaKey = t.client({ authorization: `Bearer ${key}` });
    expect((await viaKey.ok(usersApi.me)).role).toBe('USER');
    const { client: admin } = await f.admin();
    await admin.ok(adminUsersApi.setRole, { params: { id: u.id }, body: { role: 'POWER_USER' } });
    expect((await viaKey.ok(usersApi.me)).role).toBe('POWER_USER');
    await admin.ok(adminUsersApi.setAcl, { params: { id: u.id }, body: { privileges: [{ resource: 'JOB', action: 'READ' }] } });
    expect((await viaKey.call(adminJobsApi.list, { query: {} })).status).toBe(200);
    await admin.ok(adminUsersApi.setRole, { params: { id: u.id }, body: { role: 'USER' } });
    expect((await viaKey.ok(usersApi.me)).role).toBe('USER');
    // a USER's leftover privileges grant nothing
    expect((await viaKey.call(adminJobsApi.list, { query: {} })).status).toBe(403);
  });

  it('becoming (and ceasing to be) a group admin shows on the next request', async () => {
    const u = await f.user();
    expect((await u.client.ok(usersApi.me)).grpAdmin).toBe(false);
    const [g] = await t.db.insert(groups).values({ name: 'Lab', adminId: u.id }).returning();
    expect((await u.client.ok(usersApi.me)).grpAdmin).toBe(true);
    await t.db.update(groups).set({ adminId: null }).where(eq(groups.id, g.id));
    expect((await u.client.ok(usersApi.me)).grpAdmin).toBe(false);
  });

  it('sign-out ends the session: the old cookie answers 401 on the next request', async () => {
    const u = await f.user();
    const cookie = u.client.cookies.get('lamella_session')!;
    expect((await u.client.call(authApi.signout)).status).toBe(200);
    expect((await t.client({ cookie: `lamella_session=${cookie}` }).call(usersApi.me)).status).toBe(401);
  });
});

describe('session renewal is throttled', () => {
  it('does not write on every request; renews (last seen, expiry) once the last renewal is over an hour old', async () => {
    const u = await f.user();
    const first = await sessionRow(u);
    for (let i = 0; i < 3; i++) expect((await u.client.call(usersApi.me)).status).toBe(200);
    const unchanged = await sessionRow(u);
    expect(unchanged.lastSeenAt.getTime()).toBe(first.lastSeenAt.getTime());
    expect(unchanged.expiresAt.getTime()).toBe(first.expiresAt.getTime());

    const old = new Date(Date.now() - 2 * 3600_000);
    await t.db
      .update(sessions)
      .set({ lastSeenAt: old, expiresAt: new Date(Date.now() + 3600_000) })
      .where(eq(sessions.id, first.id));
    expect((await u.client.call(usersApi.me)).status).toBe(200);
    const renewed = await sessionRow(u);
    expect(renewed.lastSeenAt.getTime()).toBeGreaterThan(old.getTime() + 3600_000);
    expect(renewed.expiresAt.getTime()).toBeGreaterThan(Date.now() + 2 * 86_400_000);
  });

  it('an expired session is refused even though its row is still there', async () => {
    const u = await f.user();
    const row = await sessionRow(u);
    await t.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, row.id));
    expect((await u.client.call(usersApi.me)).status).toBe(401);
  });
});
