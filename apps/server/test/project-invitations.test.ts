import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { projectsApi } from '@lamella/contracts';
import { users } from '../src/platform/db/schema/index.ts';
import { startTestApp, type TestApp } from './test-app.ts';
import { factories } from './factories.ts';

/**
 * Issue 28 item 4: a project's access list never tells whether an address has an account (or the person's name)
 * until the invitee accepts; invitations are limited per user and day and carry no text of the sharer's but the
 * project's name.
 */
let t: TestApp;
let f: ReturnType<typeof factories>;
beforeAll(async () => {
  t = await startTestApp();
  process.env.PROJECT_INVITES_PER_DAY = '6';
  f = factories(t);
});
afterAll(async () => {
  delete process.env.PROJECT_INVITES_PER_DAY;
  await t.close();
});

describe('project invitations', () => {
  it('the access list shows a registered, a blocked and an unknown address alike until the invitee accepts', async () => {
    const owner = await f.user();
    const registered = await f.user({ fields: { name: 'Hidden', surname: 'Person' } });
    const blocked = await f.user();
    await t.db.update(users).set({ role: 'BLOCKED' }).where(eq(users.id, blocked.id));
    const unknown = `nobody-${Date.now()}@example.com`;
    const project = await owner.client.ok(projectsApi.create, { body: { name: 'Alloy 625' } });
    const answers = [];
    for (const email of [registered.email, blocked.email, unknown])
      answers.push(await owner.client.call(projectsApi.share, { params: { id: project.id }, body: { email, role: 'EDITOR' } }));
    expect(answers.map((a) => [a.status, a.body])).toEqual(Array(3).fill([200, { status: 'OK' }]));
    const access = await owner.client.ok(projectsApi.access, { params: { id: project.id } });
    expect(access.members.map((m) => m.role)).toEqual(['OWNER']);
    expect(access.invitations).toEqual([registered.email, blocked.email, unknown].sort().map((email) => ({ email, role: 'EDITOR' })));
    expect(JSON.stringify(access)).not.toContain('Hidden');

    // the registered invitee sees the invitation, not the project; declining removes it, a new share invites again
    expect((await registered.client.ok(projectsApi.list)).some((p) => p.id === project.id)).toBe(false);
    const [inv] = await registered.client.ok(projectsApi.myInvitations);
    expect(inv).toMatchObject({ projectId: project.id, projectName: 'Alloy 625', role: 'EDITOR' });
    // nobody else answers it
    expect((await owner.client.call(projectsApi.acceptInvitation, { params: { id: inv.id } })).status).toBe(404);
    expect((await t.client().call(projectsApi.acceptInvitation, { params: { id: inv.id } })).status).toBe(401);
    expect((await registered.client.ok(projectsApi.declineInvitation, { params: { id: inv.id } })).accepted).toBe(false);
    expect((await owner.client.ok(projectsApi.access, { params: { id: project.id } })).invitations.map((i) => i.email)).not.toContain(
      registered.email,
    );
    await owner.client.ok(projectsApi.share, { params: { id: project.id }, body: { email: registered.email, role: 'VIEWER' } });
    const [again] = await registered.client.ok(projectsApi.myInvitations);
    expect((await registered.client.ok(projectsApi.acceptInvitation, { params: { id: again.id } })).accepted).toBe(true);
    expect((await registered.client.call(projectsApi.acceptInvitation, { params: { id: again.id } })).status).toBe(404);
    // accepted: now a member, with their name
    const after = await owner.client.ok(projectsApi.access, { params: { id: project.id } });
    expect(after.members).toEqual(
      expect.arrayContaining([expect.objectContaining({ userId: registered.id, name: 'Hidden Person', role: 'VIEWER' })]),
    );
    expect((await registered.client.ok(projectsApi.list)).some((p) => p.id === project.id)).toBe(true);
    // the blocked account was never told
    expect(t.mailbox.messages.filter((m) => m.to === blocked.email && /Alloy/.test(m.text ?? ''))).toEqual([]);
  });

  it('limits invitations per user and day (PROJECT_INVITES_PER_DAY), counted before anything is sent', async () => {
    const owner = await f.user();
    const project = await owner.client.ok(projectsApi.create, { body: { name: 'Limits' } });
    const statuses = [];
    for (let i = 0; i < 8; i++)
      statuses.push(
        (await owner.client.call(projectsApi.share, { params: { id: project.id }, body: { email: `limit-${i}-${Date.now()}@example.com` } })).status,
      );
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    const refused = await owner.client.call(projectsApi.share, { params: { id: project.id }, body: { email: `late-${Date.now()}@example.com` } });
    expect((refused.body as unknown as { code: string }).code).toBe('RATE_LIMITED');
    expect((await owner.client.ok(projectsApi.access, { params: { id: project.id } })).invitations).toHaveLength(6);
    // another user has their own allowance
    const other = await f.user();
    const theirs = await other.client.ok(projectsApi.create, { body: { name: 'Theirs' } });
    expect((await other.client.call(projectsApi.share, { params: { id: theirs.id }, body: { email: `x-${Date.now()}@example.com` } })).status).toBe(
      200,
    );
  });

  it('the mail carries the project name and no text of the sharer', async () => {
    const owner = await f.user({ fields: { name: 'Click http://evil.example', surname: 'NOW' } });
    const project = await owner.client.ok(projectsApi.create, { body: { name: 'Creep test' } });
    const address = `mail-${Date.now()}@example.com`;
    await owner.client.ok(projectsApi.share, { params: { id: project.id }, body: { email: address } });
    const mail = await t.mailbox.waitFor(address, /Creep test/);
    expect(`${mail.subject} ${mail.text} ${mail.html}`).not.toMatch(/evil|Click|NOW/);
  });
});
