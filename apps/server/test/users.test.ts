import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { licenses, users, groups } from '../src/platform/db/schema/index.ts';
import { fields, startTestApp, tokenFrom, type TestApp } from './test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const png = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
const jpeg = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: '#cc3366' } })
    .jpeg()
    .toBuffer();
const form = (data: Buffer, name = 'logo.png', field = 'file') => {
  const f = new FormData();
  f.append(field, new Blob([data]), name);
  return f;
};

describe('GET /users/me and /users/me/account', () => {
  it('returns the user with role, permissions and group-admin flag', async () => {
    const u = await t.signupVerified({ name: 'Marie', surname: 'Curie' });
    const me = await u.client.get('/api/users/me');
    expect(me.body).toMatchObject({
      id: u.id,
      name: 'Marie',
      surname: 'Curie',
      fullName: 'Marie Curie',
      email: u.email,
      role: 'USER',
      permissions: [],
      grpAdmin: false,
      language: 'en',
    });
    await t.db.insert(groups).values({ name: 'Lab', adminId: u.id });
    expect((await u.client.get('/api/users/me')).body.grpAdmin).toBe(true);
    const account = await u.client.get('/api/users/me/account');
    expect(account.body).toMatchObject({
      email: u.email,
      csvDecimalSeparator: 'comma',
      trainingConsent: false,
      canChangeTrainingConsent: true,
      hasLogo: false,
      address: { company: 'Metals AG' },
    });
    expect(account.body.license).toMatchObject({ type: 'DEMO', images: 20, used: 0 });
  });
});

describe('staff accounts', () => {
  it('show an UNLIMITED license (staff runs models without one)', async () => {
    const { client } = await t.signin('admin@lamella.test', 'Admin-Password-1');
    expect((await client.get('/api/users/me/account')).body.license).toEqual({ type: 'UNLIMITED', images: null, used: 0, finish: null });
  });
});

describe('PATCH /users/me (profile)', () => {
  it('updates name, address and preferences, dropping blank values', async () => {
    const u = await t.signupVerified();
    const res = await u.client.patch('/api/users/me', {
      name: 'Lise',
      surname: 'Meitner',
      csvDecimalSeparator: 'dot',
      language: 'de',
      address: { company: 'Kaiser-Wilhelm-Institut', city: 'Berlin', country: 'Germany', phone: '+49 30 1234567', taxNumber: '   ' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Lise', csvDecimalSeparator: 'dot', language: 'de', address: { city: 'Berlin', country: 'Germany' } });
    expect(res.body.address).not.toHaveProperty('taxNumber');
  });

  it('refuses a missing country, a bad phone, a blank name, and unknown fields; nothing changes', async () => {
    const u = await t.signupVerified();
    const noCountry = await u.client.patch('/api/users/me', { address: { city: 'Berlin' } });
    expect(noCountry.status).toBe(400);
    expect(noCountry.body.details).toContainEqual(expect.objectContaining({ field: 'country' }));
    const badPhone = await u.client.patch('/api/users/me', { address: { country: 'DE', phone: '12' } });
    expect(badPhone.body.details).toContainEqual(expect.objectContaining({ field: 'phone', key: 'auth.phoneInvalid' }));
    const blank = await u.client.patch('/api/users/me', { name: '  ' });
    expect(blank.body.details).toContainEqual(expect.objectContaining({ field: 'name' }));
    const unknown = await u.client.patch('/api/users/me', { role: 'ADMIN' });
    expect(unknown.status).toBe(400);
    const account = await u.client.get('/api/users/me/account');
    expect(account.body.name).toBe('Ada');
    expect((await u.client.get('/api/users/me')).body.role).toBe('USER');
  });
});

describe('PATCH /users/me/auth (account)', () => {
  it('needs the current password', async () => {
    const u = await t.signupVerified();
    const res = await u.client.patch('/api/users/me/auth', { currentPassword: 'Wrong-Password-1', newPassword: 'Brand-New-Pass-1' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'WRONG_PASSWORD', details: [{ field: 'currentPassword' }] });
    expect((await t.signin(u.email, u.password)).res.status).toBe(200);
  });

  it('changes the password, ends other sessions but keeps this one', async () => {
    const u = await t.signupVerified();
    const other = await t.signin(u.email, u.password);
    const weak = await u.client.patch('/api/users/me/auth', { currentPassword: u.password, newPassword: 'weakpassword' });
    expect(weak.body.details[0]).toMatchObject({ field: 'newPassword', key: 'auth.passwordValidator.uppercase' });
    const res = await u.client.patch('/api/users/me/auth', { currentPassword: u.password, newPassword: 'Brand-New-Pass-1' });
    expect(res.body).toEqual({ status: 'OK', emailChanged: false });
    expect((await u.client.get('/api/users/me')).status).toBe(200);
    expect((await other.client.get('/api/users/me')).status).toBe(401);
    expect((await t.signin(u.email, 'Brand-New-Pass-1')).res.status).toBe(200);
  });

  it('changes the e-mail address, which must be verified again', async () => {
    const u = await t.signupVerified();
    const taken = await t.signupVerified();
    expect((await u.client.patch('/api/users/me/auth', { currentPassword: u.password, email: taken.email })).status).toBe(409);
    const res = await u.client.patch('/api/users/me/auth', { currentPassword: u.password, email: 'new-address@example.com' });
    expect(res.body.emailChanged).toBe(true);
    expect((await u.client.get('/api/users/me')).body).toMatchObject({ email: 'new-address@example.com', emailVerified: false });
    const mail = await t.mailbox.waitFor('new-address@example.com', /verify-email/);
    expect((await u.client.post('/api/auth/user/email/verify', { method: 'token', token: tokenFrom(mail, '/auth/verify-email') })).status).toBe(200);
  });
});

describe('training consent', () => {
  it('adds the 2 extra trial months once', async () => {
    const u = await t.signupVerified();
    const [before] = await t.db.select().from(licenses).where(eq(licenses.userId, u.id));
    const res = await u.client.patch('/api/users/me/consent', { trainingConsent: true });
    expect(res.body.trainingConsent).toBe(true);
    const [after] = await t.db.select().from(licenses).where(eq(licenses.userId, u.id));
    expect(Math.round((after.finishAt!.getTime() - before.finishAt!.getTime()) / 86_400_000)).toBe(60);
    await u.client.patch('/api/users/me/consent', { trainingConsent: false });
    await u.client.patch('/api/users/me/consent', { trainingConsent: true });
    const [again] = await t.db.select().from(licenses).where(eq(licenses.userId, u.id));
    expect(again.finishAt!.getTime()).toBe(after.finishAt!.getTime());
  });

  it("stays the member's own to change in a group (issue 28 item 5)", async () => {
    const u = await t.signupVerified();
    const [g] = await t.db.insert(groups).values({ name: 'Enterprise' }).returning();
    await t.db.update(users).set({ groupId: g.id }).where(eq(users.id, u.id));
    expect((await u.client.get('/api/users/me/account')).body).toMatchObject({ canChangeTrainingConsent: true, group: { name: 'Enterprise' } });
    const res = await u.client.patch('/api/users/me/consent', { trainingConsent: true });
    expect(res.status).toBe(200);
    expect(res.body.trainingConsent).toBe(true);
    expect((await u.client.patch('/api/users/me/consent', { trainingConsent: false })).body.trainingConsent).toBe(false);
  });
});

describe('logo', () => {
  it('accepts PNG and JPEG by content, serves it, and removes it', async () => {
    const u = await t.signupVerified();
    expect((await u.client.get('/api/users/me/logo')).status).toBe(404);
    const up = await u.client.request('PUT', '/api/users/me/logo', { form: form(await jpeg(), 'photo.png') });
    expect(up.status).toBe(200);
    const got = await u.client.get('/api/users/me/logo');
    expect(got.headers.get('content-type')).toBe('image/png');
    expect((await sharp(got.buffer).metadata()).width).toBe(40);
    expect((await u.client.request('PUT', '/api/users/me/logo', { form: form(await png()) })).status).toBe(200);
    expect((await u.client.get('/api/users/me/account')).body.hasLogo).toBe(true);
    expect((await u.client.delete('/api/users/me/logo')).body).toEqual({ status: 'OK' });
    expect((await u.client.get('/api/users/me/logo')).status).toBe(404);
  });

  it('refuses other content whatever its name, and a missing file; the old logo stays', async () => {
    const u = await t.signupVerified();
    await u.client.request('PUT', '/api/users/me/logo', { form: form(await png()) });
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'binary');
    const res = await u.client.request('PUT', '/api/users/me/logo', { form: form(gif, 'logo.png') });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', details: [{ field: 'file' }] });
    const tiff = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .tiff()
      .toBuffer();
    expect((await u.client.request('PUT', '/api/users/me/logo', { form: form(tiff, 'x.jpg') })).status).toBe(415);
    const truncated = (await png()).subarray(0, 40);
    expect((await u.client.request('PUT', '/api/users/me/logo', { form: form(truncated) })).status).toBe(415);
    const wrongField = await u.client.request('PUT', '/api/users/me/logo', { form: form(await png(), 'a.png', 'image') });
    expect(wrongField.status).toBe(400);
    expect((await u.client.get('/api/users/me/logo')).status).toBe(200);
  });
});

describe('account removal', () => {
  it('mails a link; the token removes the account and everything it owns', async () => {
    const u = await t.signupVerified();
    await u.client.request('PUT', '/api/users/me/logo', { form: form(await png()) });
    const [row] = await t.db.select().from(users).where(eq(users.id, u.id));
    expect((await u.client.delete('/api/users/me')).body).toEqual({ status: 'OK' });
    const mail = await t.mailbox.waitFor(u.email, /account-removal/);
    const token = tokenFrom(mail, '/auth/account-removal');
    expect((await t.client().delete(`/api/users/me?token=wrong${token}`)).body.code).toBe('INVALID_TOKEN');
    expect((await t.db.select().from(users).where(eq(users.id, u.id))).length).toBe(1);
    const ok = await u.client.delete(`/api/users/me?token=${encodeURIComponent(token)}`);
    expect(ok.status).toBe(200);
    expect((await t.db.select().from(users).where(eq(users.id, u.id))).length).toBe(0);
    expect(await t.storage.exists(row.logoKey!)).toBe(false);
    expect((await u.client.get('/api/users/me')).status).toBe(401);
    expect((await t.client().delete(`/api/users/me?token=${encodeURIComponent(token)}`)).body.code).toBe('INVALID_TOKEN');
    expect((await t.signin(u.email, u.password)).res.status).toBe(401);
  });

  it('needs a session to start', async () => {
    expect((await t.client().delete('/api/users/me')).status).toBe(401);
  });
});

describe('force logout', () => {
  it('ends every session of the user', async () => {
    const u = await t.signupVerified();
    const other = await t.signin(u.email, u.password);
    expect((await u.client.get('/api/users/me/force-logout')).body).toEqual({ status: 'OK' });
    expect((await u.client.get('/api/users/me')).status).toBe(401);
    expect((await other.client.get('/api/users/me')).status).toBe(401);
  });
});

describe('users count', () => {
  it('counts users', async () => {
    const u = await t.signupVerified();
    const res = await u.client.get('/api/users/count');
    expect(res.body.count).toBeGreaterThanOrEqual(2);
    void fields;
  });
});
