import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect } from 'socket.io-client';
import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { projectInvitations, projectShares } from '../src/platform/db/schema/index.ts';
import { fields, startTestApp, STRONG_PASSWORD, type TestApp } from './test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const until = async (fn: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!fn()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('projects and notifications', () => {
  it('sharing a project notifies the other user at once over socket.io and in the list', async () => {
    const owner = await t.signupVerified({ name: 'Rosalind', surname: 'Franklin' });
    const friend = await t.signupVerified();
    const socket = connect(t.baseUrl, {
      path: '/socket.io',
      transports: ['websocket'],
      extraHeaders: { cookie: `lamella_session=${friend.client.cookies.get('lamella_session')}` },
    });
    const pushed: Array<{ type: string; payload: Record<string, string> }> = [];
    socket.on('notification', (n) => pushed.push(n));
    await until(() => socket.connected);
    const initial = await socket.emitWithAck('notifications');
    expect(initial).toEqual([]);

    const project = (await owner.client.post('/api/projects', { name: 'Weld seams' })).body;
    expect((await owner.client.post(`/api/projects/${project.id}/share`, { email: friend.email.toUpperCase() })).body).toEqual({ status: 'OK' });
    await until(() => pushed.length === 1);
    // an invitation (issue 28 item 4): the project is the friend's once they accept it
    expect(pushed[0]).toMatchObject({
      type: 'PROJECT_INVITATION',
      isSeen: false,
      payload: { invitationId: expect.any(String), projectId: project.id, projectName: 'Weld seams' },
    });
    socket.close();

    const list = await friend.client.get('/api/notifications');
    expect(list.body).toHaveLength(1);
    expect((await friend.client.get('/api/projects')).body).toEqual([]);
    expect((await friend.client.post(`/api/projects/invitations/${pushed[0].payload.invitationId}/accept`)).status).toBe(200);
    expect((await friend.client.get('/api/projects')).body).toEqual([expect.objectContaining({ id: project.id, isOwner: false })]);
    expect((await friend.client.patch(`/api/notifications/${list.body[0].id}/seen`)).status).toBe(200);
    expect((await friend.client.get('/api/notifications')).body[0].isSeen).toBe(true);
    // another user cannot touch it
    expect((await owner.client.patch(`/api/notifications/${list.body[0].id}/seen`)).status).toBe(404);
    expect((await owner.client.delete(`/api/notifications/${list.body[0].id}`)).status).toBe(404);
    expect((await friend.client.delete(`/api/notifications/${list.body[0].id}`)).body).toEqual({ deleted: 1 });
    expect((await friend.client.get('/api/notifications')).body).toHaveLength(0);
  });

  it('marks all seen and deletes all', async () => {
    const owner = await t.signupVerified();
    const friend = await t.signupVerified();
    for (const name of ['A', 'B']) {
      const p = (await owner.client.post('/api/projects', { name })).body;
      await owner.client.post(`/api/projects/${p.id}/share`, { email: friend.email });
    }
    expect((await friend.client.patch('/api/notifications/all/seen')).body).toEqual({ updated: 2 });
    expect((await friend.client.get('/api/notifications')).body.every((n: { isSeen: boolean }) => n.isSeen)).toBe(true);
    expect((await friend.client.delete('/api/notifications/all')).body).toEqual({ deleted: 2 });
  });

  it('refuses sharing with oneself, a bad address or a project one does not own; deletes own projects only', async () => {
    const owner = await t.signupVerified();
    const other = await t.signupVerified();
    const p = (await owner.client.post('/api/projects', { name: 'Mine' })).body;
    const self = await owner.client.post(`/api/projects/${p.id}/share`, { email: owner.email });
    expect(self.status).toBe(400);
    expect(self.body.details[0]).toMatchObject({ field: 'email', key: 'errors.shareWithSelf' });
    const bad = await owner.client.post(`/api/projects/${p.id}/share`, { email: 'not an address' });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0]).toMatchObject({ field: 'email', key: 'auth.emailInvalid' });
    expect((await other.client.post(`/api/projects/${p.id}/share`, { email: owner.email })).status).toBe(404);
    expect((await other.client.delete(`/api/projects/${p.id}`)).status).toBe(404);
    expect((await owner.client.post('/api/projects', { name: ' ' })).status).toBe(400);
    expect((await owner.client.delete(`/api/projects/${p.id}`)).status).toBe(204);
  });

  it('answers sharing with an unknown address exactly like a known one: an invitation mail, and the invitation once that address signs up', async () => {
    const owner = await t.signupVerified({ name: 'Marie', surname: 'Curie' });
    const known = await t.signupVerified();
    const p = (await owner.client.post('/api/projects', { name: 'Fatigue <cracks>' })).body;
    const toKnown = await owner.client.post(`/api/projects/${p.id}/share`, { email: known.email });
    const newcomer = `newcomer-${Date.now()}@example.com`;
    const toUnknown = await owner.client.post(`/api/projects/${p.id}/share`, { email: newcomer.toUpperCase(), role: 'EDITOR' });
    expect(toUnknown.status).toBe(toKnown.status);
    expect(toUnknown.body).toEqual(toKnown.body);
    expect(toUnknown.body).toEqual({ status: 'OK' });
    expect([...toUnknown.headers.keys()].sort()).toEqual([...toKnown.headers.keys()].sort());
    // the mail carries the project's name and nothing else of the sharer's
    const mail = await t.mailbox.waitFor(newcomer, /Fatigue/);
    expect(mail.subject).toBe('You are invited to a project on Lamella');
    expect(mail.text).toContain('"Fatigue <cracks>"');
    expect(mail.text).not.toContain('Marie');
    expect(mail.text).toContain('http://lamella.test/auth/register');
    expect(mail.html).toContain('Fatigue &#60;cracks&#62;');
    // nobody has it before accepting
    expect((await known.client.get('/api/projects')).body).toEqual([]);

    // the address signs up: an invitation waits for it, with a notification; accepting shares it with the role given
    const joined = await t.signupVerified({ email: newcomer });
    const notes = (await joined.client.get('/api/notifications')).body;
    expect(notes).toEqual([
      expect.objectContaining({
        type: 'PROJECT_INVITATION',
        payload: { invitationId: expect.any(String), projectId: p.id, projectName: 'Fatigue <cracks>' },
      }),
    ]);
    expect((await joined.client.get('/api/projects')).body).toEqual([]);
    const [waiting] = (await joined.client.get('/api/projects/invitations')).body;
    expect(waiting).toMatchObject({ projectId: p.id, projectName: 'Fatigue <cracks>', role: 'EDITOR' });
    expect((await joined.client.post(`/api/projects/invitations/${waiting.id}/accept`)).body).toMatchObject({ projectId: p.id, accepted: true });
    expect((await joined.client.get('/api/projects')).body).toEqual([expect.objectContaining({ id: p.id, isOwner: false })]);
    const [share] = await t.db.select().from(projectShares).where(eq(projectShares.userId, joined.id));
    expect(share).toMatchObject({ projectId: p.id, role: 'EDITOR' });
    expect(await t.db.select().from(projectInvitations).where(eq(projectInvitations.email, newcomer))).toEqual([]);
    // notified once: reading again adds nothing
    expect((await joined.client.get('/api/notifications')).body).toHaveLength(1);
  });

  it('a German sharer invites in German', async () => {
    const owner = await t.signupVerified({ name: 'Lise', surname: 'Meitner' });
    await owner.client.patch('/api/users/me', { language: 'de' });
    const p = (await owner.client.post('/api/projects', { name: 'Gefüge' })).body;
    const address = `neu-${Date.now()}@example.com`;
    expect((await owner.client.post(`/api/projects/${p.id}/share`, { email: address })).body).toEqual({ status: 'OK' });
    const mail = await t.mailbox.waitFor(address, /Gefüge/);
    expect(mail.subject).toBe('Sie sind zu einem Projekt auf Lamella eingeladen');
  });

  it('answers 401 to anonymous callers of the project and notification calls', async () => {
    const anon = t.client();
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [method, path] of [
      ['GET', '/api/projects'],
      ['POST', '/api/projects'],
      ['DELETE', `/api/projects/${id}`],
      ['POST', `/api/projects/${id}/share`],
      ['GET', '/api/notifications'],
      ['PATCH', '/api/notifications/all/seen'],
      ['PATCH', `/api/notifications/${id}/seen`],
      ['DELETE', '/api/notifications/all'],
      ['DELETE', `/api/notifications/${id}`],
    ] as const) {
      expect((await anon.request(method, path, method === 'POST' ? { json: {} } : {})).status, `${method} ${path}`).toBe(401);
    }
  });
});

describe('a signed-in user whose address is not verified yet', () => {
  it('gets 403 EMAIL_NOT_VERIFIED from the project, notification, job and feedback calls', async () => {
    const c = t.client();
    const email = `unverified-${Date.now()}@example.com`;
    const signup = await c.post('/api/auth/signup', fields({ email, password: STRONG_PASSWORD, name: 'U', surname: 'V', company: 'W' }));
    expect(signup.status).toBe(200);
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [method, path] of [
      ['GET', '/api/projects'],
      ['POST', `/api/projects/${id}/share`],
      ['GET', '/api/notifications'],
      ['DELETE', '/api/notifications/all'],
      ['GET', '/api/jobs'],
      ['POST', '/api/jobs'],
      ['GET', `/api/jobs/results/${id}/constructor`],
      ['POST', '/api/feedback'],
    ] as const) {
      const res = await c.request(method, path, method === 'POST' ? { json: {} } : {});
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code).toBe('EMAIL_NOT_VERIFIED');
    }
  });
});

describe('module boundaries', () => {
  it('platform/realtime imports no domain module (no realtime <-> notifications cycle)', async () => {
    const source = await readFile(new URL('../src/platform/realtime/realtime.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/from '[./]*\/?modules\//);
  });

  it('the jobs module keeps no process-wide mutable state (the settings resolver is a plugin dependency)', async () => {
    for (const file of ['service.ts', 'routes.ts', 'repo.ts', 'present.ts', 'export.ts', 'settings.ts']) {
      const source = await readFile(new URL(`../src/modules/jobs/${file}`, import.meta.url), 'utf8');
      expect(source, file).not.toMatch(/^(export )?let /m);
      expect(source, file).not.toMatch(/setSettingsResolver/);
    }
  });
});
