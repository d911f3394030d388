import { Type, type Static } from 'typebox';
import { IdParams } from './common.ts';
import { endpoint } from './endpoint.ts';

/**
 * User groups (back-office.md §2 "Groups screen", §3 Group, §7 Groups; user-app.md /group-admin). A user belongs to
 * at most one group (`users.group_id`); a group has at most one admin, and a user administers at most one group,
 * so the group-admin area is unambiguous. ADMIN manages groups; the group's admin sees the group-admin area.
 */

/** A user as the groups screen shows them in its selects and cells. */
export const GroupUser = Type.Object(
  {
    id: Type.String(),
    fullName: Type.String(),
    email: Type.String(),
    company: Type.String(),
  },
  // No $id: it appears several times inside one answer (admin, members), which one named schema cannot.
);
export type GroupUser = Static<typeof GroupUser>;

/** The entity of back-office.md §3 (id, name, adminId, users) with the admin and members spelled out for the table. */
export const UserGroup = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    adminId: Type.Union([Type.String(), Type.Null()]),
    /** Member ids. */
    users: Type.Array(Type.String()),
    admin: Type.Union([GroupUser, Type.Null()]),
    members: Type.Array(GroupUser),
    createdAt: Type.String(),
  },
  { $id: 'UserGroup' },
);
export type UserGroup = Static<typeof UserGroup>;
export const UserGroupList = Type.Array(UserGroup, { $id: 'UserGroupList' });

/** A candidate for the Admin and Members selects; `groupId` is the group the user belongs to now (null: none). */
export const GroupUserOption = Type.Object(
  { ...GroupUser.properties, groupId: Type.Union([Type.String(), Type.Null()]) },
  { $id: 'GroupUserOption' },
);
export type GroupUserOption = Static<typeof GroupUserOption>;
export const GroupUserOptionList = Type.Array(GroupUserOption, { $id: 'GroupUserOptionList' });

/** POST /admin/groups: the spec sends "name, and admin"; `admin` is accepted as another name of `adminId`. */
export const GroupCreateBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 1000 })),
    adminId: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    admin: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  { $id: 'GroupCreateBody' },
);
export type GroupCreateBody = Static<typeof GroupCreateBody>;

/** PATCH /admin/groups/{id}: only the fields sent change; `adminId: null` clears the admin. `id`, when sent, must match. */
export const GroupUpdateBody = Type.Object(
  {
    id: Type.Optional(Type.String()),
    name: Type.Optional(Type.String({ maxLength: 1000 })),
    adminId: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  { $id: 'GroupUpdateBody' },
);
export type GroupUpdateBody = Static<typeof GroupUpdateBody>;

/** PUT /admin/groups/{groupId}/users: the whole member list (replaces it). */
export const GroupUsersBody = Type.Object({ usersIds: Type.Array(Type.String(), { maxItems: 10_000 }) }, { $id: 'GroupUsersBody' });
export type GroupUsersBody = Static<typeof GroupUsersBody>;
export const GroupIdParams = Type.Object({ groupId: Type.String({ format: 'uuid' }) }, { $id: 'GroupIdParams' });

export const SavedUserGroup = Type.Object({ ...UserGroup.properties, message: Type.String() }, { $id: 'SavedUserGroup' });
export type SavedUserGroup = Static<typeof SavedUserGroup>;
export const UserGroupDeleted = Type.Object({ id: Type.String(), deleted: Type.Boolean(), message: Type.String() }, { $id: 'UserGroupDeleted' });
export type UserGroupDeleted = Static<typeof UserGroupDeleted>;

/** Group-admin area: one member with their usage. */
export const GroupMemberUsage = Type.Object(
  {
    ...GroupUser.properties,
    /** Images uploaded and not deleted. */
    images: Type.Integer(),
    /** Jobs created since the first day of the current month (UTC). */
    jobsThisMonth: Type.Integer(),
  },
  { $id: 'GroupMemberUsage' },
);
export type GroupMemberUsage = Static<typeof GroupMemberUsage>;

/** The group's active licence (FLOATING is shown as "Group"); `used` = distinct images of the members analysed since it started. */
export const GroupLicense = Type.Object(
  {
    id: Type.String(),
    type: Type.String(),
    images: Type.Union([Type.Integer(), Type.Null()]),
    used: Type.Integer(),
    startsAt: Type.String(),
    finishAt: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'GroupLicense' },
);
export type GroupLicense = Static<typeof GroupLicense>;

/** A member's job that the member shared with the group: a job of an image in one of their projects shared with the group admin. */
export const GroupSharedJob = Type.Object(
  {
    id: Type.String(),
    status: Type.String(),
    createdAt: Type.String(),
    owner: GroupUser,
    modelName: Type.String(),
    imageName: Type.String(),
    projectId: Type.String(),
    projectName: Type.String(),
  },
  { $id: 'GroupSharedJob' },
);
export type GroupSharedJob = Static<typeof GroupSharedJob>;

export const GroupAdminOverview = Type.Object(
  {
    group: Type.Object({ id: Type.String(), name: Type.String() }),
    license: Type.Union([GroupLicense, Type.Null()]),
    members: Type.Array(GroupMemberUsage),
    sharedJobs: Type.Array(GroupSharedJob),
  },
  { $id: 'GroupAdminOverview' },
);
export type GroupAdminOverview = Static<typeof GroupAdminOverview>;

export const GroupInviteBody = Type.Object({ email: Type.Optional(Type.String({ maxLength: 320 })) }, { $id: 'GroupInviteBody' });
export type GroupInviteBody = Static<typeof GroupInviteBody>;
/** `userId`: the member removed; an invitation names nobody (the answer is the same whether the address has an account). */
export const GroupMemberChanged = Type.Object({ userId: Type.Optional(Type.String()), message: Type.String() }, { $id: 'GroupMemberChanged' });
export type GroupMemberChanged = Static<typeof GroupMemberChanged>;
export const GroupMemberParams = Type.Object({ userId: Type.String({ format: 'uuid' }) }, { $id: 'GroupMemberParams' });

/**
 * A group admin's invitation waiting for the invited user's answer (issue 28 item 5): the user joins the group only
 * by accepting it. The notification `GROUP_INVITATION` (payload `{ invitationId, groupName, invitedByName }`) says so.
 */
export const GroupInvitation = Type.Object(
  {
    id: Type.String(),
    group: Type.Object({ id: Type.String(), name: Type.String() }),
    invitedByName: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String(),
  },
  { $id: 'GroupInvitation' },
);
export type GroupInvitation = Static<typeof GroupInvitation>;
export const GroupInvitationList = Type.Array(GroupInvitation, { $id: 'GroupInvitationList' });
export type GroupInvitationList = Static<typeof GroupInvitationList>;
export const GroupInvitationAnswer = Type.Object(
  { status: Type.Union([Type.Literal('ACCEPTED'), Type.Literal('DECLINED')]), message: Type.String() },
  { $id: 'GroupInvitationAnswer' },
);
export type GroupInvitationAnswer = Static<typeof GroupInvitationAnswer>;
export const GROUP_INVITATION_NOTIFICATION = 'GROUP_INVITATION';

const tags = ['groups'] as const;
export const groupsApi = {
  list: endpoint({
    method: 'GET',
    path: '/admin/groups',
    operationId: 'listUserGroups',
    tags,
    summary: 'Every user group with its admin and members, by name',
    response: { 200: UserGroupList },
  }),
  userOptions: endpoint({
    method: 'GET',
    path: '/admin/groups/users',
    operationId: 'listUserGroupCandidates',
    tags,
    summary: 'Users for the Admin and Members selects (id, name, e-mail, company, current group)',
    response: { 200: GroupUserOptionList },
  }),
  create: endpoint({
    method: 'POST',
    path: '/admin/groups',
    operationId: 'createUserGroup',
    tags,
    body: GroupCreateBody,
    response: { 200: SavedUserGroup },
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/admin/groups/:id',
    operationId: 'updateUserGroup',
    tags,
    summary: 'Rename the group or change its admin',
    params: IdParams,
    body: GroupUpdateBody,
    response: { 200: SavedUserGroup },
  }),
  setUsers: endpoint({
    method: 'PUT',
    path: '/admin/groups/:groupId/users',
    operationId: 'setUserGroupMembers',
    tags,
    summary: 'Replace the member list',
    params: GroupIdParams,
    body: GroupUsersBody,
    response: { 200: SavedUserGroup },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/admin/groups/:id',
    operationId: 'deleteUserGroup',
    tags,
    summary: "Delete the group: members stay, with their data and own licences; the group's licences go",
    params: IdParams,
    response: { 200: UserGroupDeleted },
  }),
  adminOverview: endpoint({
    method: 'GET',
    path: '/group-admin',
    operationId: 'getGroupAdminOverview',
    tags,
    summary: "The caller's group: members with usage, the group licence, jobs shared with the group (404 unless the caller is a group admin)",
    response: { 200: GroupAdminOverview },
  }),
  invite: endpoint({
    method: 'POST',
    path: '/group-admin/members',
    operationId: 'inviteGroupMember',
    tags,
    summary: 'Invites an account by its e-mail address: it joins the group when the user accepts',
    body: GroupInviteBody,
    response: { 200: GroupMemberChanged },
  }),
  removeMember: endpoint({
    method: 'DELETE',
    path: '/group-admin/members/:userId',
    operationId: 'removeGroupMember',
    tags,
    summary: 'The member leaves the group and keeps their data',
    params: GroupMemberParams,
    response: { 200: GroupMemberChanged },
  }),
  myInvitations: endpoint({
    method: 'GET',
    path: '/group-invitations',
    operationId: 'listMyGroupInvitations',
    tags,
    summary: "The caller's invitations into groups that wait for an answer",
    response: { 200: GroupInvitationList },
  }),
  acceptInvitation: endpoint({
    method: 'POST',
    path: '/group-invitations/:id/accept',
    operationId: 'acceptGroupInvitation',
    tags,
    params: IdParams,
    response: { 200: GroupInvitationAnswer },
  }),
  declineInvitation: endpoint({
    method: 'POST',
    path: '/group-invitations/:id/decline',
    operationId: 'declineGroupInvitation',
    tags,
    params: IdParams,
    response: { 200: GroupInvitationAnswer },
  }),
};
