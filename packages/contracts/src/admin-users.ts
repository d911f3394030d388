import { Type, type Static, type TSchema } from 'typebox';
import { FileDownload, IdParams, NoContent, Role, SPREADSHEET_TYPES, SpreadsheetFormat, StatusOk } from './common.ts';
import { endpoint } from './endpoint.ts';
const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);

/** Back-office users, roles, access control and licenses (back-office.md §2, §3, §6, §7 "Users, access and vouchers"). */

export const UserSortKey = Type.Union(
  [
    Type.Literal('fullName'),
    Type.Literal('email'),
    Type.Literal('company'),
    Type.Literal('role'),
    Type.Literal('timeJoined'),
    Type.Literal('lastLogin'),
  ],
  { $id: 'UserSortKey' },
);
export type UserSortKey = Static<typeof UserSortKey>;

const ColumnList = Type.Union([Type.String({ maxLength: 400 }), Type.Array(Type.String({ maxLength: 40 }), { maxItems: 40 })]);

export const AdminUsersQuery = Type.Object(
  {
    sortKey: Type.Optional(UserSortKey),
    sortOrder: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
    /** Searches name, e-mail, company, or an exact user id. */
    filter: Type.Optional(Type.String({ maxLength: 200 })),
    /** The columns the page shows (the list answers every column; accepted for the spec's call). */
    columns: Type.Optional(ColumnList),
    /** 1-based page (default 1); the number of matching users is in the `x-total-count` header. */
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    /** Rows per page (default ADMIN_USERS_PAGE_SIZE, at most 1000). */
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  },
  { $id: 'AdminUsersQuery', additionalProperties: false },
);
export type AdminUsersQuery = Static<typeof AdminUsersQuery>;
/** Default page size of `GET /admin/users2` (the back-office table pages by it). */
export const ADMIN_USERS_PAGE_SIZE = 50;

/** The columns of the users CSV, in file order. */
export const USER_CSV_COLUMNS = [
  'id',
  'fullName',
  'email',
  'company',
  'phone',
  'role',
  'trainingConsent',
  'license',
  'timeJoined',
  'lastLogin',
  'uploaded',
] as const;
export type UserCsvColumn = (typeof USER_CSV_COLUMNS)[number];

export const AdminUsersCsvQuery = Type.Object(
  {
    'columns[]': Type.Optional(ColumnList),
    columns: Type.Optional(ColumnList),
    format: Type.Optional(SpreadsheetFormat),
  },
  { $id: 'AdminUsersCsvQuery', additionalProperties: false },
);
export type AdminUsersCsvQuery = Static<typeof AdminUsersCsvQuery>;

export const AdminLicense = Type.Object(
  {
    type: Type.String(),
    limits: Type.Object({
      images: Type.Union([Type.Integer(), Type.Null()]),
      used: Type.Integer(),
      finish: Type.Union([Type.String(), Type.Null()]),
    }),
    createdBy: Type.String(),
  },
  { $id: 'AdminLicense' },
);
export type AdminLicense = Static<typeof AdminLicense>;

export const AdminUserListItem = Type.Object(
  {
    id: Type.String(),
    fullName: Type.String(),
    company: Type.String(),
    email: Type.String(),
    phone: Type.String(),
    role: Role,
    trainingConsent: Type.Boolean(),
    license: Type.Union([AdminLicense, Type.Null()]),
    timeJoined: Type.String(),
    lastLogin: Type.Union([Type.String(), Type.Null()]),
    nps: Type.Array(Type.Integer()),
    tags: Type.Object({ verified: Type.Boolean(), removeDataPermanently: Type.Boolean() }),
    uploaded: Type.Integer(),
    /** A scheduled deletion: the account is BLOCKED and is purged at this instant unless restored; null: none. */
    deletionDueAt: Type.Optional(Nullable(Type.String())),
  },
  { $id: 'AdminUserListItem' },
);
export type AdminUserListItem = Static<typeof AdminUserListItem>;
export const AdminUserList = Type.Array(AdminUserListItem, { $id: 'AdminUserList' });
export type AdminUserList = Static<typeof AdminUserList>;

export const AdminUserProfile = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    surname: Type.String(),
    email: Type.String(),
    timeJoined: Type.String(),
    lastLogin: Type.Union([Type.String(), Type.Null()]),
    verified: Type.Boolean(),
    role: Role,
    trainingConsent: Type.Boolean(),
    address: Type.Record(Type.String(), Type.String()),
    removeDataPermanently: Type.Boolean(),
    /** Images the user uploaded (deleted ones included). */
    uploaded: Type.Integer(),
    /** A scheduled deletion (see AdminUserListItem); null: none. */
    deletionDueAt: Type.Optional(Nullable(Type.String())),
  },
  { $id: 'AdminUserProfile' },
);
export type AdminUserProfile = Static<typeof AdminUserProfile>;

/** One license of a user, newest first (user profile, tab "licenses"). */
export const AdminLicenseHistoryItem = Type.Object(
  {
    id: Type.String(),
    type: Type.String(),
    createdBy: Type.String(),
    images: Type.Union([Type.Integer(), Type.Null()]),
    used: Type.Integer(),
    startsAt: Type.String(),
    finishAt: Type.Union([Type.String(), Type.Null()]),
    active: Type.Boolean(),
    createdAt: Type.String(),
  },
  { $id: 'AdminLicenseHistoryItem' },
);
export type AdminLicenseHistoryItem = Static<typeof AdminLicenseHistoryItem>;
export const AdminLicenseHistory = Type.Array(AdminLicenseHistoryItem, { $id: 'AdminLicenseHistory' });
export type AdminLicenseHistory = Static<typeof AdminLicenseHistory>;

/** Jobs of a user per status. */
export const UserJobStats = Type.Object(
  { NEW: Type.Integer(), PENDING: Type.Integer(), FINISHED: Type.Integer(), CACHED: Type.Integer(), FAILED: Type.Integer() },
  { $id: 'UserJobStats' },
);
export type UserJobStats = Static<typeof UserJobStats>;

/** The id is checked by the service so a bad one gets the spec's 'User id or role is not defined'. */
export const SetRoleParams = Type.Object({ id: Type.String({ maxLength: 64 }) }, { $id: 'SetRoleParams' });
export const SetRoleBody = Type.Object({ role: Type.Optional(Type.String({ maxLength: 20 })) }, { $id: 'SetRoleBody' });
export type SetRoleBody = Static<typeof SetRoleBody>;
export const UserRole = Type.Object({ id: Type.String(), role: Role }, { $id: 'UserRole' });
export type UserRole = Static<typeof UserRole>;

export const UserPreferencesBody = Type.Object(
  { removeDataPermanently: Type.Boolean() },
  { $id: 'UserPreferencesBody', additionalProperties: false },
);
export type UserPreferencesBody = Static<typeof UserPreferencesBody>;

export const Privilege = Type.Object(
  { resource: Type.String({ maxLength: 40 }), action: Type.String({ maxLength: 40 }) },
  { $id: 'Privilege', additionalProperties: false },
);
export type Privilege = Static<typeof Privilege>;

/** One POWER_USER on the access-control screen (back-office §3 "Access privilege"). */
export const AclEntry = Type.Object(
  {
    userId: Type.String(),
    name: Type.String(),
    email: Type.String(),
    privileges: Type.Array(Type.Object({ resource: Type.String(), action: Type.String() })),
  },
  { $id: 'AclEntry' },
);
export type AclEntry = Static<typeof AclEntry>;
export const AclList = Type.Array(AclEntry, { $id: 'AclList' });
export type AclList = Static<typeof AclList>;

/** Replaces the user's privileges by this set. */
export const SetAclBody = Type.Object({ privileges: Type.Array(Privilege, { maxItems: 20 }) }, { $id: 'SetAclBody', additionalProperties: false });
export type SetAclBody = Static<typeof SetAclBody>;

export const LicenseType = Type.Union([Type.Literal('IMAGES_LIMITED'), Type.Literal('TIME_LIMITED'), Type.Literal('UNLIMITED')], {
  $id: 'LicenseType',
});
export type LicenseType = Static<typeof LicenseType>;

/** back-office §3 "License creation"; images are required for IMAGES_LIMITED, days for TIME_LIMITED. */
export const AssignLicenseBody = Type.Object(
  {
    type: LicenseType,
    images: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
    days: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
    userId: Type.String({ format: 'uuid' }),
  },
  { $id: 'AssignLicenseBody', additionalProperties: false },
);
export type AssignLicenseBody = Static<typeof AssignLicenseBody>;

const Count = Type.Integer({ minimum: 0, maximum: 100_000 });
/** Settings → Demo license; durations in days. */
export const DemoLicenseSettings = Type.Object(
  { maxImages: Count, demoDuration: Count, extensionDuration: Count, reminderBeforeExpiry: Count, reminderBeforeExtensionExpiry: Count },
  { $id: 'DemoLicenseSettings', additionalProperties: false },
);
export type DemoLicenseSettings = Static<typeof DemoLicenseSettings>;

/** The answer of "Back to my account". */
export const ImpersonationEnded = Type.Object({ restored: Type.Boolean() }, { $id: 'ImpersonationEnded' });
export type ImpersonationEnded = Static<typeof ImpersonationEnded>;

const tags = ['admin-users'] as const;
export const adminUsersApi = {
  list: endpoint({
    method: 'GET',
    path: '/admin/users2',
    operationId: 'listAdminUsers',
    tags,
    querystring: AdminUsersQuery,
    response: { 200: AdminUserList },
  }),
  csv: endpoint({
    method: 'GET',
    path: '/admin/users2/csv',
    operationId: 'exportAdminUsersCsv',
    tags,
    querystring: AdminUsersCsvQuery,
    response: { 200: FileDownload },
    produces: SPREADSHEET_TYPES,
  }),
  stats: endpoint({
    method: 'GET',
    path: '/users/:id/stats',
    operationId: 'getUserJobStats',
    tags,
    params: IdParams,
    response: { 200: UserJobStats },
  }),
  licenses: endpoint({
    method: 'GET',
    path: '/admin/users/:id/licenses',
    operationId: 'listUserLicenses',
    tags,
    params: IdParams,
    response: { 200: AdminLicenseHistory },
  }),
  get: endpoint({ method: 'GET', path: '/users/:id', operationId: 'getAdminUser', tags, params: IdParams, response: { 200: AdminUserProfile } }),
  setRole: endpoint({
    method: 'PATCH',
    path: '/users/:id',
    operationId: 'setUserRole',
    tags,
    params: SetRoleParams,
    body: SetRoleBody,
    response: { 200: UserRole },
  }),
  remove: endpoint({ method: 'DELETE', path: '/users/:id', operationId: 'deleteUser', tags, params: IdParams, response: { 204: NoContent } }),
  restore: endpoint({
    method: 'POST',
    path: '/admin/users/:id/restore',
    operationId: 'restoreUser',
    tags,
    summary: 'Cancels a scheduled deletion: the account gets its former role back',
    params: IdParams,
    response: { 200: UserRole },
  }),
  activate: endpoint({
    method: 'PUT',
    path: '/admin/users/:id/activate',
    operationId: 'activateUser',
    tags,
    params: IdParams,
    response: { 200: StatusOk },
  }),
  setPreferences: endpoint({
    method: 'PATCH',
    path: '/admin/users/:id/preferences',
    operationId: 'setUserPreferences',
    tags,
    params: IdParams,
    body: UserPreferencesBody,
    response: { 200: StatusOk },
  }),
  impersonate: endpoint({
    method: 'POST',
    path: '/users/:id/impersonate',
    operationId: 'impersonateUser',
    tags,
    params: IdParams,
    response: { 200: StatusOk },
  }),
  endImpersonation: endpoint({
    method: 'DELETE',
    path: '/users/me/impersonation',
    operationId: 'endImpersonation',
    tags,
    summary: 'Back to my account: ends the impersonation and restores the admin session (restored: false when it had ended)',
    response: { 200: ImpersonationEnded },
  }),
  listAcl: endpoint({ method: 'GET', path: '/admin/acl', operationId: 'listAcl', tags, response: { 200: AclList } }),
  setAcl: endpoint({
    method: 'PUT',
    path: '/admin/acl/:id',
    operationId: 'setAcl',
    tags,
    params: IdParams,
    body: SetAclBody,
    response: { 200: AclEntry },
  }),
  assignLicense: endpoint({
    method: 'POST',
    path: '/admin/licenses',
    operationId: 'assignLicense',
    tags,
    body: AssignLicenseBody,
    response: { 200: AdminLicense },
  }),
  getDemoLicense: endpoint({
    method: 'GET',
    path: '/admin/licenses/demo',
    operationId: 'getDemoLicenseSettings',
    tags,
    response: { 200: DemoLicenseSettings },
  }),
  setDemoLicense: endpoint({
    method: 'PUT',
    path: '/admin/licenses/demo',
    operationId: 'setDemoLicenseSettings',
    tags,
    body: DemoLicenseSettings,
    response: { 200: DemoLicenseSettings },
  }),
};
