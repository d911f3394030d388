import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog, licenses, users } from '../src/platform/db/schema/index.ts';
import { ADMIN, startTestApp, type TestApp } from './test-app.ts';

let t: TestApp;
let admin: ReturnType<TestApp['client']>;
beforeAll(async () => {
  t = await startTestApp();
  admin = (await t.signin(ADMIN.email, ADMIN.password)).client;
});
afterAll(() => t.close());

describe('project settings templates', () => {
  it('creates, reads, updates and deletes with the creator and date', async () => {
    const created = await admin.post('/api/admin/project-settings-templates', {
      name: '  Steel coatings ',
      description: '',
      settings: { magnification: { unit: 'µm' } },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      name: 'Steel coatings',
      description: null,
      settings: { magnification: { unit: 'µm' } },
      createdBy: { name: 'Admin', surname: 'Lamella' },
    });
    const fromText = await admin.post('/api/admin/project-settings-templates', { name: 'From text', settings: '{"a": 1}' });
    expect(fromText.body.settings).toEqual({ a: 1 });
    expect((await admin.get('/api/admin/project-settings-templates')).body).toHaveLength(2);
    const updated = await admin.put(`/api/admin/project-settings-templates/${created.body.id}`, {
      name: 'Renamed',
      description: 'for Zn layers',
      settings: { b: 2 },
    });
    expect(updated.body).toMatchObject({ name: 'Renamed', description: 'for Zn layers', settings: { b: 2 } });
    expect((await admin.get(`/api/admin/project-settings-templates/${created.body.id}`)).body.name).toBe('Renamed');
    expect((await admin.delete(`/api/admin/project-settings-templates/${created.body.id}`)).status).toBe(204);
    expect((await admin.get(`/api/admin/project-settings-templates/${created.body.id}`)).status).toBe(404);
  });

  it("refuses a blank name, missing settings and invalid JSON with the spec's messages; nothing is stored", async () => {
    const before = (await admin.get('/api/admin/project-settings-templates')).body.length;
    const blank = await admin.post('/api/admin/project-settings-templates', { name: '  ', settings: { a: 1 } });
    expect(blank.status).toBe(400);
    expect(blank.body.details).toEqual([expect.objectContaining({ field: 'name', message: 'Name is required' })]);
    const missing = await admin.post('/api/admin/project-settings-templates', { name: 'x' });
    expect(missing.body.details[0].message).toBe('Settings are required');
    const invalid = await admin.post('/api/admin/project-settings-templates', { name: 'x', settings: '{not json' });
    expect(invalid.body.details[0].message).toBe('Invalid JSON format');
    const array = await admin.post('/api/admin/project-settings-templates', { name: 'x', settings: [1, 2] });
    expect(array.body.details[0].field).toBe('settings');
    expect((await admin.get('/api/admin/project-settings-templates')).body.length).toBe(before);
  });

  it('is for ADMIN only', async () => {
    const u = await t.signupVerified();
    expect((await u.client.get('/api/admin/project-settings-templates')).status).toBe(403);
    await t.db.update(users).set({ role: 'POWER_USER' }).where(eq(users.id, u.id));
    expect((await u.client.get('/api/admin/project-settings-templates')).status).toBe(403);
    expect((await t.client().get('/api/admin/project-settings-templates')).status).toBe(401);
  });
});

describe('vouchers', () => {
  it('creates a batch, lists it in one page sorted by creation with the total, and deletes', async () => {
    const res = await admin.post('/api/admin/vouchers/', {
      count: 3,
      executions: 10,
      validUntil: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    });
    expect(res.status).toBe(200);
    expect(res.body.vouchers).toHaveLength(3);
    expect(res.body.vouchers[0].key).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    const list = await admin.get('/api/admin/vouchers/?page=1&pageSize=1000000&sortBy=createdAt&sortOrder=asc');
    expect(list.body.total).toBe(3);
    expect(list.headers.get('x-total-count')).toBe('3');
    expect(list.body.vouchers[0]).toMatchObject({ executions: 10, takenBy: null });
    const page = await admin.get('/api/admin/vouchers?pageSize=2&page=2');
    expect(page.body.vouchers).toHaveLength(1);
    expect((await admin.delete(`/api/admin/vouchers/${res.body.vouchers[0].id}`)).status).toBe(204);
    expect((await admin.get('/api/admin/vouchers')).body.total).toBe(2);
  });

  it("refuses the spec's invalid inputs with its messages", async () => {
    const res = await admin.post('/api/admin/vouchers/', { count: 0, executions: 0, validUntil: '2000-01-01' });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { message: string }) => d.message)).toEqual([
      'Number of vouchers must be greater than 0',
      'Number of model executions must be greater than 0',
      'Expiration date must be in the future',
    ]);
  });

  it('is redeemed once by a user for an IMAGES_LIMITED license, and shows who took it', async () => {
    const { body } = await admin.post('/api/admin/vouchers/', { count: 1, executions: 50 });
    const key = body.vouchers[0].key;
    const u = await t.signupVerified();
    const bad = await u.client.post('/api/vouchers/redeem', { key: 'AAAA-BBBB-CCCC' });
    expect(bad.body.code).toBe('INVALID_VOUCHER');
    const ok = await u.client.post('/api/vouchers/redeem', { key: key.toLowerCase() });
    expect(ok.body).toMatchObject({ type: 'IMAGES_LIMITED', images: 50, used: 0 });
    expect((await u.client.get('/api/users/me/account')).body.license).toMatchObject({ type: 'IMAGES_LIMITED', images: 50 });
    const active = await t.db.select().from(licenses).where(eq(licenses.userId, u.id));
    expect(active.filter((l) => l.active)).toHaveLength(1);
    const other = await t.signupVerified();
    expect((await other.client.post('/api/vouchers/redeem', { key })).body.code).toBe('INVALID_VOUCHER');
    const list = await admin.get('/api/admin/vouchers?pageSize=1000000');
    expect(list.body.vouchers.find((v: { key: string }) => v.key === key).takenBy).toEqual({ name: 'Ada Lovelace' });
  });

  it('is for ADMIN only', async () => {
    const u = await t.signupVerified();
    expect((await u.client.get('/api/admin/vouchers')).status).toBe(403);
    expect((await u.client.post('/api/admin/vouchers', { count: 1, executions: 1 })).status).toBe(403);
  });
});

describe('audit', () => {
  it('records template and voucher writes by the admin; refused writes leave no entry', async () => {
    const [me] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, ADMIN.email));
    const created = await admin.post('/api/admin/project-settings-templates', { name: 'Audited', settings: { a: 1 } });
    await admin.put(`/api/admin/project-settings-templates/${created.body.id}`, { name: 'Audited 2', settings: { a: 2 } });
    expect((await admin.put(`/api/admin/project-settings-templates/${created.body.id}`, { name: ' ', settings: { a: 2 } })).status).toBe(400);
    await admin.delete(`/api/admin/project-settings-templates/${created.body.id}`);
    const tpl = await t.db.select().from(auditLog).where(eq(auditLog.targetId, created.body.id)).orderBy(auditLog.createdAt);
    expect(tpl.map((r) => r.action)).toEqual(['template.create', 'template.update', 'template.delete']);
    expect(tpl.every((r) => r.actorId === me.id)).toBe(true);

    const batch = await admin.post('/api/admin/vouchers/', { count: 2, executions: 5 });
    const ids = batch.body.vouchers.map((v: { id: string }) => v.id);
    const [made] = (await t.db.select().from(auditLog).where(eq(auditLog.action, 'voucher.create'))).filter(
      (r) => JSON.stringify((r.details as { ids: string[] }).ids) === JSON.stringify(ids),
    );
    expect(made).toMatchObject({ actorId: me.id, targetType: 'voucher', details: { count: 2, executions: 5 } });
    await admin.delete(`/api/admin/vouchers/${ids[0]}`);
    const [gone] = await t.db.select().from(auditLog).where(eq(auditLog.targetId, ids[0]));
    expect(gone).toMatchObject({ action: 'voucher.delete', actorId: me.id });
  });
});
