import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect } from 'socket.io-client';
import { startTestApp, type TestApp } from './test-app.ts';

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
    expect(pushed[0]).toMatchObject({
      type: 'PROJECT_SHARED',
      isSeen: false,
      payload: { projectId: project.id, projectName: 'Weld seams', sharedByName: 'Rosalind Franklin' },
    });
    socket.close();

    const list = await friend.client.get('/api/notifications');
    expect(list.body).toHaveLength(1);
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

  it('refuses sharing an unknown address, with oneself, or a project one does not own; deletes own projects only', async () => {
    const owner = await t.signupVerified();
    const other = await t.signupVerified();
    const p = (await owner.client.post('/api/projects', { name: 'Mine' })).body;
    expect((await owner.client.post(`/api/projects/${p.id}/share`, { email: 'nobody@example.com' })).status).toBe(404);
    expect((await owner.client.post(`/api/projects/${p.id}/share`, { email: owner.email })).status).toBe(400);
    expect((await other.client.post(`/api/projects/${p.id}/share`, { email: owner.email })).status).toBe(404);
    expect((await other.client.delete(`/api/projects/${p.id}`)).status).toBe(404);
    expect((await owner.client.post('/api/projects', { name: ' ' })).status).toBe(400);
    expect((await owner.client.delete(`/api/projects/${p.id}`)).status).toBe(204);
  });
});
