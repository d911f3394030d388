/**
 * Issue 26 item 8: the audit log names its targets (a user's name, a model's display name…) instead of bare
 * UUIDs, and every action code the server records is listed in AUDIT_ACTIONS, which the back-office translates
 * (apps/web/src/features/admin/audit/labels.ts is typed against that list, so a code without a label fails tsc).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, auditApi, type AuditLogPage } from '@lamella/contracts';
import { endpointUrl } from '../../web/src/api/url.ts';
import { ADMIN, startTestApp, type TestApp } from './test-app.ts';
import { purgeDueUsers } from '../src/modules/admin-users/service.ts';

const modules = fileURLToPath(new URL('../src/modules', import.meta.url));
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });

describe('every recorded action code and target type is listed (and so translated)', () => {
  const text = sources(modules)
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
  it('action codes', () => {
    // `action: 'x.y'`, `action: cond ? 'x.y' : 'x.z'`, and the customization module's audit(db, auth, 'x.y', …)
    const found = new Set<string>();
    for (const m of text.matchAll(/action: ([^,}\n]+)/g)) for (const code of m[1].matchAll(/'([a-zA-Z_]+(?:\.[a-zA-Z_]+)+)'/g)) found.add(code[1]);
    for (const m of text.matchAll(/\baudit\([^,]+, [^,]+, '([a-zA-Z_]+(?:\.[a-zA-Z_]+)+)'/g)) found.add(m[1]);
    expect(found.size).toBeGreaterThan(40);
    expect([...found].filter((c) => !(AUDIT_ACTIONS as readonly string[]).includes(c))).toEqual([]);
  });
  it('target types', () => {
    const found = new Set([...text.matchAll(/targetType: '([a-z_]+)'/g)].map((m) => m[1]));
    expect([...found].filter((c) => !(AUDIT_TARGET_TYPES as readonly string[]).includes(c))).toEqual([]);
  });
});

describe('GET /admin/audit-log names the targets', () => {
  let t: TestApp;
  let admin: ReturnType<TestApp['client']>;
  beforeAll(async () => {
    t = await startTestApp();
    admin = (await t.signin(ADMIN.email, ADMIN.password)).client;
  });
  afterAll(() => t?.close());

  const logOf = async (query: Record<string, string>) => {
    const res = await admin.get<AuditLogPage>(endpointUrl(auditApi.list, { query }));
    expect(res.status).toBe(200);
    return res.body;
  };

  it("a user's current name, and the recorded e-mail once the account is deleted", async () => {
    const u = await t.signupVerified({ name: 'Rosalind', surname: 'Franklin' });
    expect((await admin.patch(`/api/users/${u.id}`, { role: 'EDITOR' })).status).toBe(200);
    const [entry] = (await logOf({ targetId: u.id, action: 'user.role.set' })).items;
    expect(entry).toMatchObject({ targetType: 'user', targetId: u.id, targetName: 'Rosalind Franklin' });
    expect((await admin.delete(`/api/users/${u.id}`)).status).toBe(204);
    // deletion waits its grace period (admin-safety.test.ts); the purge is audited when it ends
    expect(await purgeDueUsers(t.db, t.app.ctx.storage, new Date(Date.now() + 365 * 86_400_000))).toBeGreaterThanOrEqual(1);
    const items = (await logOf({ targetId: u.id })).items;
    expect(items.map((e) => e.action)).toEqual(['user.delete', 'user.delete.schedule', 'user.role.set']);
    for (const e of items) expect(e.targetName).toBe(u.email);
  });

  it('a model by its current display name, also on entries recorded before a rename', async () => {
    const tag = `audit-model-${Date.now()}`;
    const body = { internalName: tag, routingPath: `/${tag}`, storagePath: tag, displayName: 'Audit named model', version: '1' };
    const created = await admin.post<{ id: string }>('/api/admin/compute-models', body);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.id;
    const renamed = await admin.put(`/api/admin/compute-models/${id}`, { ...body, displayName: 'Audit renamed model' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const items = (await logOf({ targetType: 'model', targetId: id })).items;
    expect(items.map((e) => e.action)).toEqual(['model.update', 'model.create']);
    for (const e of items) expect(e).toMatchObject({ targetType: 'model', targetId: id, targetName: 'Audit renamed model' });
  });

  it('a settings template by its name; filters by type and action prefix', async () => {
    const created = await admin.post('/api/admin/project-settings-templates', { name: 'Audit named template', settings: {} });
    expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
    const page = await logOf({ targetType: 'settings_template', action: 'template.' });
    expect(page.items[0]).toMatchObject({ action: 'template.create', targetName: 'Audit named template' });
  });
});
