import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { AuditLogPage } from '@lamella/contracts';
import { auditLog, privileges, users } from '../src/platform/db/schema/index.ts';
import { ADMIN, startTestApp, type TestApp } from './test-app.ts';

let t: TestApp;
let admin: ReturnType<TestApp['client']>;
let adminId: string;
beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.signin(ADMIN.email, ADMIN.password)).client;
  [{ id: adminId }] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, ADMIN.email));
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

async function logOf(targetId: string) {
  const res = await admin.get<AuditLogPage>(`/api/admin/audit-log?targetId=${targetId}&pageSize=200`);
  expect(res.status).toBe(200);
  return res.body;
}

describe('audit log of privileged user writes', () => {
  it('records every admin-users write with who, what, target and when (newest first)', async () => {
    const u = await t.signupVerified();
    const before = Date.now();
    expect((await admin.patch(`/api/users/${u.id}`, { role: 'POWER_USER' })).status).toBe(200);
    expect((await admin.put(`/api/admin/acl/${u.id}`, { privileges: [{ resource: 'JOB', action: 'READ' }] })).status).toBe(200);
    expect((await admin.put(`/api/admin/acl/${u.id}`, { privileges: [{ resource: 'JOB', action: 'WRITE' }] })).status).toBe(200);
    expect((await admin.put(`/api/admin/users/${u.id}/activate`)).status).toBe(200);
    expect((await admin.patch(`/api/admin/users/${u.id}/preferences`, { removeDataPermanently: true })).status).toBe(200);
    expect((await admin.post('/api/admin/licenses', { type: 'TIME_LIMITED', days: 30, userId: u.id })).status).toBe(200);
    const { client: adminBrowser } = await t.signin(ADMIN.email, ADMIN.password);
    expect((await adminBrowser.patch(`/api/users/${u.id}`, { role: 'USER' })).status).toBe(200);
    expect((await adminBrowser.post(`/api/users/${u.id}/impersonate`)).status).toBe(200);

    const log = await logOf(u.id);
    expect(log.items.map((e) => e.action)).toEqual([
      'user.impersonate.start',
      'user.role.set',
      'license.assign',
      'user.preferences.set',
      'user.activate',
      'user.privileges.set',
      'user.privileges.set',
      'user.role.set',
    ]);
    expect(log.total).toBe(8);
    for (const e of log.items) {
      expect(e.actor).toEqual({ id: adminId, fullName: 'Admin Lamella', email: ADMIN.email });
      expect(e.targetType).toBe('user');
      expect(e.targetId).toBe(u.id);
      expect(new Date(e.createdAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
    }
    const byAction = (a: string) => log.items.filter((e) => e.action === a).map((e) => e.details);
    expect(byAction('user.role.set')).toEqual([
      { from: 'POWER_USER', to: 'USER', revokedPrivileges: ['JOB.WRITE'] },
      { from: 'USER', to: 'POWER_USER' },
    ]);
    expect(byAction('user.privileges.set')).toEqual([
      { privileges: ['JOB.WRITE'], granted: ['JOB.WRITE'], revoked: ['JOB.READ'] },
      { privileges: ['JOB.READ'], granted: ['JOB.READ'], revoked: [] },
    ]);
    expect(byAction('license.assign')[0]).toMatchObject({ type: 'TIME_LIMITED', days: 30 });
    expect(byAction('user.preferences.set')).toEqual([{ removeDataPermanently: true }]);

    // deleting the user is recorded too: it is scheduled (blocked, restorable for the grace period, issue 26 item 7)
    expect((await admin.delete(`/api/users/${u.id}`)).status).toBe(204);
    const after = await logOf(u.id);
    expect(after.items[0]).toMatchObject({ action: 'user.delete.schedule' });
  });

  it('records the power user who wrote, and a refused write as access.denied only (issue 26 item 6)', async () => {
    const writer = await powerUser(['USER.WRITE']);
    const customer = await t.signupVerified();
    const refused = await writer.client.post('/api/admin/licenses', { type: 'IMAGES_LIMITED', userId: customer.id });
    expect(refused.status).toBe(400);
    expect((await writer.client.patch(`/api/users/${customer.id}`, { role: 'ADMIN' })).status).toBe(403);
    expect((await logOf(customer.id)).items.map((i: { action: string }) => i.action)).toEqual(['access.denied']);
    expect((await writer.client.put(`/api/admin/users/${customer.id}/activate`)).status).toBe(200);
    const log = await logOf(customer.id);
    expect(log.items.filter((i: { action: string }) => i.action !== 'access.denied')).toHaveLength(1);
    expect(log.items[0]).toMatchObject({ action: 'user.activate', actor: { id: writer.id, email: writer.email } });
  });

  it('records demo license settings changes', async () => {
    const body = { maxImages: 7, demoDuration: 14, extensionDuration: 60, reminderBeforeExpiry: 3, reminderBeforeExtensionExpiry: 3 };
    expect((await admin.put('/api/admin/licenses/demo', body)).status).toBe(200);
    const res = await admin.get<AuditLogPage>('/api/admin/audit-log?action=settings.demoLicense.set');
    expect(res.body.items[0]).toMatchObject({ targetType: 'settings', targetId: 'demoLicense', details: body });
  });
});

describe('GET /api/admin/audit-log', () => {
  it('is readable by ADMIN only', async () => {
    const plain = await t.signupVerified();
    const editor = await t.signupVerified();
    await t.db.update(users).set({ role: 'EDITOR' }).where(eq(users.id, editor.id));
    const everything = await powerUser(['USER.READ', 'USER.WRITE', 'JOB.READ', 'JOB.WRITE']);
    const cases: Array<[ReturnType<TestApp['client']>, number]> = [
      [t.client(), 401],
      [plain.client, 403],
      [editor.client, 403],
      [everything.client, 403],
      [admin, 200],
    ];
    for (const [c, status] of cases) expect((await c.get('/api/admin/audit-log')).status).toBe(status);
  });

  it('pages newest first and filters by actor, target type and action (exact or prefix)', async () => {
    const base = new Date('2020-01-01T00:00:00Z').getTime();
    const actor = await t.signupVerified();
    const target = crypto.randomUUID();
    await t.db.insert(auditLog).values(
      [0, 1, 2, 3, 4].map((i) => ({
        actorId: actor.id,
        action: i % 2 ? 'job.feedback.add' : 'launcher.create',
        targetType: i % 2 ? 'job' : 'launcher',
        targetId: target,
        details: { i },
        createdAt: new Date(base + i * 1000),
      })),
    );
    const page1 = await admin.get<AuditLogPage>(`/api/admin/audit-log?actorId=${actor.id}&pageSize=2`);
    expect(page1.body).toMatchObject({ total: 5, page: 1, pageSize: 2 });
    expect(page1.body.items.map((e) => e.details.i)).toEqual([4, 3]);
    const page3 = await admin.get<AuditLogPage>(`/api/admin/audit-log?actorId=${actor.id}&pageSize=2&page=3`);
    expect(page3.body.items.map((e) => e.details.i)).toEqual([0]);
    const jobs = await admin.get<AuditLogPage>(`/api/admin/audit-log?actorId=${actor.id}&targetType=job`);
    expect(jobs.body.items.map((e) => e.details.i)).toEqual([3, 1]);
    const prefix = await admin.get<AuditLogPage>(`/api/admin/audit-log?actorId=${actor.id}&action=launcher.`);
    expect(prefix.body.items.map((e) => e.details.i)).toEqual([4, 2, 0]);
    const exact = await admin.get<AuditLogPage>(`/api/admin/audit-log?targetId=${target}&action=job.feedback.add`);
    expect(exact.body.total).toBe(2);
    // a prefix is literal: % and _ match only themselves
    expect((await admin.get<AuditLogPage>(`/api/admin/audit-log?actorId=${actor.id}&action=%25.`)).body.total).toBe(0);
  });

  it('refuses bad filters with a clear error naming the field', async () => {
    for (const q of ['pageSize=0', 'pageSize=1000', 'page=0', 'actorId=nope']) {
      const res = await admin.get(`/api/admin/audit-log?${q}`);
      expect([q, res.status]).toEqual([q, 400]);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.details[0].field).toBe(`querystring.${q.split('=')[0]}`);
    }
  });
});
