import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { GROUP_INVITATION_NOTIFICATION, groupsApi, notificationsApi, usersApi } from '@lamella/contracts';
import { auditLog } from '../src/platform/db/schema/index.ts';
import { factories, type TestUser } from './factories.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * Issue 28 item 5: joining a group needs the user's acceptance (a notification with accept/decline); the group admin
 * sees a member only after they accept; members keep control of their training consent.
 */
let t: TestApp;
let f: ReturnType<typeof factories>;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
  admin = await f.admin();
}, 120_000);
afterAll(() => t?.close());

let groupCount = 0;
async function groupWithLead() {
  const lead = await f.user({ fields: { name: 'Lena', surname: 'Lead' } });
  groupCount += 1;
  const group = await admin.client.ok(groupsApi.create, { body: { name: `Lab ${groupCount} ${Date.now()}`, adminId: lead.id } });
  return { lead, group };
}

const invitationNotes = async (u: TestUser) => (await u.client.ok(notificationsApi.list)).filter((n) => n.type === GROUP_INVITATION_NOTIFICATION);

describe('group invitations', () => {
  it('an invitation adds nobody: the user is notified, the admin sees nothing of them until they accept', async () => {
    const { lead, group } = await groupWithLead();
    const ada = await f.user({ fields: { name: 'Ada', surname: 'Aalto', company: 'Steelworks' } });
    await lead.client.ok(groupsApi.invite, { body: { email: ada.email } });

    const overview = await lead.client.ok(groupsApi.adminOverview);
    expect(overview.members).toEqual([]);
    expect(JSON.stringify(overview)).not.toContain(ada.email);
    expect((await ada.client.ok(usersApi.account)).group).toBeNull();

    const [note] = await invitationNotes(ada);
    const [invitation] = await ada.client.ok(groupsApi.myInvitations);
    expect(invitation).toMatchObject({ group: { id: group.id, name: group.name }, invitedByName: 'Lena Lead' });
    expect(note?.payload).toEqual({ invitationId: invitation!.id, groupName: group.name, invitedByName: 'Lena Lead' });

    // inviting again while it waits makes no second invitation or notification
    await lead.client.ok(groupsApi.invite, { body: { email: ada.email } });
    expect(await ada.client.ok(groupsApi.myInvitations)).toHaveLength(1);
    expect(await invitationNotes(ada)).toHaveLength(1);

    const accepted = await ada.client.ok(groupsApi.acceptInvitation, { params: { id: invitation!.id } });
    expect(accepted).toEqual({ status: 'ACCEPTED', message: 'You have joined the group.' });
    expect((await ada.client.ok(usersApi.account)).group).toEqual({ name: group.name });
    expect((await lead.client.ok(groupsApi.adminOverview)).members).toEqual([
      expect.objectContaining({ id: ada.id, fullName: 'Ada Aalto', email: ada.email, company: 'Steelworks' }),
    ]);
    expect(await ada.client.ok(groupsApi.myInvitations)).toEqual([]);
    // answered once
    expect((await ada.client.call(groupsApi.acceptInvitation, { params: { id: invitation!.id } })).status).toBe(404);
    const audit = await t.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.actorId, ada.id), eq(auditLog.targetId, group.id)));
    expect(audit.map((a) => a.action)).toEqual(['group.invitation.accept']);
  });

  it('declining leaves the user out; a later invitation asks again', async () => {
    const { lead } = await groupWithLead();
    const bob = await f.user();
    await lead.client.ok(groupsApi.invite, { body: { email: bob.email } });
    const [invitation] = await bob.client.ok(groupsApi.myInvitations);
    const declined = await bob.client.ok(groupsApi.declineInvitation, { params: { id: invitation!.id } });
    expect(declined).toEqual({ status: 'DECLINED', message: 'You have declined the invitation.' });
    expect((await lead.client.ok(groupsApi.adminOverview)).members).toEqual([]);
    expect((await bob.client.ok(usersApi.account)).group).toBeNull();
    await lead.client.ok(groupsApi.invite, { body: { email: bob.email } });
    expect(await bob.client.ok(groupsApi.myInvitations)).toHaveLength(1);
    expect(await invitationNotes(bob)).toHaveLength(2);
  });

  it("nobody answers another user's invitation (404); German texts", async () => {
    const { lead } = await groupWithLead();
    const carl = await f.user();
    const mallory = await f.user();
    await lead.client.ok(groupsApi.invite, { body: { email: carl.email } });
    const [invitation] = await carl.client.ok(groupsApi.myInvitations);
    expect((await mallory.client.call(groupsApi.acceptInvitation, { params: { id: invitation!.id } })).status).toBe(404);
    expect((await lead.client.call(groupsApi.acceptInvitation, { params: { id: invitation!.id } })).status).toBe(404);
    expect((await mallory.client.call(groupsApi.declineInvitation, { params: { id: invitation!.id } })).status).toBe(404);
    expect(await carl.client.ok(groupsApi.myInvitations)).toHaveLength(1);
    carl.client.cookies.set('lng', 'de');
    const de = await carl.client.ok(groupsApi.declineInvitation, { params: { id: invitation!.id } });
    expect(de.message).toBe('Sie haben die Einladung abgelehnt.');
  });

  it('a user who joined another group meanwhile cannot accept (409) and the invitation stays', async () => {
    const { lead } = await groupWithLead();
    const other = await groupWithLead();
    const dora = await f.user();
    await lead.client.ok(groupsApi.invite, { body: { email: dora.email } });
    const [invitation] = await dora.client.ok(groupsApi.myInvitations);
    await admin.client.ok(groupsApi.setUsers, { params: { groupId: other.group.id }, body: { usersIds: [dora.id] } });
    const refused = await dora.client.call(groupsApi.acceptInvitation, { params: { id: invitation!.id } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'GROUP_MEMBER_CONFLICT' });
    expect(await dora.client.ok(groupsApi.myInvitations)).toHaveLength(1);
    expect((await lead.client.ok(groupsApi.adminOverview)).members).toEqual([]);
  });

  it('members keep control of their own training consent', async () => {
    const { lead, group } = await groupWithLead();
    const eve = await f.user();
    await lead.client.ok(groupsApi.invite, { body: { email: eve.email } });
    const [invitation] = await eve.client.ok(groupsApi.myInvitations);
    await eve.client.ok(groupsApi.acceptInvitation, { params: { id: invitation!.id } });
    const account = await eve.client.ok(usersApi.account);
    expect(account).toMatchObject({ group: { name: group.name }, canChangeTrainingConsent: true });
    expect((await eve.client.ok(usersApi.setConsent, { body: { trainingConsent: true } })).trainingConsent).toBe(true);
    expect((await eve.client.ok(usersApi.setConsent, { body: { trainingConsent: false } })).trainingConsent).toBe(false);
  });
});
