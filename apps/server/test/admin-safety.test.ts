import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { adminDashboardApi, adminUsersApi, catalogApi, computeModelsApi, jobsApi } from '@lamella/contracts';
import { auditLog, computeModels, images, jobs, users } from '../src/platform/db/schema/index.ts';
import { purgeDueUsers } from '../src/modules/admin-users/service.ts';
import { DELETED_USER_ID } from '../src/modules/users/service.ts';
import { startTestApp, type TestApp } from './test-app.ts';
import { factories, type TestUser } from './factories.ts';

/**
 * Issue 26 items 6 and 7 over HTTP: separation of duties for power users (nothing for themselves, nothing on staff,
 * no lifting an admin's block, refusals audited), and the safety net (models with jobs are archived, not deleted;
 * user deletion waits a grace period and keeps the jobs anonymised in the statistics).
 */
let t: TestApp;
let f: ReturnType<typeof factories>;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
  admin = await f.admin();
});
afterAll(() => t.close());

const refusals = async (actorId: string) =>
  t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.actorId, actorId), eq(auditLog.action, 'access.denied')));

describe('separation of duties (issue 26 item 6)', () => {
  it('a power user with USER.WRITE cannot grant himself anything, nor license or change staff; every refusal is audited', async () => {
    const writer = await f.powerUser(['USER.READ', 'USER.WRITE']);
    const editor = await f.withRole('EDITOR');
    const otherPower = await f.powerUser(['JOB.READ']);
    const customer = await f.user();
    const attempts: Array<[string, () => Promise<{ status: number; body: { code?: string } }>, string]> = [
      ['licence for himself', () => writer.client.post('/api/admin/licenses', { type: 'UNLIMITED', userId: writer.id }), 'SELF_GRANT_FORBIDDEN'],
      ['licence for an admin', () => writer.client.post('/api/admin/licenses', { type: 'UNLIMITED', userId: admin.id }), 'STAFF_ADMIN_ONLY'],
      ['licence for an editor', () => writer.client.post('/api/admin/licenses', { type: 'UNLIMITED', userId: editor.id }), 'STAFF_ADMIN_ONLY'],
      ['licence for a power user', () => writer.client.post('/api/admin/licenses', { type: 'UNLIMITED', userId: otherPower.id }), 'STAFF_ADMIN_ONLY'],
      ['own role', () => writer.client.patch(`/api/users/${writer.id}`, { role: 'ADMIN' }), 'SELF_GRANT_FORBIDDEN'],
      ['an editor demoted', () => writer.client.patch(`/api/users/${editor.id}`, { role: 'USER' }), 'ROLE_CHANGE_ADMIN_ONLY'],
      ['a customer made editor', () => writer.client.patch(`/api/users/${customer.id}`, { role: 'EDITOR' }), 'ROLE_CHANGE_ADMIN_ONLY'],
      ['an admin blocked', () => writer.client.patch(`/api/users/${admin.id}`, { role: 'BLOCKED' }), 'ROLE_CHANGE_ADMIN_ONLY'],
      ['an editor activated', () => writer.client.put(`/api/admin/users/${editor.id}/activate`), 'STAFF_ADMIN_ONLY'],
      ['own activation', () => writer.client.put(`/api/admin/users/${writer.id}/activate`), 'SELF_GRANT_FORBIDDEN'],
      ['own privileges', () => writer.client.put(`/api/admin/acl/${writer.id}`, { privileges: [{ resource: 'JOB', action: 'WRITE' }] }), 'FORBIDDEN'],
    ];
    for (const [what, attempt, code] of attempts) {
      const res = await attempt();
      expect([what, res.status]).toEqual([what, 403]);
      if (code !== 'FORBIDDEN') expect([what, res.body.code]).toEqual([what, code]);
    }
    // nothing changed
    const [me] = await t.db.select().from(users).where(eq(users.id, writer.id));
    expect(me.role).toBe('POWER_USER');
    expect((await admin.client.ok(adminUsersApi.licenses, { params: { id: writer.id } })).every((l) => l.type !== 'UNLIMITED')).toBe(true);
    const [ed] = await t.db.select().from(users).where(eq(users.id, editor.id));
    expect(ed.role).toBe('EDITOR');
    // each refusal is in the audit log, naming the power user, the route and the refusal
    const audited = await refusals(writer.id);
    expect(audited).toHaveLength(attempts.length);
    expect(audited.map((a) => a.details.code)).toContain('STAFF_ADMIN_ONLY');
    expect(audited.find((a) => a.targetId === admin.id)?.details).toMatchObject({ method: 'POST', route: '/api/admin/licenses', role: 'POWER_USER' });
    // customers stay his to manage
    expect((await writer.client.post('/api/admin/licenses', { type: 'IMAGES_LIMITED', images: 5, userId: customer.id })).status).toBe(200);
    expect((await writer.client.patch(`/api/users/${customer.id}`, { role: 'BLOCKED' })).status).toBe(200);
    expect((await writer.client.patch(`/api/users/${customer.id}`, { role: 'USER' })).status).toBe(200);
  });

  it('a block an admin set is lifted by an admin only (role change or activation); a power user’s own block he may lift', async () => {
    const writer = await f.powerUser(['USER.READ', 'USER.WRITE']);
    const customer = await f.user();
    await admin.client.ok(adminUsersApi.setRole, { params: { id: customer.id }, body: { role: 'BLOCKED' } });
    for (const res of [
      await writer.client.patch(`/api/users/${customer.id}`, { role: 'USER' }),
      await writer.client.put(`/api/admin/users/${customer.id}/activate`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('BLOCKED_BY_ADMIN');
    }
    let [row] = await t.db.select().from(users).where(eq(users.id, customer.id));
    expect(row.role).toBe('BLOCKED');
    expect((await refusals(writer.id)).map((a) => a.details.code)).toEqual(['BLOCKED_BY_ADMIN', 'BLOCKED_BY_ADMIN']);
    expect((await admin.client.put(`/api/admin/users/${customer.id}/activate`)).status).toBe(200);
    [row] = await t.db.select().from(users).where(eq(users.id, customer.id));
    expect([row.role, row.blockedByAdmin]).toEqual(['USER', false]);
    // blocked by the power user: he may lift it
    expect((await writer.client.patch(`/api/users/${customer.id}`, { role: 'BLOCKED' })).status).toBe(200);
    expect((await writer.client.patch(`/api/users/${customer.id}`, { role: 'USER' })).status).toBe(200);
  });

  it('refusals by the guard (no privilege) are audited too; the matrix of the user-write calls', async () => {
    const reader = await f.powerUser(['USER.READ']);
    const plain = await f.user();
    const editor = await f.withRole('EDITOR');
    const target = await f.user();
    const cases: Array<[TestUser | null, number]> = [
      [null, 401],
      [plain, 403],
      [editor, 403],
      [reader, 403],
      [admin, 200],
    ];
    for (const [who, status] of cases) {
      const c = who?.client ?? t.client();
      expect((await c.post('/api/admin/licenses', { type: 'IMAGES_LIMITED', images: 3, userId: target.id })).status).toBe(status);
      expect((await c.post(`/api/admin/users/${target.id}/restore`)).status).toBe(status === 200 ? 409 : status);
    }
    expect((await refusals(reader.id)).length).toBe(2);
    expect((await refusals(plain.id)).length).toBe(2);
  });
});

describe('models with jobs are archived, not deleted (issue 26 item 7)', () => {
  it('refuses deleting a model with jobs, archives it (hidden from users, jobs kept), unarchives; a model without jobs is deleted', async () => {
    const u = await f.user();
    const model = await admin.client.ok(computeModelsApi.create, {
      body: {
        internalName: 'archive-me',
        routingPath: '/archive-me',
        storagePath: 'models/archive-me',
        displayName: 'Archive me',
        version: '20260101',
        accessType: 'PUBLIC',
        isDefaultVisible: true,
      },
    });
    const img = await f.image(u);
    const [job] = await u.client.ok(jobsApi.create, { body: { imageIds: [img.id], modelIds: [model.id] } });
    const del = await admin.client.delete(`/api/admin/compute-models/${model.id}`);
    expect(del.status).toBe(409);
    expect(del.body.code).toBe('MODEL_HAS_JOBS');
    expect(await t.db.select().from(jobs).where(eq(jobs.id, job.id))).toHaveLength(1);
    // only ADMIN archives
    expect((await u.client.post(`/api/admin/compute-models/${model.id}/archive`)).status).toBe(403);
    const archived = await admin.client.ok(computeModelsApi.archive, { params: { id: model.id } });
    expect(archived.archivedAt).toEqual(expect.any(String));
    const names = async (who: TestUser) => (await who.client.ok(catalogApi.availableModels)).map((m) => m.id);
    expect(await names(u)).not.toContain(model.id);
    expect(await names(admin)).not.toContain(model.id);
    expect((await u.client.post('/api/jobs', { imageIds: [img.id], modelIds: [model.id] })).status).toBeGreaterThanOrEqual(400);
    // the back-office list still shows it, and the job is still the user's
    expect((await admin.client.ok(computeModelsApi.list)).find((m) => m.id === model.id)?.archivedAt).toEqual(expect.any(String));
    expect((await u.client.get(`/api/jobs/${job.id}`)).status).toBe(200);
    await admin.client.ok(computeModelsApi.unarchive, { params: { id: model.id } });
    expect(await names(u)).toContain(model.id);
    const actions = await t.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.targetId, model.id));
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['model.archive', 'model.unarchive']));
    // a model nobody used is deleted
    const unused = await admin.client.ok(computeModelsApi.create, {
      body: {
        internalName: 'unused-model',
        routingPath: '/unused-model',
        storagePath: 'models/unused',
        displayName: 'Unused',
        version: '20260101',
        accessType: 'PUBLIC',
        isDefaultVisible: true,
      },
    });
    expect((await admin.client.delete(`/api/admin/compute-models/${unused.id}`)).body).toEqual({ id: unused.id, deleted: true });
    expect(await t.db.select().from(computeModels).where(eq(computeModels.id, unused.id))).toEqual([]);
  });
});

describe('user deletion with a grace period, jobs kept anonymised (issue 26 items 3 and 7)', () => {
  it('blocks at once, restores, deletes after the grace period; the successful-jobs figures do not change', async () => {
    const u = await f.user({ fields: { name: 'Grace', surname: 'Period' } });
    const img = await f.image(u);
    const job = await f.job(u, { image: img });
    await t.db.update(jobs).set({ status: 'FINISHED', finishedAt: new Date() }).where(eq(jobs.id, job.id));
    const before = await admin.client.ok(adminDashboardApi.success);

    // only ADMIN deletes and restores
    const writer = await f.powerUser(['USER.READ', 'USER.WRITE']);
    expect((await writer.client.delete(`/api/users/${u.id}`)).status).toBe(403);
    expect((await admin.client.delete(`/api/users/${u.id}`)).status).toBe(204);
    expect((await u.client.get('/api/users/me')).status).toBe(401);
    expect((await t.signin(u.email, u.password)).res.status).not.toBe(200);
    const profile = await admin.client.ok(adminUsersApi.get, { params: { id: u.id } });
    expect(profile.role).toBe('BLOCKED');
    const due = new Date(profile.deletionDueAt!).getTime();
    expect(due - Date.now()).toBeGreaterThan(29 * 86_400_000);
    // a second delete, a role change or an activation while it waits: 409
    expect((await admin.client.delete(`/api/users/${u.id}`)).status).toBe(409);
    expect((await admin.client.patch(`/api/users/${u.id}`, { role: 'USER' })).body.code).toBe('USER_DELETION_PENDING');
    // the power user cannot lift the scheduled deletion's block
    expect((await writer.client.put(`/api/admin/users/${u.id}/activate`)).status).toBeGreaterThanOrEqual(403);

    // restore: the role comes back, they sign in again
    expect((await admin.client.ok(adminUsersApi.restore, { params: { id: u.id } })).role).toBe('USER');
    expect((await t.signin(u.email, u.password)).res.status).toBe(200);
    expect((await admin.client.post(`/api/admin/users/${u.id}/restore`)).status).toBe(409);

    // delete again and let the grace period pass: nothing happens before it ends
    expect((await admin.client.delete(`/api/users/${u.id}`)).status).toBe(204);
    expect(await purgeDueUsers(t.db, t.app.ctx.storage, new Date(Date.now() + 86_400_000))).toBe(0);
    expect(await purgeDueUsers(t.db, t.app.ctx.storage, new Date(Date.now() + 31 * 86_400_000))).toBe(1);
    expect((await admin.client.get(`/api/users/${u.id}`)).status).toBe(404);
    expect(await t.db.select().from(users).where(eq(users.id, u.id))).toEqual([]);
    // the job stays, anonymised, and the figures stay
    const [kept] = await t.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect([kept.ownerId, kept.status, kept.projectId]).toEqual([DELETED_USER_ID, 'FINISHED', null]);
    const [keptImage] = await t.db.select().from(images).where(eq(images.id, img.id));
    expect([keptImage.ownerId, keptImage.isDeleted, keptImage.orginalFilename]).toEqual([DELETED_USER_ID, true, '']);
    expect(await admin.client.ok(adminDashboardApi.success)).toEqual(before);
    // the holder of deleted users' jobs is no account in the list
    const list = await admin.client.get(`/api/admin/users2?filter=${encodeURIComponent('Deleted user')}`);
    expect(list.body).toEqual([]);
    // audited: scheduled, cancelled, scheduled, deleted
    const entries = await t.db.select({ action: auditLog.action, actorId: auditLog.actorId }).from(auditLog).where(eq(auditLog.targetId, u.id));
    expect(entries.map((e) => e.action)).toEqual(
      expect.arrayContaining(['user.delete.schedule', 'user.delete.cancel', 'user.delete.schedule', 'user.delete']),
    );
    expect(entries.find((e) => e.action === 'user.delete')?.actorId).toBe(admin.id);
  });
});
