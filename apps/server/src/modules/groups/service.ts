/**
 * User groups (back-office.md §2 Groups screen, §3 Group, §7 Groups) and the group-admin area (user-app.md
 * /group-admin, issue 12 item 4). Rules:
 * - a user belongs to at most one group (`users.group_id`); a group has at most one admin; a user administers at
 *   most one group (409 GROUP_ADMIN_CONFLICT), so `/group-admin` always means one group;
 * - names are required, trimmed, unique regardless of case (409 GROUP_NAME_TAKEN);
 * - adding a member of another group is refused (409 GROUP_MEMBER_CONFLICT names the user and the group);
 * - a group admin only invites: the user joins by accepting (GROUP_INVITATION notification, /group-invitations);
 * - deleting a group keeps its members and their data (they just leave the group); the group's licences go.
 */
import { translate, type Language } from '@lamella/i18n';
import {
  emailRule,
  GROUP_INVITATION_NOTIFICATION,
  type GroupAdminOverview,
  type GroupInvitation,
  type GroupInvitationAnswer,
  type GroupCreateBody,
  type GroupInviteBody,
  type GroupMemberChanged,
  type GroupUpdateBody,
  type GroupUser,
  type GroupUserOption,
  type SavedUserGroup,
  type UserGroup,
  type UserGroupDeleted,
} from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { AppError, notFound } from '../../platform/http/errors.ts';
import { isUuid } from '../../platform/http/bilingual.ts';
import { FieldErrors } from '../../platform/http/field-errors.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { recordAudit } from '../audit/service.ts';
import { notify } from '../notifications/service.ts';
import * as repo from './repo.ts';

export const GROUP_NAME_MAX = 200;
/** The group-admin area lists at most this many shared jobs (newest first). */
export const SHARED_JOBS_LIMIT = 200;

const fullName = (u: repo.UserRef) => `${u.name} ${u.surname}`.trim() || u.email;
const userOf = (u: repo.UserRef): GroupUser => ({ id: u.id, fullName: fullName(u), email: u.email, company: u.address?.company ?? '' });

async function present(db: Db, rows: repo.GroupRow[]): Promise<UserGroup[]> {
  const ids = rows.map((r) => r.id);
  const adminIds = rows.map((r) => r.adminId).filter((id): id is string => !!id);
  const [members, admins] = await Promise.all([repo.membersOf(db, ids), repo.usersByIds(db, adminIds)]);
  const adminById = new Map(admins.map((a) => [a.id, a]));
  return rows.map((r) => {
    const own = members.filter((m) => m.groupId === r.id);
    const admin = r.adminId ? adminById.get(r.adminId) : undefined;
    return {
      id: r.id,
      name: r.name,
      adminId: r.adminId,
      users: own.map((m) => m.id),
      admin: admin ? userOf(admin) : null,
      members: own.map(userOf),
      createdAt: r.createdAt.toISOString(),
    };
  });
}

async function presentOne(db: Db, row: repo.GroupRow, message: string): Promise<SavedUserGroup> {
  const [group] = await present(db, [row]);
  return { ...group, message };
}

async function findGroup(db: Db, id: string): Promise<repo.GroupRow> {
  const row = isUuid(id) ? await repo.findGroup(db, id) : undefined;
  if (!row) throw notFound('group');
  return row;
}

export async function list(db: Db): Promise<UserGroup[]> {
  return present(db, await repo.listGroups(db));
}

export async function userOptions(db: Db): Promise<GroupUserOption[]> {
  return (await repo.listUserOptions(db)).map((u) => ({ ...userOf(u), groupId: u.groupId }));
}

function checkName(e: FieldErrors, raw: string | undefined): string {
  const name = (raw ?? '').trim();
  if (!name) e.add('name', 'adminGroups.errors.nameRequired');
  else if (name.length > GROUP_NAME_MAX) e.add('name', 'adminGroups.errors.nameTooLong', { max: GROUP_NAME_MAX });
  return name;
}

/** Checks the admin exists and administers no other group; answers the id (null: no admin). */
async function checkAdmin(db: Db, e: FieldErrors, adminId: string | null | undefined, groupId: string | null): Promise<string | null> {
  if (!adminId) return null;
  const [user] = isUuid(adminId) ? await repo.usersByIds(db, [adminId]) : [];
  if (!user || user.role === 'BLOCKED') {
    e.add('adminId', 'adminGroups.errors.adminUnknown').throwIfAny();
    return null;
  }
  const other = await repo.findGroupAdministeredBy(db, adminId);
  if (other && other.id !== groupId) {
    throw new AppError(409, 'GROUP_ADMIN_CONFLICT', 'adminGroups.errors.adminOfOtherGroup', { user: fullName(user), group: other.name }, [
      { field: 'adminId', key: 'adminGroups.errors.adminOfOtherGroup', vars: { user: fullName(user), group: other.name } },
    ]);
  }
  return adminId;
}

async function checkNameFree(db: Db, name: string, groupId: string | null): Promise<void> {
  const taken = (await repo.listGroups(db)).find((g) => g.name.toLowerCase() === name.toLowerCase() && g.id !== groupId);
  if (taken)
    throw new AppError(409, 'GROUP_NAME_TAKEN', 'adminGroups.errors.nameTaken', {}, [{ field: 'name', key: 'adminGroups.errors.nameTaken' }]);
}

export async function create(db: Db, actorId: string, body: GroupCreateBody, lng: Language): Promise<SavedUserGroup> {
  const e = new FieldErrors();
  const name = checkName(e, body.name);
  e.throwIfAny();
  const adminId = await checkAdmin(db, e, body.adminId ?? body.admin, null);
  await checkNameFree(db, name, null);
  const row = await repo.inTransaction(db, async (tx) => {
    const r = await repo.insertGroup(tx, { name, adminId });
    await recordAudit(tx, { actorId, action: 'group.create', targetType: 'group', targetId: r.id, details: { name, adminId } });
    return r;
  });
  return presentOne(db, row, translate(lng, 'adminGroups.messages.created'));
}

export async function update(db: Db, actorId: string, id: string, body: GroupUpdateBody, lng: Language): Promise<SavedUserGroup> {
  const group = await findGroup(db, id);
  const e = new FieldErrors();
  if (body.id !== undefined && body.id !== id) e.add('id', 'adminGroups.errors.idMismatch');
  const values: { name?: string; adminId?: string | null } = {};
  if (body.name !== undefined) values.name = checkName(e, body.name);
  e.throwIfAny();
  if (body.adminId !== undefined) values.adminId = await checkAdmin(db, e, body.adminId, id);
  if (values.name !== undefined) await checkNameFree(db, values.name, id);
  const row = await repo.inTransaction(db, async (tx) => {
    const r = await repo.updateGroup(tx, id, values);
    if (!r) throw notFound('group');
    await recordAudit(tx, {
      actorId,
      action: 'group.update',
      targetType: 'group',
      targetId: id,
      details: { before: { name: group.name, adminId: group.adminId }, ...values },
    });
    return r;
  });
  return presentOne(db, row, translate(lng, 'adminGroups.messages.edited'));
}

/** 409 GROUP_MEMBER_CONFLICT naming the first user of `users` who belongs to a group other than `groupId`. */
async function throwIfInOtherGroup(db: Db, users: repo.UserRef[], groupId: string, usersIds: string[]): Promise<void> {
  const conflict = users.find((u) => u.groupId && u.groupId !== groupId);
  if (!conflict) return;
  const other = await repo.findGroup(db, conflict.groupId as string);
  const vars = { user: fullName(conflict), group: other?.name ?? '' };
  throw new AppError(409, 'GROUP_MEMBER_CONFLICT', 'adminGroups.errors.memberInOtherGroup', vars, [
    { field: `usersIds.${usersIds.indexOf(conflict.id)}`, key: 'adminGroups.errors.memberInOtherGroup', vars },
  ]);
}

export async function setUsers(db: Db, actorId: string, groupId: string, usersIds: string[], lng: Language): Promise<SavedUserGroup> {
  const group = await findGroup(db, groupId);
  const ids = [...new Set(usersIds)];
  const e = new FieldErrors();
  const valid = ids.filter((id) => isUuid(id));
  const found = await repo.usersByIds(db, valid);
  const byId = new Map(found.map((u) => [u.id, u]));
  usersIds.forEach((id, i) => {
    if (!byId.has(id)) e.add(`usersIds.${i}`, 'adminGroups.errors.memberUnknown', { id });
  });
  e.throwIfAny();
  await throwIfInOtherGroup(db, found, groupId, usersIds);
  await repo.inTransaction(db, async (tx) => {
    await repo.setMembers(tx, groupId, ids);
    // Someone may have put one of them into another group meanwhile: then nothing changes.
    await throwIfInOtherGroup(tx, await repo.usersByIds(tx, ids), groupId, usersIds);
    await recordAudit(tx, { actorId, action: 'group.members.set', targetType: 'group', targetId: groupId, details: { usersIds: ids } });
  });
  return presentOne(db, group, translate(lng, 'adminGroups.messages.membersSaved'));
}

export async function remove(db: Db, actorId: string, id: string, lng: Language): Promise<UserGroupDeleted> {
  const group = await findGroup(db, id);
  await repo.inTransaction(db, async (tx) => {
    const members = await repo.membersOf(tx, [id]);
    if (!(await repo.deleteGroup(tx, id))) throw notFound('group');
    await recordAudit(tx, {
      actorId,
      action: 'group.delete',
      targetType: 'group',
      targetId: id,
      details: { name: group.name, adminId: group.adminId, usersIds: members.map((m) => m.id) },
    });
  });
  return { id, deleted: true, message: translate(lng, 'adminGroups.messages.deleted') };
}

// ---- group-admin area -------------------------------------------------------------------------------------

/** The group the caller administers; 404 for everyone else (the area does not exist for them). */
async function administered(db: Db, userId: string): Promise<repo.GroupRow> {
  const group = await repo.findGroupAdministeredBy(db, userId);
  if (!group) throw notFound('group');
  return group;
}

const startOfMonthUtc = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));

export async function overview(db: Db, userId: string, now = new Date()): Promise<GroupAdminOverview> {
  const group = await administered(db, userId);
  const members = await repo.membersOf(db, [group.id]);
  const ids = members.map((m) => m.id);
  const [imageCounts, jobCounts, license, shared] = await Promise.all([
    repo.imageCounts(db, ids),
    repo.jobCountsSince(db, ids, startOfMonthUtc(now)),
    repo.activeGroupLicense(db, group.id),
    repo.sharedJobs(db, userId, ids, SHARED_JOBS_LIMIT),
  ]);
  const memberById = new Map(members.map((m) => [m.id, m]));
  return {
    group: { id: group.id, name: group.name },
    license: license
      ? {
          id: license.id,
          type: license.type,
          images: license.images,
          used: await repo.distinctImagesAnalysed(db, ids, license.startsAt),
          startsAt: license.startsAt.toISOString(),
          finishAt: license.finishAt?.toISOString() ?? null,
        }
      : null,
    members: members.map((m) => ({ ...userOf(m), images: imageCounts.get(m.id) ?? 0, jobsThisMonth: jobCounts.get(m.id) ?? 0 })),
    sharedJobs: shared.flatMap((j) => {
      const owner = memberById.get(j.ownerId);
      if (!owner) return [];
      return [
        {
          id: j.id,
          status: j.status,
          createdAt: j.createdAt.toISOString(),
          owner: userOf(owner),
          modelName: j.modelName,
          imageName: j.imageName,
          projectId: j.projectId,
          projectName: j.projectName,
        },
      ];
    }),
  };
}

/** What the group-admin area needs to tell an invited user (their notification panel). */
export interface GroupsDeps {
  db: Db;
  realtime: Pick<Realtime, 'emitToUser'>;
}

/**
 * Invites an account into the caller's group: the user gets a GROUP_INVITATION notification and joins only when
 * they accept (issue 28 item 5); until then the group admin sees nothing of them. The answer is the same for every
 * well-formed address (unknown, blocked, in another group, already invited), so the call tells nobody who has an
 * account or which group they are in; only the group's own members (whom the admin sees anyway) answer 409.
 */
export async function invite(deps: GroupsDeps, userId: string, body: GroupInviteBody, lng: Language): Promise<GroupMemberChanged> {
  const { db } = deps;
  const group = await administered(db, userId);
  const email = (body.email ?? '').trim().toLowerCase();
  const e = new FieldErrors();
  if (!email) e.add('email', 'groupAdmin.errors.emailRequired');
  else e.add('email', emailRule(email) ? 'groupAdmin.errors.emailInvalid' : null);
  e.throwIfAny();
  const answer = { message: translate(lng, 'groupAdmin.messages.invited') };
  const user = await repo.findUserByEmail(db, email);
  if (user && user.groupId === group.id) {
    throw new AppError(409, 'GROUP_ALREADY_MEMBER', 'groupAdmin.errors.alreadyMember', {}, [
      { field: 'email', key: 'groupAdmin.errors.alreadyMember' },
    ]);
  }
  if (!user || user.role === 'BLOCKED' || user.groupId) return answer;
  const invitation = await repo.inTransaction(db, async (tx) => {
    const row = await repo.insertInvitation(tx, { groupId: group.id, userId: user.id, invitedById: userId });
    if (row)
      await recordAudit(tx, {
        actorId: userId,
        action: 'group.member.invite',
        targetType: 'group',
        targetId: group.id,
        details: { userId: user.id, email, invitationId: row.id },
      });
    return row;
  });
  if (invitation) {
    const [inviter] = await repo.usersByIds(db, [userId]);
    await notify(db, deps.realtime, user.id, GROUP_INVITATION_NOTIFICATION, {
      invitationId: invitation.id,
      groupName: group.name,
      invitedByName: inviter ? fullName(inviter) : '',
    });
  }
  return answer;
}

/** The caller's invitations that wait for an answer. */
export async function myInvitations(db: Db, userId: string): Promise<GroupInvitation[]> {
  return (await repo.invitationsOf(db, userId)).map((r) => ({
    id: r.id,
    group: { id: r.groupId, name: r.groupName },
    invitedByName: r.inviterName !== null ? `${r.inviterName} ${r.inviterSurname ?? ''}`.trim() : null,
    createdAt: r.createdAt.toISOString(),
  }));
}

/**
 * Accepts an invitation: the caller joins the group (409 GROUP_MEMBER_CONFLICT while they belong to another one;
 * the invitation then stays). Declining removes it. Another user's invitation is 404. Both are audit-logged.
 */
export async function answerInvitation(db: Db, userId: string, id: string, accept: boolean, lng: Language): Promise<GroupInvitationAnswer> {
  return repo.inTransaction(db, async (tx) => {
    const invitation = await repo.takeInvitation(tx, userId, id);
    if (!invitation) throw notFound('invitation');
    if (accept && !(await repo.joinGroup(tx, invitation.groupId, userId))) {
      const [me] = await repo.usersByIds(tx, [userId]);
      if (me?.groupId !== invitation.groupId) throw new AppError(409, 'GROUP_MEMBER_CONFLICT', 'groupAdmin.errors.leaveYourGroupFirst');
    }
    await recordAudit(tx, {
      actorId: userId,
      action: accept ? 'group.invitation.accept' : 'group.invitation.decline',
      targetType: 'group',
      targetId: invitation.groupId,
      details: { invitationId: invitation.id, invitedById: invitation.invitedById },
    });
    return accept
      ? { status: 'ACCEPTED' as const, message: translate(lng, 'groupAdmin.messages.invitationAccepted') }
      : { status: 'DECLINED' as const, message: translate(lng, 'groupAdmin.messages.invitationDeclined') };
  });
}

export async function removeMember(db: Db, userId: string, memberId: string, lng: Language): Promise<GroupMemberChanged> {
  const group = await administered(db, userId);
  await repo.inTransaction(db, async (tx) => {
    if (!(await repo.leaveGroup(tx, group.id, memberId))) throw notFound('member');
    await recordAudit(tx, { actorId: userId, action: 'group.member.remove', targetType: 'group', targetId: group.id, details: { userId: memberId } });
  });
  return { userId: memberId, message: translate(lng, 'groupAdmin.messages.memberRemoved') };
}
