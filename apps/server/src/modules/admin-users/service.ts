import type { FastifyReply, FastifyRequest } from 'fastify';
import { translate, type Language } from '@lamella/i18n';
import {
  ADMIN_USERS_PAGE_SIZE,
  Roles,
  USER_CSV_COLUMNS,
  isPermission,
  type AclEntry,
  type AdminLicense,
  type AdminLicenseHistoryItem,
  type AdminUserListItem,
  type AdminUserProfile,
  type AdminUsersCsvQuery,
  type AdminUsersQuery,
  type AssignLicenseBody,
  type DemoLicenseSettings,
  type Privilege,
  type Role,
  type UserJobStats,
  type UserRole,
} from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import type { AuthContext, SessionOptions } from '../../platform/auth/session.ts';
import { endAllSessions, endImpersonation as endImpersonationSession, startImpersonation } from '../../platform/auth/session.ts';
import { forbidWhileImpersonating } from '../../platform/auth/guard.ts';
import { AppError, notFound } from '../../platform/http/errors.ts';
import { FieldErrors } from '../../platform/http/field-errors.ts';
import type { Cell, Table } from '../../platform/http/spreadsheet.ts';
import { recordAudit } from '../audit/service.ts';
import { defaultDemoLicense, getDemoLicense, putSetting } from '../system/service.ts';
import * as repo from './repo.ts';
import { DELETED_USER_ID, deleteAccount } from '../users/service.ts';

/**
 * Back-office user management (back-office.md "Users", "Access control", Settings → Demo license).
 * Who may do what is the table in ARCHITECTURE.md "Privileges": USER.READ reads, USER.WRITE activates accounts,
 * assigns licenses and sets the roles USER, EDITOR and BLOCKED of customers; everything that touches staff
 * (ADMIN, POWER_USER), deletion, preferences, impersonation and access control is ADMIN only.
 * Every write is recorded in the audit log in the same transaction.
 */

const DAY = 86_400_000;
/**
 * Roles a USER.WRITE holder (a POWER_USER) may set, and only on users who hold one of them: customers. EDITOR is
 * staff (issue 26 item 6: a power user cannot license or change ADMIN, POWER_USER or EDITOR, nor make one).
 */
const CUSTOMER_ROLES: readonly Role[] = ['USER', 'BLOCKED'];
const STAFF_ROLES: readonly Role[] = ['ADMIN', 'POWER_USER', 'EDITOR'];
/** USER_DELETION_GRACE_DAYS (default 30): how long a deleted account stays BLOCKED and restorable before it is purged. */
export const DEFAULT_DELETION_GRACE_DAYS = 30;
export const deletionGraceDays = () => {
  const v = Number(process.env.USER_DELETION_GRACE_DAYS ?? DEFAULT_DELETION_GRACE_DAYS);
  return Number.isFinite(v) && v >= 0 ? v : DEFAULT_DELETION_GRACE_DAYS;
};

const isAdmin = (auth: AuthContext) => auth.user.role === 'ADMIN' && !auth.impersonatorId;
const forbidden = (code: string, key: string) => new AppError(403, code, key);
/** Separation of duties: nobody but an ADMIN changes, licenses or unblocks themselves. */
function assertNotSelf(auth: AuthContext, target: repo.UserRow): void {
  if (target.id === auth.user.id) throw forbidden('SELF_GRANT_FORBIDDEN', 'adminUsersErrors.selfGrant');
}
function assertNotStaff(target: repo.UserRow): void {
  if (STAFF_ROLES.includes(target.role)) throw forbidden('STAFF_ADMIN_ONLY', 'adminUsersErrors.staffAdminOnly');
}
/** A block an ADMIN set (or a scheduled deletion) is lifted by an ADMIN only. */
function assertNotAdminBlock(target: repo.UserRow): void {
  if (target.blockedByAdmin || target.deletionDueAt) throw forbidden('BLOCKED_BY_ADMIN', 'adminUsersErrors.blockedByAdmin');
}
const deletionPending = () => new AppError(409, 'USER_DELETION_PENDING', 'adminUsersErrors.deletionPending');

/** The staff member behind a request: the impersonating admin when impersonating. */
const actorOf = (auth: AuthContext) => auth.impersonatorId ?? auth.user.id;

const presentLicense = (l: repo.LicenseRow): AdminLicense => ({
  type: l.type,
  limits: { images: l.images, used: l.used, finish: l.finishAt?.toISOString() ?? null },
  createdBy: l.createdBy,
});

const presentListItem = (r: repo.CustomerRow): AdminUserListItem => ({
  id: r.user.id,
  fullName: `${r.user.name} ${r.user.surname}`.trim(),
  company: r.user.address?.company ?? '',
  email: r.user.email,
  phone: r.user.address?.phone ?? '',
  role: r.user.role,
  trainingConsent: r.user.trainingConsent,
  license: r.license ? presentLicense(r.license) : null,
  timeJoined: r.user.createdAt.toISOString(),
  lastLogin: r.user.lastLoginAt?.toISOString() ?? null,
  nps: r.nps,
  tags: { verified: r.user.emailVerified, removeDataPermanently: r.user.removeDataPermanently },
  uploaded: r.uploaded,
  deletionDueAt: r.user.deletionDueAt?.toISOString() ?? null,
});

async function userOr404(db: Db, id: string): Promise<repo.UserRow> {
  const u = await repo.findUser(db, id);
  if (!u || u.id === DELETED_USER_ID) throw notFound('user');
  return u;
}

/**
 * One page of the users list (`page`, `pageSize`, default ADMIN_USERS_PAGE_SIZE) and how many users match the
 * search in all (the route answers it as `x-total-count`), so no user is ever cut off silently.
 */
export async function list(db: Db, query: AdminUsersQuery): Promise<{ items: AdminUserListItem[]; total: number; pageSize: number }> {
  const pageSize = query.pageSize ?? ADMIN_USERS_PAGE_SIZE;
  const offset = ((query.page ?? 1) - 1) * pageSize;
  const [rows, total] = await Promise.all([
    repo.listCustomers(db, { filter: query.filter, sortKey: query.sortKey, sortOrder: query.sortOrder, limit: pageSize, offset }),
    repo.countCustomers(db, query.filter),
  ]);
  return { items: rows.map(presentListItem), total, pageSize };
}

const USER_HEADERS: Record<(typeof USER_CSV_COLUMNS)[number], string> = {
  id: 'adminReports.users.id',
  fullName: 'adminReports.users.fullName',
  email: 'adminReports.users.email',
  company: 'adminReports.users.company',
  phone: 'adminReports.users.phone',
  role: 'adminReports.users.role',
  trainingConsent: 'adminReports.users.trainingConsent',
  license: 'adminReports.users.license',
  timeJoined: 'adminReports.users.timeJoined',
  lastLogin: 'adminReports.users.lastLogin',
  uploaded: 'adminReports.users.uploaded',
};

/**
 * The users report (`columns[]` picks the columns; the file keeps USER_CSV_COLUMNS order) in `lng`: readable
 * headers, role and license type in words, dates as dates (ISO 8601 UTC in CSV). platform/http/spreadsheet.ts
 * writes it as CSV (formula cells neutralised) or XLSX.
 */
export async function usersReport(db: Db, query: AdminUsersCsvQuery, lng: Language): Promise<Table> {
  const asked = [query['columns[]'] ?? query.columns ?? []].flat().flatMap((c) => String(c).split(','));
  const cols = asked.length ? USER_CSV_COLUMNS.filter((c) => asked.includes(c)) : [...USER_CSV_COLUMNS];
  const rows = (await repo.listCustomers(db, { limit: 1_000_000 })).map(presentListItem);
  const cell = (r: AdminUserListItem, c: (typeof USER_CSV_COLUMNS)[number]): Cell => {
    if (c === 'license') return r.license ? translate(lng, `adminUsers.licenseTypes.${r.license.type}`) : null;
    if (c === 'role') return translate(lng, `adminUsers.roles.${r.role}`);
    if (c === 'timeJoined' || c === 'lastLogin') return r[c] ? new Date(r[c]) : null;
    return r[c];
  };
  return { headers: cols.map((c) => translate(lng, USER_HEADERS[c])), rows: rows.map((r) => cols.map((c) => cell(r, c))) };
}

export async function stats(db: Db, id: string): Promise<UserJobStats> {
  await userOr404(db, id);
  const out: UserJobStats = { NEW: 0, PENDING: 0, FINISHED: 0, CACHED: 0, FAILED: 0 };
  for (const r of await repo.jobCountsByStatus(db, id)) if (r.status in out) out[r.status as keyof UserJobStats] = r.n;
  return out;
}

export async function profile(db: Db, id: string): Promise<AdminUserProfile> {
  const u = await userOr404(db, id);
  return {
    id: u.id,
    name: u.name,
    surname: u.surname,
    email: u.email,
    timeJoined: u.createdAt.toISOString(),
    lastLogin: u.lastLoginAt?.toISOString() ?? null,
    verified: u.emailVerified,
    role: u.role,
    trainingConsent: u.trainingConsent,
    address: u.address ?? {},
    removeDataPermanently: u.removeDataPermanently,
    uploaded: await repo.uploadedCount(db, u.id),
    deletionDueAt: u.deletionDueAt?.toISOString() ?? null,
  };
}

export async function licenseHistory(db: Db, id: string): Promise<AdminLicenseHistoryItem[]> {
  await userOr404(db, id);
  return (await repo.licensesOf(db, id)).map((l) => ({
    id: l.id,
    type: l.type,
    createdBy: l.createdBy,
    images: l.images,
    used: l.used,
    startsAt: l.startsAt.toISOString(),
    finishAt: l.finishAt?.toISOString() ?? null,
    active: l.active,
    createdAt: l.createdAt.toISOString(),
  }));
}

const roleUndefined = () =>
  new AppError(400, 'USER_OR_ROLE_UNDEFINED', 'adminUsersErrors.userOrRoleUndefined', {}, [
    { field: 'role', key: 'adminUsersErrors.userOrRoleUndefined' },
  ]);

async function assertAnotherAdmin(db: Db, exceptId: string): Promise<void> {
  if ((await repo.countAdminsExcept(db, exceptId)) === 0) throw new AppError(409, 'LAST_ADMIN', 'adminUsersErrors.lastAdmin');
}

/** A role change ends the user's sessions, so the new role applies at the next sign-in. */
export async function setRole(db: Db, auth: AuthContext, id: string, rawRole: string | undefined): Promise<UserRole> {
  const role = rawRole as Role | undefined;
  if (!role || !Roles.includes(role) || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw roleUndefined();
  const target = await userOr404(db, id);
  if (!isAdmin(auth)) {
    assertNotSelf(auth, target);
    if (!(CUSTOMER_ROLES.includes(target.role) && CUSTOMER_ROLES.includes(role)))
      throw new AppError(403, 'ROLE_CHANGE_ADMIN_ONLY', 'adminUsersErrors.roleChangeAdminOnly');
    if (target.role === 'BLOCKED' && role !== 'BLOCKED') assertNotAdminBlock(target);
  }
  if (target.deletionDueAt) throw deletionPending();
  if (target.role === 'ADMIN' && role !== 'ADMIN') await assertAnotherAdmin(db, target.id);
  if (role === target.role) return { id: target.id, role };
  await db.transaction(async (tx) => {
    // privileges belong to the POWER_USER role: they go with it, so a later promotion starts from none
    const dropped = target.role === 'POWER_USER' ? (await repo.privilegesOf(tx, target.id)).map((p) => `${p.resource}.${p.action}`) : [];
    if (dropped.length) await repo.replacePrivileges(tx, target.id, []);
    await repo.updateUser(tx, target.id, { role, blockedByAdmin: role === 'BLOCKED' && isAdmin(auth) });
    await endAllSessions(tx, target.id);
    await recordAudit(tx, {
      actorId: actorOf(auth),
      action: 'user.role.set',
      targetType: 'user',
      targetId: target.id,
      details: { from: target.role, to: role, ...(dropped.length ? { revokedPrivileges: dropped } : {}) },
    });
  });
  return { id: target.id, role };
}

/**
 * Deletion with a grace period (issue 26 item 7): the account is BLOCKED at once (its sessions and keys stop
 * working) and purged after USER_DELETION_GRACE_DAYS unless an ADMIN restores it. Both steps are audited.
 */
export async function remove(db: Db, _storage: Storage, auth: AuthContext, id: string, now = new Date()): Promise<void> {
  if (id === auth.user.id) throw new AppError(409, 'CANNOT_DELETE_SELF', 'adminUsersErrors.deleteSelf');
  const target = await userOr404(db, id);
  if (target.deletionDueAt) throw deletionPending();
  if (target.role === 'ADMIN') await assertAnotherAdmin(db, target.id);
  const dueAt = new Date(now.getTime() + deletionGraceDays() * DAY);
  await db.transaction(async (tx) => {
    await repo.updateUser(tx, target.id, {
      role: 'BLOCKED',
      roleBeforeDeletion: target.role,
      deletionDueAt: dueAt,
      deletionRequestedById: actorOf(auth),
      blockedByAdmin: true,
    });
    if (target.role === 'POWER_USER') await repo.replacePrivileges(tx, target.id, []);
    await endAllSessions(tx, target.id);
    await recordAudit(tx, {
      actorId: actorOf(auth),
      action: 'user.delete.schedule',
      targetType: 'user',
      targetId: target.id,
      details: { email: target.email, role: target.role, dueAt: dueAt.toISOString() },
    });
  });
}

/** Records a refused privileged attempt (403) with the route and the refusal's code; never fails the answer. */
export async function auditRefusal(
  db: Db,
  auth: AuthContext,
  attempt: { method: string; route: string; code: string; targetId: string | null },
): Promise<void> {
  await recordAudit(db, {
    actorId: actorOf(auth),
    action: 'access.denied',
    targetType: 'user',
    targetId: attempt.targetId && /^[0-9a-f-]{36}$/i.test(attempt.targetId) ? attempt.targetId : null,
    details: { method: attempt.method, route: attempt.route, code: attempt.code, role: auth.user.role },
  }).catch(() => undefined);
}

/** Cancels a scheduled deletion: the account gets its former role back (audited). 409 when none is scheduled. */
export async function restore(db: Db, auth: AuthContext, id: string): Promise<UserRole> {
  const target = await userOr404(db, id);
  if (!target.deletionDueAt) throw new AppError(409, 'USER_NOT_DELETED', 'adminUsersErrors.notScheduled');
  const role = target.roleBeforeDeletion ?? 'USER';
  await db.transaction(async (tx) => {
    await repo.updateUser(tx, target.id, {
      role,
      roleBeforeDeletion: null,
      deletionDueAt: null,
      deletionRequestedById: null,
      blockedByAdmin: role === 'BLOCKED' ? target.blockedByAdmin : false,
    });
    await recordAudit(tx, { actorId: actorOf(auth), action: 'user.delete.cancel', targetType: 'user', targetId: target.id, details: { role } });
  });
  return { id: target.id, role };
}

/**
 * Purges the accounts whose grace period has ended (housekeeping.ts, hourly): each is deleted with its jobs kept
 * anonymised (users/service.ts deleteAccount), audited in the same transaction in the name of the ADMIN who asked.
 */
export async function purgeDueUsers(db: Db, storage: Storage, now = new Date()): Promise<number> {
  let purged = 0;
  for (const u of await repo.usersDueForDeletion(db, now)) {
    const gone = await deleteAccount({ db, storage }, u.id, (tx) =>
      recordAudit(tx, {
        actorId: u.deletionRequestedById,
        action: 'user.delete',
        targetType: 'user',
        targetId: u.id,
        details: { email: u.email, role: u.roleBeforeDeletion ?? u.role, anonymisedJobs: true },
      }),
    );
    if (gone) purged++;
  }
  return purged;
}

/** Marks the e-mail verified and lifts a BLOCKED role to USER (the route requires USER.WRITE for both). */
export async function activate(db: Db, auth: AuthContext, id: string): Promise<{ status: 'OK' }> {
  const target = await userOr404(db, id);
  const unblock = target.role === 'BLOCKED';
  if (target.deletionDueAt) throw deletionPending();
  if (!isAdmin(auth)) {
    assertNotSelf(auth, target);
    assertNotStaff(target);
    if (unblock) assertNotAdminBlock(target);
  }
  await db.transaction(async (tx) => {
    await repo.updateUser(tx, target.id, { emailVerified: true, ...(unblock ? { role: 'USER' as const, blockedByAdmin: false } : {}) });
    await recordAudit(tx, {
      actorId: actorOf(auth),
      action: 'user.activate',
      targetType: 'user',
      targetId: target.id,
      details: { emailVerified: true, ...(unblock ? { role: { from: 'BLOCKED', to: 'USER' } } : {}) },
    });
  });
  return { status: 'OK' };
}

export async function setPreferences(db: Db, auth: AuthContext, id: string, removeDataPermanently: boolean): Promise<{ status: 'OK' }> {
  const target = await userOr404(db, id);
  await db.transaction(async (tx) => {
    await repo.updateUser(tx, target.id, { removeDataPermanently });
    await recordAudit(tx, {
      actorId: actorOf(auth),
      action: 'user.preferences.set',
      targetType: 'user',
      targetId: target.id,
      details: { removeDataPermanently },
    });
  });
  return { status: 'OK' };
}

/**
 * The admin's browser now acts as the user for an hour (GET /users/me shows impersonatedBy; the web shows a
 * banner); "Back to my account" or signing out ends it and restores the admin's own session.
 */
export async function impersonate(
  db: Db,
  sessionOptions: SessionOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  auth: AuthContext,
  id: string,
): Promise<{ status: 'OK' }> {
  // No impersonation inside an impersonation: the session would name the impersonated admin, not the real one.
  forbidWhileImpersonating(auth);
  const target = await repo.findUser(db, id);
  if (!target || target.id === auth.user.id) throw notFound('user');
  if (target.role === 'BLOCKED') throw new AppError(403, 'ACCOUNT_BLOCKED', 'errors.accountBlocked');
  await db.transaction(async (tx) => {
    await recordAudit(tx, { actorId: actorOf(auth), action: 'user.impersonate.start', targetType: 'user', targetId: target.id });
    await startImpersonation(tx, request, reply, sessionOptions, target.id, auth.user.id);
  });
  return { status: 'OK' };
}

/** Ends an impersonation (audit-logged); `restored`: the admin's own session is back. 400 when not impersonating. */
export async function endImpersonation(db: Db, request: FastifyRequest, reply: FastifyReply, auth: AuthContext): Promise<{ restored: boolean }> {
  if (!auth.impersonatorId) throw new AppError(400, 'NOT_IMPERSONATING', 'errors.notImpersonating');
  await recordAudit(db, { actorId: auth.impersonatorId, action: 'user.impersonate.end', targetType: 'user', targetId: auth.user.id });
  return { restored: await endImpersonationSession(db, request, reply, auth) };
}

export async function listAcl(db: Db): Promise<AclEntry[]> {
  const byUser = new Map<string, AclEntry>();
  for (const r of await repo.listPowerUsersWithPrivileges(db)) {
    const entry = byUser.get(r.id) ?? { userId: r.id, name: `${r.name} ${r.surname}`.trim(), email: r.email, privileges: [] };
    if (r.p) entry.privileges.push({ resource: r.p.resource, action: r.p.action });
    byUser.set(r.id, entry);
  }
  return [...byUser.values()];
}

/** Replaces a POWER_USER's privileges; only the known ones (PERMISSIONS) can be granted, and only to a POWER_USER. */
export async function setAcl(db: Db, auth: AuthContext, id: string, wanted: Privilege[]): Promise<AclEntry> {
  const errors = new FieldErrors();
  wanted.forEach((p, i) => {
    if (!isPermission(`${p.resource}.${p.action}`)) errors.add(`privileges.${i}`, 'adminUsersErrors.unknownPrivilege');
  });
  errors.throwIfAny();
  const target = await userOr404(db, id);
  const unique = [...new Map(wanted.map((p) => [`${p.resource}.${p.action}`, { resource: p.resource, action: p.action }])).values()];
  if (unique.length && target.role !== 'POWER_USER') throw new AppError(409, 'NOT_POWER_USER', 'adminUsersErrors.notPowerUser');
  const names = (l: Privilege[]) => l.map((p) => `${p.resource}.${p.action}`).sort();
  await db.transaction(async (tx) => {
    const before = names(await repo.privilegesOf(tx, target.id));
    await repo.replacePrivileges(tx, target.id, unique);
    const after = names(unique);
    await recordAudit(tx, {
      actorId: actorOf(auth),
      action: 'user.privileges.set',
      targetType: 'user',
      targetId: target.id,
      details: { privileges: after, granted: after.filter((p) => !before.includes(p)), revoked: before.filter((p) => !after.includes(p)) },
    });
  });
  return {
    userId: target.id,
    name: `${target.name} ${target.surname}`.trim(),
    email: target.email,
    privileges: await repo.privilegesOf(db, target.id),
  };
}

/** Gives the user a new active license (the previous one ends), back-office §3 "License creation". */
export async function assignLicense(db: Db, auth: AuthContext, body: AssignLicenseBody): Promise<AdminLicense> {
  const { type, images, days, userId } = body;
  const errors = new FieldErrors();
  if (type === 'IMAGES_LIMITED' && !(images && images > 0)) errors.add('images', 'adminUsersErrors.imagesRequired');
  if (type === 'TIME_LIMITED' && !(days && days > 0)) errors.add('days', 'adminUsersErrors.daysRequired');
  errors.throwIfAny();
  const target = await userOr404(db, userId);
  if (!isAdmin(auth)) {
    assertNotSelf(auth, target);
    assertNotStaff(target);
  }
  const row = await db.transaction(async (tx) => {
    const l = await repo.replaceActiveLicense(tx, {
      userId,
      type,
      createdBy: 'ADMIN',
      createdById: actorOf(auth),
      images: type === 'IMAGES_LIMITED' ? images! : null,
      finishAt: type === 'TIME_LIMITED' ? new Date(Date.now() + days! * DAY) : null,
    });
    await recordAudit(tx, {
      actorId: actorOf(auth),
      action: 'license.assign',
      targetType: 'user',
      targetId: userId,
      details: { licenseId: l.id, type, ...(type === 'IMAGES_LIMITED' ? { images } : {}), ...(type === 'TIME_LIMITED' ? { days } : {}) },
    });
    return l;
  });
  return presentLicense(row);
}

export const demoLicense = (db: Db): Promise<DemoLicenseSettings> => getDemoLicense(db);

export async function setDemoLicense(db: Db, auth: AuthContext, body: DemoLicenseSettings): Promise<DemoLicenseSettings> {
  const value: DemoLicenseSettings = { ...defaultDemoLicense, ...body };
  await db.transaction(async (tx) => {
    await putSetting(tx, 'demoLicense', value);
    await recordAudit(tx, {
      actorId: actorOf(auth),
      action: 'settings.demoLicense.set',
      targetType: 'settings',
      targetId: 'demoLicense',
      details: { ...value },
    });
  });
  return value;
}
