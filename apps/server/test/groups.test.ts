/**
 * User groups (back-office.md §2 Groups screen, §3, §6, §7; issue 10 item 6) and the group-admin area (issue 12
 * item 4), through HTTP on the real database: the authorization matrix, validation with field errors that change
 * nothing, one group per member and per admin, the group-admin flag, member usage, the group licence, jobs shared
 * with the group, invite and remove, deletion keeping members' data, and the audit trail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { groupsApi, projectsApi, usersApi } from '@lamella/contracts';
import { startTestApp, type TestApp } from './test-app.ts';
import { factories, type TestUser } from './factories.ts';
import { auditLog, groups, images, licenses, users } from '../src/platform/db/schema/index.ts';

let t: TestApp;
let f: ReturnType<typeof factories>;
let admin: TestUser;
let editor: TestUser;
let powerAll: TestUser;
let powerNone: TestUser;
let lead: TestUser;
let ada: TestUser;
let bob: TestUser;
let carl: TestUser;
let otherLead: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
  admin = await f.admin();
  editor = await f.withRole('EDITOR');
  powerAll = await f.powerUser(['USER.READ', 'USER.WRITE', 'JOB.READ', 'JOB.WRITE']);
  powerNone = await f.powerUser([]);
  lead = await f.user({ fields: { name: 'Lena', surname: 'Lead' } });
  ada = await f.user({ fields: { name: 'Ada', surname: 'Aalto', company: 'Steelworks' } });
  bob = await f.user({ fields: { name: 'Bob', surname: 'Berg' } });
  carl = await f.user({ fields: { name: 'Carl', surname: 'Cole' } });
  otherLead = await f.user({ fields: { name: 'Olga', surname: 'Other' } });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const fieldsOf = (body: { details?: { field: string; message: string }[] }) =>
  Object.fromEntries((body.details ?? []).map((d) => [d.field, d.message]));

describe('groups: who may', () => {
  it('answers 401 to anonymous callers and 403 to USER, EDITOR and POWER_USER with or without privileges', async () => {
    const anon = t.client();
    expect((await anon.call(groupsApi.list)).status).toBe(401);
    expect((await anon.call(groupsApi.create, { body: { name: 'X' } })).status).toBe(401);
    expect((await anon.call(groupsApi.adminOverview)).status).toBe(401);
    for (const who of [ada, editor, powerAll, powerNone]) {
      expect((await who.client.call(groupsApi.list)).status).toBe(403);
      expect((await who.client.call(groupsApi.userOptions)).status).toBe(403);
      expect((await who.client.call(groupsApi.create, { body: { name: 'Nope' } })).status).toBe(403);
    }
    expect(await t.db.select().from(groups).where(eq(groups.name, 'Nope'))).toEqual([]);
  });

  it('answers 404 in the group-admin area to someone who administers no group, staff included', async () => {
    for (const who of [ada, editor, powerAll, admin]) {
      const r = await who.client.call(groupsApi.adminOverview);
      expect(r.status).toBe(404);
      expect((await who.client.call(groupsApi.invite, { body: { email: bob.email } })).status).toBe(404);
    }
  });
});

describe('groups: back-office', () => {
  let groupId = '';

  it('requires a name (trimmed), naming the field, and creates nothing', async () => {
    const r = await admin.client.call(groupsApi.create, { body: { name: '   ' } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(fieldsOf(r.body as never)).toEqual({ name: 'Name is required' });
    const unknownAdmin = await admin.client.call(groupsApi.create, { body: { name: 'Ghost', adminId: '00000000-0000-4000-8000-000000000000' } });
    expect(unknownAdmin.status).toBe(400);
    expect(fieldsOf(unknownAdmin.body as never)).toEqual({ adminId: 'The selected admin does not exist' });
    expect(await t.db.select().from(groups)).toEqual([]);
  });

  it('creates a group with an admin (the spec\'s "admin" field), who then carries the group-admin flag', async () => {
    expect((await lead.client.ok(usersApi.me)).grpAdmin).toBe(false);
    const r = await admin.client.ok(groupsApi.create, { body: { name: '  Metallurgy lab ', admin: lead.id } });
    groupId = r.id;
    expect(r).toMatchObject({ name: 'Metallurgy lab', adminId: lead.id, users: [], members: [], message: 'Group has been created.' });
    expect(r.admin).toMatchObject({ id: lead.id, fullName: 'Lena Lead', email: lead.email });
    expect((await lead.client.ok(usersApi.me)).grpAdmin).toBe(true);
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'group.create'), eq(auditLog.targetId, groupId)));
    expect(audit).toMatchObject({ actorId: admin.id, targetType: 'group' });
  });

  it('refuses a second group with the same name (any case) and an admin who already administers a group', async () => {
    const dup = await admin.client.call(groupsApi.create, { body: { name: 'METALLURGY LAB' } });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: 'GROUP_NAME_TAKEN' });
    const twice = await admin.client.call(groupsApi.create, { body: { name: 'Second', adminId: lead.id } });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ code: 'GROUP_ADMIN_CONFLICT' });
    expect((twice.body as { message: string }).message).toContain('Metallurgy lab');
    expect(await t.db.select().from(groups).where(eq(groups.name, 'Second'))).toEqual([]);
  });

  it('sets the members (whole list), lists them with the admin, and offers the users for the selects', async () => {
    const r = await admin.client.ok(groupsApi.setUsers, { params: { groupId }, body: { usersIds: [ada.id, bob.id] } });
    expect(r.message).toBe('Members have been updated.');
    expect(new Set(r.users)).toEqual(new Set([ada.id, bob.id]));
    const listed = await admin.client.ok(groupsApi.list);
    const g = listed.find((x) => x.id === groupId);
    expect(g?.members.find((m) => m.id === ada.id)).toMatchObject({ fullName: 'Ada Aalto', company: 'Steelworks' });
    const options = await admin.client.ok(groupsApi.userOptions);
    expect(options.find((o) => o.id === ada.id)).toMatchObject({ groupId, company: 'Steelworks' });
    expect(options.find((o) => o.id === carl.id)).toMatchObject({ groupId: null });

    const replaced = await admin.client.ok(groupsApi.setUsers, { params: { groupId }, body: { usersIds: [ada.id] } });
    expect(replaced.users).toEqual([ada.id]);
    const [bobRow] = await t.db.select({ groupId: users.groupId }).from(users).where(eq(users.id, bob.id));
    expect(bobRow.groupId).toBeNull();
  });

  it('names each unknown member and refuses a member of another group, changing nothing', async () => {
    const bad = await admin.client.call(groupsApi.setUsers, { params: { groupId }, body: { usersIds: [bob.id, 'not-an-id'] } });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body as never)).toEqual({ 'usersIds.1': 'User not-an-id does not exist' });
    const other = await admin.client.ok(groupsApi.create, { body: { name: 'Coatings', adminId: otherLead.id } });
    const conflict = await admin.client.call(groupsApi.setUsers, { params: { groupId: other.id }, body: { usersIds: [carl.id, ada.id] } });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ code: 'GROUP_MEMBER_CONFLICT', message: 'Ada Aalto already belongs to the group "Metallurgy lab"' });
    const [carlRow] = await t.db.select({ groupId: users.groupId }).from(users).where(eq(users.id, carl.id));
    expect(carlRow.groupId).toBeNull();
    expect(
      (await admin.client.call(groupsApi.setUsers, { params: { groupId: '00000000-0000-4000-8000-000000000000' }, body: { usersIds: [] } })).status,
    ).toBe(404);
  });

  it('renames and changes the admin (PATCH); clearing the admin takes the group-admin flag', async () => {
    const empty = await admin.client.call(groupsApi.update, { params: { id: groupId }, body: { name: '' } });
    expect(empty.status).toBe(400);
    expect(fieldsOf(empty.body as never)).toEqual({ name: 'Name is required' });
    const mismatch = await admin.client.call(groupsApi.update, { params: { id: groupId }, body: { id: carl.id, name: 'X' } });
    expect(mismatch.status).toBe(400);
    const renamed = await admin.client.ok(groupsApi.update, { params: { id: groupId }, body: { id: groupId, name: 'Metallography lab' } });
    expect(renamed).toMatchObject({ name: 'Metallography lab', adminId: lead.id, message: 'Group has been edited.' });
    const cleared = await admin.client.ok(groupsApi.update, { params: { id: groupId }, body: { adminId: null } });
    expect(cleared.adminId).toBeNull();
    expect((await lead.client.ok(usersApi.me)).grpAdmin).toBe(false);
    const back = await admin.client.ok(groupsApi.update, { params: { id: groupId }, body: { adminId: lead.id } });
    expect(back.admin?.id).toBe(lead.id);
  });

  it('group-admin area: members with their usage, the group licence and the jobs shared with the group', async () => {
    const image = await f.image(ada, { level: 40 });
    await f.image(ada, { level: 41 });
    await f.job(ada, { image });
    const [row] = await t.db.select({ id: groups.id }).from(groups).where(eq(groups.id, groupId));
    await t.db
      .insert(licenses)
      .values({ groupId: row.id, type: 'FLOATING', images: 50, createdBy: 'ADMIN', startsAt: new Date(Date.now() - 86_400_000) });

    const project = await ada.client.ok(projectsApi.create, { body: { name: 'Weld seams' } });
    await ada.client.ok(projectsApi.addImages, { params: { id: project.id }, body: { imageIds: [image.id] } });
    await ada.client.ok(projectsApi.share, { params: { id: project.id }, body: { email: lead.email } });
    // a share is an invitation until the invitee accepts it (issue 28 item 4): nothing is shared before that
    expect((await lead.client.ok(groupsApi.adminOverview)).sharedJobs).toEqual([]);
    const [invitation] = await lead.client.ok(projectsApi.myInvitations);
    await lead.client.ok(projectsApi.acceptInvitation, { params: { id: invitation.id } });

    const o = await lead.client.ok(groupsApi.adminOverview);
    expect(o.group).toEqual({ id: groupId, name: 'Metallography lab' });
    expect(o.members).toEqual([expect.objectContaining({ id: ada.id, fullName: 'Ada Aalto', images: 2, jobsThisMonth: 1 })]);
    expect(o.license).toMatchObject({ type: 'FLOATING', images: 50, used: 1, finishAt: null });
    expect(o.sharedJobs).toHaveLength(1);
    expect(o.sharedJobs[0]).toMatchObject({ owner: { id: ada.id }, projectId: project.id, projectName: 'Weld seams', imageName: 'sample.png' });
  });

  it('group admin invites by e-mail (the person joins by accepting, issue 28) and removes members; removal keeps their data', async () => {
    const missing = await lead.client.call(groupsApi.invite, { body: { email: '' } });
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing.body as never)).toEqual({ email: 'E-mail is required' });
    const invalid = await lead.client.call(groupsApi.invite, { body: { email: 'no-at-sign' } });
    expect(fieldsOf(invalid.body as never)).toEqual({ email: 'Enter a valid e-mail address' });
    // an unknown address answers like a known one (no probing for accounts)
    const unknown = await lead.client.ok(groupsApi.invite, { body: { email: 'nobody@lamella.test' } });
    const invited = await lead.client.ok(groupsApi.invite, { body: { email: `  ${bob.email.toUpperCase()} ` } });
    expect(invited).toEqual(unknown);
    expect(invited).toEqual({
      message: 'If an account uses this address and belongs to no group, it has been invited. The person joins when they accept.',
    });
    const again = await lead.client.call(groupsApi.invite, { body: { email: ada.email } });
    expect(again.status).toBe(409);
    // bob is not a member until he accepts
    expect((await lead.client.ok(groupsApi.adminOverview)).members.map((m) => m.id)).toEqual([ada.id]);
    const [invitation] = await bob.client.ok(groupsApi.myInvitations);
    expect((await bob.client.ok(groupsApi.acceptInvitation, { params: { id: invitation!.id } })).status).toBe('ACCEPTED');
    expect((await lead.client.ok(groupsApi.adminOverview)).members.map((m) => m.id).sort()).toEqual([ada.id, bob.id].sort());

    // The admin of another group cannot see or remove these members; inviting one answers as for anyone.
    expect((await otherLead.client.call(groupsApi.removeMember, { params: { userId: ada.id } })).status).toBe(404);
    expect((await otherLead.client.call(groupsApi.invite, { body: { email: bob.email } })).status).toBe(200);
    expect(await bob.client.ok(groupsApi.myInvitations)).toEqual([]);
    expect((await otherLead.client.ok(groupsApi.adminOverview)).members).toEqual([]);

    const removed = await lead.client.ok(groupsApi.removeMember, { params: { userId: ada.id } });
    expect(removed.message).toBe('Member has been removed.');
    expect((await lead.client.call(groupsApi.removeMember, { params: { userId: ada.id } })).status).toBe(404);
    expect(await t.db.select({ id: images.id }).from(images).where(eq(images.ownerId, ada.id))).toHaveLength(2);
    const actions = await t.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.actorId, lead.id));
    expect(actions.map((a) => a.action).sort()).toEqual(['group.member.invite', 'group.member.remove']);
  });

  it('deletes a group: members leave it and keep their data, the group licence goes, the admin loses the flag', async () => {
    expect((await editor.client.call(groupsApi.remove, { params: { id: groupId } })).status).toBe(403);
    const r = await admin.client.ok(groupsApi.remove, { params: { id: groupId } });
    expect(r).toEqual({ id: groupId, deleted: true, message: 'Group has been deleted.' });
    const [bobRow] = await t.db.select({ groupId: users.groupId }).from(users).where(eq(users.id, bob.id));
    expect(bobRow.groupId).toBeNull();
    expect(await t.db.select().from(licenses).where(eq(licenses.groupId, groupId))).toEqual([]);
    expect((await lead.client.ok(usersApi.me)).grpAdmin).toBe(false);
    expect((await lead.client.call(groupsApi.adminOverview)).status).toBe(404);
    expect((await admin.client.call(groupsApi.remove, { params: { id: groupId } })).status).toBe(404);
  });
});
