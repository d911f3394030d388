/**
 * The test factories (test/factories.ts) and the typed `HttpClient.call/ok`: each factory's product is checked
 * through the API as its owner or the admin sees it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminJobsApi, adminUsersApi, imagesApi, jobsApi, usersApi } from '@lamella/contracts';
import { factories, type Factories } from './factories.ts';
import { HttpError, urlOf } from './http-client.ts';
import { ADMIN, startTestApp, type TestApp } from './test-app.ts';

let t: TestApp;
let f: Factories;
beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
});
afterAll(() => t.close());

describe('test factories', () => {
  it('user(): a verified, signed-in USER with its profile', async () => {
    const u = await f.user({ fields: { name: 'Grace', surname: 'Hopper' } });
    expect(u.me).toMatchObject({ id: u.id, email: u.email, role: 'USER', emailVerified: true, name: 'Grace', surname: 'Hopper' });
    const me = await u.client.call(usersApi.me);
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(u.email);
    // a fresh sign-in with the returned password works
    expect((await t.signin(u.email, u.password)).res.status).toBe(200);
  });

  it('admin(): the bootstrap ADMIN, signed in once', async () => {
    const a = await f.admin();
    expect(a.me.role).toBe('ADMIN');
    expect(a.email).toBe(ADMIN.email);
    expect(await f.admin()).toBe(a);
  });

  it('powerUser(): a POWER_USER holding exactly the given privileges', async () => {
    const p = await f.powerUser(['JOB.READ']);
    expect(p.me.role).toBe('POWER_USER');
    const acl = await (await f.admin()).client.ok(adminUsersApi.listAcl);
    expect(acl.find((e) => e.userId === p.id)?.privileges).toEqual([{ resource: 'JOB', action: 'READ' }]);
    expect((await p.client.call(adminJobsApi.list)).status).toBe(200);
    expect((await p.client.call(adminUsersApi.list)).status).toBe(403);
  });

  it('withRole(): EDITOR and BLOCKED', async () => {
    const editor = await f.withRole('EDITOR');
    expect(editor.me.role).toBe('EDITOR');
    expect((await editor.client.call(usersApi.me)).body.role).toBe('EDITOR');
    const blocked = await f.withRole('BLOCKED');
    expect((await t.signin(blocked.email, blocked.password)).res.status).toBe(403);
  });

  it('image(): an upload its owner lists, nobody else', async () => {
    const u = await f.user();
    const other = await f.user();
    const img = await f.image(u, { width: 64, height: 48, filename: 'probe.png' });
    expect(img).toMatchObject({ orginalFilename: 'probe.png', width: 64, height: 48 });
    expect((await u.client.ok(imagesApi.list)).map((i) => i.id)).toContain(img.id);
    expect((await other.client.ok(imagesApi.list)).map((i) => i.id)).not.toContain(img.id);
  });

  it('job(): a job of its owner on a new or given image', async () => {
    const u = await f.user();
    const img = await f.image(u, { level: 120 });
    const job = await f.job(u, { image: img });
    expect(job.status).toBe('NEW');
    const got = await u.client.call(jobsApi.get, { params: { id: job.id } });
    expect(got.status).toBe(200);
    expect(got.body.id).toBe(job.id);
    const other = await f.user();
    expect((await other.client.call(jobsApi.get, { params: { id: job.id } })).status).toBe(404);
    const second = await f.job(u);
    expect(second.id).not.toBe(job.id);
  });

  it('HttpClient.ok() throws the error answer; urlOf() fills params and query', async () => {
    const u = await f.user();
    const err = await u.client.ok(jobsApi.get, { params: { id: '00000000-0000-4000-8000-000000000000' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).res.status).toBe(404);
    expect((err as HttpError).res.body.code).toBeTruthy();
    expect(urlOf('/jobs/:id', { id: 'a b' }, { ids: ['1', '2'], x: undefined })).toBe('/api/jobs/a%20b?ids=1&ids=2');
  });
});
