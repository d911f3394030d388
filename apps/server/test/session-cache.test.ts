import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { adminJobsApi, adminUsersApi, authApi, usersApi } from '@lamella/contracts';
import { groups, sessions, users } from '../src/platform/db/schema/index.ts';
import { loadConfig } from '../src/config.ts';
import { hashToken } from '../src/platform/auth/tokens.ts';
import { factories, type Factories, type TestUser } from './factories.ts';
import { CACHES_ON, soon, startTestApp, waitFor, type TestApp } from './test-app.ts';

/**
 * Issue 15 item 1: the guard reads session + user + privileges + group administration in ONE statement, and keeps
 * that read between requests (platform/auth/session-cache.ts, SESSION_CACHE_SECONDS) only until any of it changes.
 * These tests pin that a role change, a block, a privilege grant or revoke, becoming a group admin and a sign-out
 * take effect on the very next request, for a session cookie and for an access key, whether the change came through
 * this server's API or straight from the database (another replica, a job, an SQL console: migration 0017's
 * triggers NOTIFY every server); that the cache is really used; and that the sliding renewal is written at most once
 * an hour.
 */
let t: TestApp;
let f: Factories;
beforeAll(async () => {
  t = await startTestApp({ env: CACHES_ON });
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
    // written straight into the database (as another replica would): seen once the notification arrives
    const [g] = await t.db.insert(groups).values({ name: 'Lab', adminId: u.id }).returning();
    await soon(async () => (await u.client.ok(usersApi.me)).grpAdmin);
    await t.db.update(groups).set({ adminId: null }).where(eq(groups.id, g.id));
    await soon(async () => !(await u.client.ok(usersApi.me)).grpAdmin);
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
    await soon(
      async () => (await u.client.call(usersApi.me)).status === 200 && (await sessionRow(u)).lastSeenAt.getTime() > old.getTime() + 3600_000,
    );
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
    await soon(async () => (await u.client.call(usersApi.me)).status === 401);
  });
});

describe('the session cache', () => {
  const cache = () => t.app.ctx.sessionOptions.cache!;
  /** Runs `change` on the database without the triggers' notifications (what a cache without them would miss). */
  const unnotified = async (change: () => Promise<unknown>) => {
    await t.db.execute(sql`alter table sessions disable trigger sessions_auth_changed`);
    try {
      await change();
    } finally {
      await t.db.execute(sql`alter table sessions enable trigger sessions_auth_changed`);
    }
  };

  it('answers from the cache: a session row removed without notification still signs in until a change is notified', async () => {
    const u = await f.user();
    const row = await sessionRow(u);
    expect((await u.client.call(usersApi.me)).status).toBe(200); // read and kept
    await unnotified(() => t.db.delete(sessions).where(eq(sessions.id, row.id)));
    // the guard did not read the database: the session is gone but the kept read still answers
    expect((await u.client.call(usersApi.me)).status).toBe(200);
    // any notified change of the user drops the entry
    await t.db.update(users).set({ name: 'Ada B.' }).where(eq(users.id, u.id));
    await soon(async () => (await u.client.call(usersApi.me)).status === 401);
  });

  it('checks the expiry on every request, also for a kept read', async () => {
    const u = await f.user();
    const row = await sessionRow(u);
    await unnotified(() =>
      t.db
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() + 1500) })
        .where(eq(sessions.id, row.id)),
    );
    t.app.ctx.sessionOptions.cache!.clear();
    expect((await u.client.call(usersApi.me)).status).toBe(200); // kept with an expiry 1.5 s away
    await new Promise((r) => setTimeout(r, 1600));
    expect((await u.client.call(usersApi.me)).status).toBe(401);
  });

  it("a write request on this server empties it before answering (the caller's own change is seen at once)", async () => {
    const u = await f.user();
    expect((await u.client.call(usersApi.me)).status).toBe(200);
    expect(cache().size).toBeGreaterThan(0);
    await u.client.call(authApi.signout);
    expect(cache().size).toBe(0);
  });

  it('a read that began before an invalidation is not stored', () => {
    const c = cache();
    const row = {} as never;
    const before = c.begin();
    c.drop('00000000-0000-0000-0000-000000000000');
    c.set('hash-a', 'u', row, before);
    expect(c.get('hash-a')).toBeUndefined();
    c.set('hash-a', 'u', row, c.begin());
    expect(c.get('hash-a')).toBeDefined();
    c.drop('u');
    expect(c.get('hash-a')).toBeUndefined();
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('the session cache on PostgreSQL when its LISTEN connection is lost', () => {
  it('is not used until it listens again (no change can be missed meanwhile), then fills again', async () => {
    const u = await f.user();
    expect((await u.client.call(usersApi.me)).status).toBe(200);
    expect(t.app.ctx.sessionOptions.cache!.size).toBeGreaterThan(0);
    const listeners = async () => {
      const result = (await t.db.execute(
        sql`select pid from pg_stat_activity where datname = current_database() and query ilike 'listen %'`,
      )) as unknown;
      return (result as { rows: Array<{ pid: number }> }).rows;
    };
    const [listener] = await listeners();
    expect(listener).toBeDefined();
    await t.db.execute(sql`select pg_terminate_backend(${listener.pid})`);
    await waitFor(async () => t.app.ctx.sessionOptions.cache!.size === 0 && !(await listeners()).some((l) => l.pid === listener.pid), 5000);
    expect((await u.client.call(usersApi.me)).status).toBe(200);
    // reconnected within a few seconds: reads are kept again
    await waitFor(async () => (await u.client.call(usersApi.me)).status === 200 && t.app.ctx.sessionOptions.cache!.size > 0, 10_000);
  });
});

describe('SESSION_CACHE_SECONDS', () => {
  it('defaults to 30 s, 0 turns the cache off, a negative value is refused', async () => {
    expect(loadConfig({}).sessionCacheSeconds).toBe(30);
    expect(loadConfig({ SESSION_CACHE_SECONDS: '0' }).sessionCacheSeconds).toBe(0);
    expect(() => loadConfig({ SESSION_CACHE_SECONDS: '-1' })).toThrow(/SESSION_CACHE_SECONDS/);
    const off = await startTestApp({ env: { SESSION_CACHE_SECONDS: '0' } });
    try {
      expect(off.app.ctx.sessionOptions.cache).toBeNull();
      const u = await factories(off).user();
      expect((await u.client.call(usersApi.me)).status).toBe(200);
    } finally {
      await off.close();
    }
  });
});
