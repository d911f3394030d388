import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as OTPAuth from 'otpauth';
import { accessKeysApi, adminUsersApi, twoFactorApi, usersApi } from '@lamella/contracts';
import { factories } from './factories.ts';
import { ADMIN, startTestApp, type TestApp } from './test-app.ts';

/**
 * Issue 28 item 6: while impersonating, nothing that outlives the hour can be made (access keys, second factor,
 * password or e-mail), no nested impersonation, and every impersonated write is audited with both people.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const codeAt = (secret: string) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate();

async function impersonating(targetId: string) {
  const { client } = await t.signin(ADMIN.email, ADMIN.password);
  const res = await client.call(adminUsersApi.impersonate, { params: { id: targetId } });
  expect(res.status).toBe(200);
  return client;
}

const forbidden = (res: { status: number; body: unknown }) => {
  expect(res.status).toBe(403);
  expect(res.body).toMatchObject({ code: 'IMPERSONATION_FORBIDDEN' });
};

describe('while impersonating', () => {
  it('refuses access keys (create, enable), the second factor and password or e-mail changes; the user still can', async () => {
    const u = await t.signupVerified();
    const key = await u.client.ok(accessKeysApi.create, { body: { name: 'script' } });
    await u.client.ok(accessKeysApi.update, { params: { id: key.id }, body: { enabled: false } });
    const acting = await impersonating(u.id);

    forbidden(await acting.call(accessKeysApi.create, { body: { name: 'backdoor' } }));
    forbidden(await acting.call(accessKeysApi.update, { params: { id: key.id }, body: { enabled: true } }));
    forbidden(await acting.call(twoFactorApi.start));
    forbidden(await acting.call(twoFactorApi.update, { body: { code: '123456', enable: true } }));
    forbidden(await acting.call(usersApi.updateAuth, { body: { currentPassword: u.password, newPassword: 'Another-Pass-123' } }));
    forbidden(await acting.call(usersApi.updateAuth, { body: { currentPassword: u.password, email: 'taken-over@example.com' } }));

    // nothing was made: no new key, the disabled one stays disabled, no second factor, same address
    const keys = await u.client.ok(accessKeysApi.list);
    expect(keys.map((k) => [k.name, k.enabled])).toEqual([['script', false]]);
    expect((await u.client.ok(twoFactorApi.state)).enabled).toBe(false);
    expect((await u.client.ok(usersApi.account)).email).toBe(u.email);
    // the user's own session may (not impersonated)
    const qr = await u.client.call(twoFactorApi.start);
    expect((await u.client.call(twoFactorApi.update, { body: { code: codeAt(qr.headers.get('x-otp-secret')!), enable: true } })).status).toBe(200);
    expect((await u.client.call(accessKeysApi.create, { body: { name: 'own' } })).status).toBe(200);
  });

  it('refuses a nested impersonation (an impersonated admin cannot impersonate in turn)', async () => {
    const f = factories(t);
    const second = await f.withRole('ADMIN');
    const victim = await t.signupVerified();
    const acting = await impersonating(second.id);
    expect((await acting.ok(usersApi.me)).role).toBe('ADMIN');
    forbidden(await acting.call(adminUsersApi.impersonate, { params: { id: victim.id } }));
    expect((await acting.ok(usersApi.me)).id).toBe(second.id);
  });

  it('audits every write with the admin as actor and the user as target', async () => {
    const u = await t.signupVerified();
    const acting = await impersonating(u.id);
    const adminId = (await (await t.signin(ADMIN.email, ADMIN.password)).client.ok(usersApi.me)).id;
    expect((await acting.call(usersApi.updateProfile, { body: { name: 'Changed' } })).status).toBe(200);
    forbidden(await acting.call(accessKeysApi.create, { body: { name: 'backdoor' } }));
    // reads are not audited
    await acting.ok(usersApi.account);

    const { client: admin } = await t.signin(ADMIN.email, ADMIN.password);
    const log = await admin.get(`/api/admin/audit-log?action=impersonation.write&targetId=${u.id}`);
    expect(log.status).toBe(200);
    const entries = (log.body.items as Array<{ actor: { id: string }; targetId: string; details: Record<string, unknown> }>).map((e) => ({
      actor: e.actor.id,
      target: e.targetId,
      ...e.details,
    }));
    expect(entries).toHaveLength(2);
    expect(entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          actor: adminId,
          target: u.id,
          impersonatorId: adminId,
          impersonatedUserId: u.id,
          method: 'PATCH',
          route: '/api/users/me',
          statusCode: 200,
        }),
        expect.objectContaining({ actor: adminId, method: 'POST', route: '/api/access-keys', statusCode: 403 }),
      ]),
    );
  });
});
