import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { images, jobs, licenses, npsResponses, privileges, sessions, users } from '../src/platform/db/schema/index.ts';
import { ADMIN, startTestApp, type TestApp } from './test-app.ts';
import { factories } from './factories.ts';
import { purgeDueUsers } from '../src/modules/admin-users/service.ts';
import { DELETED_USER_ID } from '../src/modules/users/service.ts';

let t: TestApp;
let admin: ReturnType<TestApp['client']>;
beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.signin(ADMIN.email, ADMIN.password)).client;
});
afterAll(() => t.close());

async function powerUser(perms: string[]) {
  const u = await t.signupVerified();
  await t.db.update(users).set({ role: 'POWER_USER' }).where(eq(users.id, u.id));
  for (const p of perms) {
    const [resource, action] = p.split('.');
    await t.db.insert(privileges).values({ userId: u.id, resource, action });
  }
  return u;
}

describe('users list, profile and stats', () => {
  it('lists customers with license, tags and uploads; filters and sorts', async () => {
    const u = await t.signupVerified({ name: 'Dorothy', surname: 'Hodgkin', company: 'Oxford Crystals' });
    const list = await admin.get('/api/admin/users2?filter=oxford&sortKey=fullName&sortOrder=asc');
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({
      id: u.id,
      fullName: 'Dorothy Hodgkin',
      company: 'Oxford Crystals',
      role: 'USER',
      license: { type: 'DEMO', limits: { images: 20, used: 0 }, createdBy: 'SYSTEM' },
      tags: { verified: true, removeDataPermanently: false },
      uploaded: 0,
    });
    const csv = await admin.get('/api/admin/users2/csv?columns[]=fullName&columns[]=email');
    // Readable headers in the admin's language; their CSV style (comma decimals by default: `;` between fields).
    expect(String(csv.body).split('\r\n')[0]).toBe('\uFEFFFull name;E-mail');
    expect(String(csv.body)).toContain(`Dorothy Hodgkin;${u.email}`);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect((await admin.get(`/api/users/${u.id}`)).body).toMatchObject({ name: 'Dorothy', verified: true, role: 'USER' });
    expect((await admin.get(`/api/users/${u.id}/stats`)).body).toMatchObject({ NEW: 0, CACHED: 0, FAILED: 0 });
  });

  it('neutralises formula cells in the users CSV', async () => {
    const u = await t.signupVerified({ name: 'Evil', surname: 'Formula', company: '=HYPERLINK("http://evil.test","x")' });
    const csv = await admin.get('/api/admin/users2/csv?columns[]=email&columns[]=company');
    const line = String(csv.body)
      .split('\r\n')
      .find((l) => l.startsWith(u.email));
    expect(line).toBe(`${u.email};"'=HYPERLINK(""http://evil.test"",""x"")"`);
  });

  it('answers per the authorization matrix', async () => {
    const plain = await t.signupVerified();
    const editor = await t.signupVerified();
    await t.db.update(users).set({ role: 'EDITOR' }).where(eq(users.id, editor.id));
    const reader = await powerUser(['USER.READ']);
    const jobsOnly = await powerUser(['JOB.READ', 'JOB.WRITE']);
    const cases: Array<[ReturnType<TestApp['client']>, number]> = [
      [t.client(), 401],
      [plain.client, 403],
      [editor.client, 403],
      [jobsOnly.client, 403],
      [reader.client, 200],
      [admin, 200],
    ];
    for (const path of ['/api/admin/users2', '/api/admin/users2/csv', `/api/users/${plain.id}`, `/api/users/${plain.id}/stats`]) {
      for (const [c, status] of cases) expect([path, (await c.get(path)).status]).toEqual([path, status]);
    }
    // an unknown user answers 404 to whoever may read users
    expect((await reader.client.get('/api/users/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    // reading is not writing: USER.READ alone changes nothing
    expect((await reader.client.patch(`/api/users/${plain.id}`, { role: 'EDITOR' })).status).toBe(403);
    expect((await reader.client.put(`/api/admin/users/${plain.id}/activate`)).status).toBe(403);
    expect((await reader.client.post('/api/admin/licenses', { type: 'UNLIMITED', userId: plain.id })).status).toBe(403);
    expect((await reader.client.get('/api/admin/acl')).status).toBe(403);
    const [row] = await t.db.select().from(users).where(eq(users.id, plain.id));
    expect(row.role).toBe('USER');
  });
});

describe('write privileges (USER.WRITE)', () => {
  it('lets a USER.WRITE holder activate, assign a license and set customer roles, but not touch staff', async () => {
    const writer = await powerUser(['USER.READ', 'USER.WRITE']);
    const customer = await t.signupVerified();
    expect((await writer.client.put(`/api/admin/users/${customer.id}/activate`)).body).toEqual({ status: 'OK' });
    const lic = await writer.client.post('/api/admin/licenses', { type: 'IMAGES_LIMITED', images: 20, userId: customer.id });
    expect(lic.status).toBe(200);
    expect(lic.body).toMatchObject({ type: 'IMAGES_LIMITED', createdBy: 'ADMIN', limits: { images: 20, used: 0 } });
    // EDITOR is staff (issue 26 item 6): a power user neither makes one nor changes one
    expect((await writer.client.patch(`/api/users/${customer.id}`, { role: 'EDITOR' })).body.code).toBe('ROLE_CHANGE_ADMIN_ONLY');
    expect((await writer.client.patch(`/api/users/${customer.id}`, { role: 'BLOCKED' })).status).toBe(200);
    // staff roles stay ADMIN only, both ways
    const promote = await writer.client.patch(`/api/users/${customer.id}`, { role: 'POWER_USER' });
    expect(promote.status).toBe(403);
    expect(promote.body.code).toBe('ROLE_CHANGE_ADMIN_ONLY');
    expect((await writer.client.patch(`/api/users/${customer.id}`, { role: 'ADMIN' })).status).toBe(403);
    const [me] = await t.db.select().from(users).where(eq(users.email, ADMIN.email));
    expect((await writer.client.patch(`/api/users/${me.id}`, { role: 'USER' })).status).toBe(403);
    expect((await writer.client.patch(`/api/users/${writer.id}`, { role: 'USER' })).status).toBe(403);
    // ADMIN-only actions
    expect((await writer.client.delete(`/api/users/${customer.id}`)).status).toBe(403);
    expect((await writer.client.post(`/api/users/${customer.id}/impersonate`)).status).toBe(403);
    expect((await writer.client.patch(`/api/admin/users/${customer.id}/preferences`, { removeDataPermanently: true })).status).toBe(403);
    expect((await writer.client.put(`/api/admin/acl/${writer.id}`, { privileges: [] })).status).toBe(403);
    expect((await writer.client.get('/api/admin/audit-log')).status).toBe(403);
    const [row] = await t.db.select().from(users).where(eq(users.id, customer.id));
    expect(row.role).toBe('BLOCKED');
  });

  it('activating an account lifts BLOCKED only for a USER.WRITE holder', async () => {
    const blocked = await t.signupVerified();
    await t.db.update(users).set({ role: 'BLOCKED', emailVerified: false }).where(eq(users.id, blocked.id));
    const reader = await powerUser(['USER.READ']);
    expect((await reader.client.put(`/api/admin/users/${blocked.id}/activate`)).status).toBe(403);
    let [row] = await t.db.select().from(users).where(eq(users.id, blocked.id));
    expect([row.role, row.emailVerified]).toEqual(['BLOCKED', false]);
    const writer = await powerUser(['USER.WRITE']);
    expect((await writer.client.put(`/api/admin/users/${blocked.id}/activate`)).status).toBe(200);
    [row] = await t.db.select().from(users).where(eq(users.id, blocked.id));
    expect([row.role, row.emailVerified]).toEqual(['USER', true]);
  });
});

describe('roles, access control and impersonation', () => {
  it('assigns a role, ending the user sessions; refuses a missing role with the spec message; keeps the last admin', async () => {
    const u = await t.signupVerified();
    const res = await admin.patch(`/api/users/${u.id}`, { role: 'POWER_USER' });
    expect(res.body).toEqual({ id: u.id, role: 'POWER_USER' });
    expect((await u.client.get('/api/users/me')).status).toBe(401);
    expect((await t.signin(u.email, u.password)).res.body.user.role).toBe('POWER_USER');
    const missing = await admin.patch(`/api/users/${u.id}`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('User id or role is not defined');
    const [me] = await t.db.select().from(users).where(eq(users.email, ADMIN.email));
    expect((await admin.patch(`/api/users/${me.id}`, { role: 'USER' })).body.code).toBe('LAST_ADMIN');
  });

  it('grants only known privileges, only to power users, which apply at once', async () => {
    const u = await powerUser([]);
    expect((await u.client.get('/api/admin/users2')).status).toBe(403);
    const bad = await admin.put(`/api/admin/acl/${u.id}`, { privileges: [{ resource: 'USER', action: 'DELETE' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0]).toMatchObject({ field: 'privileges.0', key: 'adminUsersErrors.unknownPrivilege' });
    const granted = await admin.put(`/api/admin/acl/${u.id}`, {
      privileges: [
        { resource: 'USER', action: 'READ' },
        { resource: 'USER', action: 'WRITE' },
        { resource: 'USER', action: 'READ' },
      ],
    });
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({ userId: u.id, name: 'Ada Lovelace', email: u.email });
    expect(granted.body.privileges).toEqual([
      { resource: 'USER', action: 'READ' },
      { resource: 'USER', action: 'WRITE' },
    ]);
    expect((await u.client.get('/api/users/me')).body.permissions.sort()).toEqual(['USER.READ', 'USER.WRITE']);
    expect((await u.client.get('/api/admin/users2')).status).toBe(200);
    const acl = await admin.get('/api/admin/acl');
    expect(acl.body).toContainEqual({
      userId: u.id,
      name: 'Ada Lovelace',
      email: u.email,
      privileges: [
        { resource: 'USER', action: 'READ' },
        { resource: 'USER', action: 'WRITE' },
      ],
    });
    // the set replaces the previous one: USER.* are revoked
    expect((await admin.put(`/api/admin/acl/${u.id}`, { privileges: [{ resource: 'JOB', action: 'WRITE' }] })).status).toBe(200);
    expect((await u.client.get('/api/admin/users2')).status).toBe(403);
    // leaving the POWER_USER role takes the privileges away: a later promotion starts from none
    expect((await admin.patch(`/api/users/${u.id}`, { role: 'USER' })).status).toBe(200);
    expect(await t.db.select().from(privileges).where(eq(privileges.userId, u.id))).toEqual([]);
  });

  it('refuses to grant privileges to a user who is not a power user', async () => {
    const customer = await t.signupVerified();
    const res = await admin.put(`/api/admin/acl/${customer.id}`, { privileges: [{ resource: 'JOB', action: 'READ' }] });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('NOT_POWER_USER');
    expect(res.body.message).toBe('Privileges can only be granted to a power user (role POWER_USER).');
    expect(await t.db.select().from(privileges).where(eq(privileges.userId, customer.id))).toEqual([]);
    expect((await admin.put('/api/admin/acl/00000000-0000-4000-8000-000000000000', { privileges: [] })).status).toBe(404);
  });

  it('impersonates a user and deletes one', async () => {
    const u = await t.signupVerified({ name: 'Emmy', surname: 'Noether' });
    const { client: adminBrowser } = await t.signin(ADMIN.email, ADMIN.password);
    expect((await adminBrowser.post(`/api/users/${u.id}/impersonate`)).status).toBe(200);
    const me = await adminBrowser.get('/api/users/me');
    expect(me.body).toMatchObject({ id: u.id, fullName: 'Emmy Noether', impersonatedBy: { fullName: 'Admin Lamella' } });
    const plain = await t.signupVerified();
    expect((await plain.client.post(`/api/users/${u.id}/impersonate`)).status).toBe(403);
    // deletion waits its grace period (admin-safety.test.ts): blocked at once, sessions ended
    expect((await admin.delete(`/api/users/${u.id}`)).status).toBe(204);
    expect((await admin.get(`/api/users/${u.id}`)).body).toMatchObject({ role: 'BLOCKED', deletionDueAt: expect.any(String) });
    expect((await adminBrowser.get('/api/users/me')).status).toBe(401);
  });

  it('impersonation lasts an hour; "Back to my account" and signing out end only it, restoring the admin (audit-logged)', async () => {
    const u = await t.signupVerified({ name: 'Lise', surname: 'Meitner' });
    const { client: adminBrowser } = await t.signin(ADMIN.email, ADMIN.password);
    const before = Date.now();
    expect((await adminBrowser.post(`/api/users/${u.id}/impersonate`)).status).toBe(200);
    const [row] = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.impersonatorId, (await admin.get('/api/users/me')).body.id))
      .orderBy(desc(sessions.createdAt))
      .limit(1);
    expect(row.userId).toBe(u.id);
    expect(row.expiresAt.getTime() - before).toBeGreaterThan(59 * 60_000);
    expect(row.expiresAt.getTime() - before).toBeLessThan(61 * 60_000);
    // a plain user is not impersonating: nothing to end
    const notActing = await u.client.delete('/api/users/me/impersonation');
    expect(notActing.status).toBe(400);
    expect(notActing.body.code).toBe('NOT_IMPERSONATING');

    const ended = await adminBrowser.delete('/api/users/me/impersonation');
    expect(ended.body).toEqual({ restored: true });
    expect((await adminBrowser.get('/api/users/me')).body).toMatchObject({ role: 'ADMIN', impersonatedBy: null });
    expect((await t.db.select().from(sessions).where(eq(sessions.id, row.id))).length).toBe(0);

    // signing out while impersonating: back in the admin account, not signed out
    expect((await adminBrowser.post(`/api/users/${u.id}/impersonate`)).status).toBe(200);
    expect((await adminBrowser.get('/api/users/me')).body.id).toBe(u.id);
    expect((await adminBrowser.post('/api/auth/signout')).status).toBe(200);
    expect((await adminBrowser.get('/api/users/me')).body).toMatchObject({ role: 'ADMIN' });
    const log = await admin.get('/api/admin/audit-log', { action: 'user.impersonate.end' });
    expect(log.status).toBe(200);
    const ends = (log.body.items ?? log.body).filter(
      (e: { targetId: string; action: string }) => e.targetId === u.id && e.action === 'user.impersonate.end',
    );
    expect(ends).toHaveLength(2);
  });
});

describe('licenses', () => {
  it('assigns a license with the spec rules and replaces the active one', async () => {
    const u = await t.signupVerified();
    const noImages = await admin.post('/api/admin/licenses', { type: 'IMAGES_LIMITED', userId: u.id });
    expect(noImages.status).toBe(400);
    expect(noImages.body.details[0].field).toBe('images');
    expect((await admin.post('/api/admin/licenses', { type: 'TIME_LIMITED', userId: u.id })).body.details[0].field).toBe('days');
    const ok = await admin.post('/api/admin/licenses', { type: 'TIME_LIMITED', days: 30, userId: u.id });
    expect(ok.body).toMatchObject({ type: 'TIME_LIMITED', createdBy: 'ADMIN', limits: { images: null } });
    const rows = await t.db.select().from(licenses).where(eq(licenses.userId, u.id));
    expect(rows.filter((r) => r.active).map((r) => r.type)).toEqual(['TIME_LIMITED']);
  });

  it('changes the demo license settings used for new users', async () => {
    expect((await admin.get('/api/admin/licenses/demo')).body).toMatchObject({ maxImages: 20, demoDuration: 30 });
    expect((await admin.put('/api/admin/licenses/demo', { maxImages: 5 })).status).toBe(400);
    const body = { maxImages: 5, demoDuration: 10, extensionDuration: 60, reminderBeforeExpiry: 3, reminderBeforeExtensionExpiry: 3 };
    expect((await admin.put('/api/admin/licenses/demo', body)).body).toEqual(body);
    const u = await t.signupVerified();
    expect((await u.client.get('/api/users/me/account')).body.license).toMatchObject({ type: 'DEMO', images: 5 });
  });
});

describe('uploaded image count and license history (user profile)', () => {
  it('counts each user own uploads in the list and the profile (was 0 for everyone)', async () => {
    const f = factories(t);
    const uploader = await f.user({ fields: { name: 'Rosalind', surname: 'Franklin', company: 'Kings Diffraction' } });
    const other = await f.user({ fields: { company: 'Kings Diffraction' } });
    await f.image(uploader);
    await f.image(uploader, { level: 120 });
    const list = await admin.get('/api/admin/users2?filter=kings%20diffraction&sortKey=fullName&sortOrder=desc');
    expect(list.body.map((r: { id: string; uploaded: number }) => [r.id, r.uploaded])).toEqual([
      [uploader.id, 2],
      [other.id, 0],
    ]);
    expect((await admin.get(`/api/users/${uploader.id}`)).body).toMatchObject({ uploaded: 2, address: { company: 'Kings Diffraction' } });
    const csv = await admin.get('/api/admin/users2/csv?columns[]=email&columns[]=uploaded');
    expect(String(csv.body)).toContain(`${uploader.email};2`);
  });

  it('lists the license history newest first, to USER.READ holders only', async () => {
    const u = await t.signupVerified();
    await admin.post('/api/admin/licenses', { type: 'TIME_LIMITED', days: 30, userId: u.id });
    const history = await admin.get(`/api/admin/users/${u.id}/licenses`);
    expect(history.status).toBe(200);
    expect(history.body.map((l: { type: string; active: boolean; createdBy: string }) => [l.type, l.active, l.createdBy])).toEqual([
      ['TIME_LIMITED', true, 'ADMIN'],
      ['DEMO', false, 'SYSTEM'],
    ]);
    expect(history.body[0].finishAt).not.toBeNull();
    const plain = await t.signupVerified();
    const reader = await powerUser(['USER.READ']);
    const jobsOnly = await powerUser(['JOB.READ']);
    const path = `/api/admin/users/${u.id}/licenses`;
    expect((await t.client().get(path)).status).toBe(401);
    expect((await plain.client.get(path)).status).toBe(403);
    expect((await jobsOnly.client.get(path)).status).toBe(403);
    expect((await reader.client.get(path)).status).toBe(200);
    expect((await reader.client.get('/api/admin/users/00000000-0000-4000-8000-000000000000/licenses')).status).toBe(404);
  });
});

describe('deleting a user (decision in ARCHITECTURE.md)', () => {
  it('removes their images with the account, keeps their jobs anonymised and their NPS answers anonymous, and is audit-logged', async () => {
    const f = factories(t);
    const u = await f.user();
    const job = await f.job(u);
    await t.db.insert(npsResponses).values({ userId: u.id, score: 9 });
    expect((await admin.delete(`/api/users/${u.id}`)).status).toBe(204);
    // deletion waits its grace period (admin-safety.test.ts); then the purge
    expect(await purgeDueUsers(t.db, t.app.ctx.storage, new Date(Date.now() + 365 * 86_400_000))).toBeGreaterThanOrEqual(1);
    expect(await t.db.select().from(images).where(eq(images.ownerId, u.id))).toEqual([]);
    expect((await t.db.select().from(jobs).where(eq(jobs.id, job.id)))[0].ownerId).toBe(DELETED_USER_ID);
    const nps = await t.db.select().from(npsResponses).where(eq(npsResponses.score, 9));
    expect(nps.some((n) => n.userId === null)).toBe(true);
    const log = await admin.get('/api/admin/audit-log');
    expect(JSON.stringify(log.body)).toContain(u.email);
  });
});
