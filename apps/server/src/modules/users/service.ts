import {
  emailRule,
  passwordRule,
  phoneRule,
  requiredRule,
  type Account,
  type Me,
  type UpdateAuthBody,
  type UpdateProfileBody,
} from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import type { Limiter } from '../../platform/http/rate-limit.ts';
import { AppError, notFound } from '../../platform/http/errors.ts';
import { FieldErrors } from '../../platform/http/field-errors.ts';
import { hashPassword, verifyPassword } from '../../platform/auth/passwords.ts';
import { endOtherSessions, type AuthContext } from '../../platform/auth/session.ts';
import { forbidWhileImpersonating } from '../../platform/auth/guard.ts';
import { consumeUserToken, issueUserToken } from '../../platform/auth/user-tokens.ts';
import { renderMail } from '../../platform/mail/mailer.ts';
import { getDemoLicense } from '../system/service.ts';
import * as accessKeys from '../access-keys/service.ts';
import * as repo from './repo.ts';
import { logoPng } from '../images/decode.ts';
import { removeFiles, removePrefix } from '../storage-usage/service.ts';
import type { UserRow } from './repo.ts';

export type { UserRow, NewUser } from './repo.ts';
/** User lookups and writes other modules may use (they reach the users table only through here). */
export { findUserById, findUserByEmail, normalizeEmail, insertUser, insertUserWithLicense, updateUser, countUsers, findAnyAdmin } from './repo.ts';

/** What the users module needs. */
export interface UsersDeps {
  db: Db;
  storage: Storage;
  mailer: Mailer;
  limiter: Limiter;
  publicUrl: string;
}

const DAY = 86_400_000;
export const MAX_LOGO_BYTES = 5 * 1024 * 1024;
/** Staff roles run models without a license (jobs/license.ts); their account shows UNLIMITED. */
const STAFF_ROLES: string[] = ['ADMIN', 'POWER_USER', 'EDITOR'];

export function presentMe(
  auth: Pick<AuthContext, 'user' | 'permissions' | 'grpAdmin' | 'twoFactorPending'>,
  impersonator?: { id: string; fullName: string } | null,
): Me {
  const u = auth.user;
  return {
    id: u.id,
    name: u.name,
    surname: u.surname,
    fullName: `${u.name} ${u.surname}`.trim(),
    email: u.email,
    role: u.role,
    permissions: auth.permissions,
    grpAdmin: auth.grpAdmin,
    language: u.language === 'de' ? 'de' : 'en',
    emailVerified: u.emailVerified,
    twoFactorPending: auth.twoFactorPending,
    impersonatedBy: impersonator ?? null,
  };
}

/** GET /users/me: the caller, and who impersonates them (if anyone). */
export async function me(db: Db, auth: AuthContext): Promise<Me> {
  const impersonator = auth.impersonatorId ? await repo.findUserById(db, auth.impersonatorId) : undefined;
  return presentMe(auth, impersonator ? { id: impersonator.id, fullName: `${impersonator.name} ${impersonator.surname}` } : null);
}

/** The training consent is always the user's own to change, group member or not (issue 28 item 5). */
export async function presentAccount(db: Db, u: UserRow): Promise<Account> {
  const [groupName, license] = await Promise.all([repo.findGroupName(db, u.groupId), repo.findActiveLicense(db, u.id)]);
  return {
    email: u.email,
    name: u.name,
    surname: u.surname,
    group: groupName ? { name: groupName } : null,
    subscribe: u.subscribe,
    trainingConsent: u.trainingConsent,
    canChangeTrainingConsent: true,
    csvDecimalSeparator: u.csvDecimalSeparator === 'dot' ? 'dot' : 'comma',
    language: u.language === 'de' ? 'de' : 'en',
    address: u.address ?? {},
    hasLogo: Boolean(u.logoKey),
    twoFactorEnabled: u.totpEnabled,
    license: license
      ? { type: license.type, images: license.images, used: license.used, finish: license.finishAt ? license.finishAt.toISOString() : null }
      : STAFF_ROLES.includes(u.role)
        ? { type: 'UNLIMITED', images: null, used: 0, finish: null }
        : null,
  };
}

/** Profile form: name, surname and country are required once given; blank values were removed by the client. */
export async function updateProfile(db: Db, user: UserRow, body: UpdateProfileBody): Promise<Account> {
  const errors = new FieldErrors();
  if (body.name !== undefined) errors.add('name', requiredRule(body.name));
  if (body.surname !== undefined) errors.add('surname', requiredRule(body.surname));
  const address = body.address
    ? Object.fromEntries(
        Object.entries(body.address)
          .map(([k, v]) => [k, (v ?? '').trim()])
          .filter(([, v]) => v !== ''),
      )
    : undefined;
  if (address) {
    errors.add('country', requiredRule(address.country));
    errors.add('phone', phoneRule(address.phone));
  }
  errors.throwIfAny();
  const updated = await repo.updateUser(db, user.id, {
    ...(body.name !== undefined ? { name: body.name.trim() } : {}),
    ...(body.surname !== undefined ? { surname: body.surname.trim() } : {}),
    ...(body.subscribe !== undefined ? { subscribe: body.subscribe } : {}),
    ...(body.csvDecimalSeparator ? { csvDecimalSeparator: body.csvDecimalSeparator } : {}),
    ...(body.language ? { language: body.language } : {}),
    ...(address ? { address } : {}),
  });
  return presentAccount(db, updated);
}

/** Mails a verification link for the user's (current) address. */
export async function sendVerificationMail(deps: Pick<UsersDeps, 'db' | 'mailer' | 'publicUrl'>, user: UserRow): Promise<void> {
  const token = await issueUserToken(deps.db, user.id, 'VERIFY_EMAIL', user.email);
  await repo.updateUser(deps.db, user.id, { lastVerificationMailAt: new Date() });
  const link = `${deps.publicUrl}/auth/verify-email?token=${encodeURIComponent(token)}`;
  await deps.mailer.send({ to: user.email, ...renderMail('verifyEmail', user.language, { name: user.name, link }) });
}

/** Sets a new password (reset or change): access keys made with the old one are revoked. */
export async function setPassword(db: Db, userId: string, password: string): Promise<UserRow> {
  const updated = await repo.updateUser(db, userId, { passwordHash: await hashPassword(password) });
  await accessKeys.revokeAll(db, userId);
  return updated;
}

/**
 * Account form: the current password confirms every change, and wrong guesses are limited per account
 * (429 with Retry-After). A new e-mail address must be verified again (a verification mail goes to it); a
 * new password ends the other sessions and revokes the access keys.
 */
export async function updateAuth(deps: UsersDeps, auth: AuthContext, body: UpdateAuthBody): Promise<{ status: 'OK'; emailChanged: boolean }> {
  forbidWhileImpersonating(auth);
  const { user } = auth;
  const errors = new FieldErrors();
  errors.add('currentPassword', body.currentPassword ? null : 'validation.required');
  const email = body.email !== undefined ? repo.normalizeEmail(body.email) : undefined;
  if (email !== undefined) errors.add('email', requiredRule(email) ?? emailRule(email));
  if (body.newPassword !== undefined && body.newPassword !== '') errors.add('newPassword', passwordRule(body.newPassword));
  errors.throwIfAny();
  const limitKey = `password:acct:${user.id}`;
  await deps.limiter.hit([[limitKey, deps.limiter.limits.passwordCheckAccount]], 'errors.tooManyPasswordGuesses');
  if (!(await verifyPassword(user.passwordHash, body.currentPassword))) {
    throw new AppError(400, 'WRONG_PASSWORD', 'errors.wrongPassword', {}, [{ field: 'currentPassword', key: 'errors.wrongPassword' }]);
  }
  await deps.limiter.reset(limitKey);
  const emailChanged = email !== undefined && email !== user.email;
  if (emailChanged && (await repo.findUserByEmail(deps.db, email))) {
    throw new AppError(409, 'EMAIL_EXISTS', 'errors.emailExists', {}, [{ field: 'email', key: 'errors.emailExists' }]);
  }
  let updated = emailChanged ? await repo.updateUser(deps.db, user.id, { email, emailVerified: false }) : user;
  if (body.newPassword) {
    updated = await setPassword(deps.db, user.id, body.newPassword);
    await endOtherSessions(deps.db, user.id, auth.sessionId);
  }
  if (emailChanged) await sendVerificationMail(deps, updated);
  return { status: 'OK', emailChanged };
}

/** Giving consent the first time adds the 2 extra trial months to a DEMO license. */
export async function setTrainingConsent(db: Db, user: UserRow, consent: boolean): Promise<Account> {
  const grantBonus = consent && !user.trainingBonusGrantedAt;
  const extension = grantBonus ? (await getDemoLicense(db)).extensionDuration * DAY : 0;
  return presentAccount(db, await repo.setTrainingConsent(db, user.id, consent, grantBonus, extension));
}

/** Accepts PNG or JPEG by content; stores a re-encoded PNG (at most 512 px) so nothing else is ever served. */
export async function saveLogo(deps: Pick<UsersDeps, 'db' | 'storage'>, user: UserRow, data: Buffer): Promise<{ status: 'OK' }> {
  const format = sniffImage(data);
  if (format !== 'png' && format !== 'jpeg') throw unsupportedImage();
  let png: Buffer;
  try {
    // decoded in the image decode pool (issue 28 item 2), never in the server's process
    png = await logoPng(data, 512, 40_000_000);
  } catch {
    throw unsupportedImage();
  }
  const key = `logos/${user.id}/${Date.now()}.png`;
  await deps.storage.put(key, png);
  await repo.updateUser(deps.db, user.id, { logoKey: key });
  if (user.logoKey) await deps.storage.delete(user.logoKey);
  return { status: 'OK' };
}

export async function logo(storage: Storage, user: UserRow): Promise<Buffer> {
  if (!user.logoKey || !(await storage.exists(user.logoKey))) throw notFound('logo');
  return storage.get(user.logoKey);
}

export async function removeLogo(deps: Pick<UsersDeps, 'db' | 'storage'>, user: UserRow): Promise<{ status: 'OK' }> {
  if (user.logoKey) {
    await repo.updateUser(deps.db, user.id, { logoKey: null });
    await deps.storage.delete(user.logoKey);
  }
  return { status: 'OK' };
}

export function sniffImage(data: Buffer): 'png' | 'jpeg' | 'tiff' | null {
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  if (
    data.length >= 4 &&
    ((data[0] === 0x49 && data[1] === 0x49 && data[2] === 0x2a && data[3] === 0) ||
      (data[0] === 0x4d && data[1] === 0x4d && data[2] === 0 && data[3] === 0x2a))
  )
    return 'tiff';
  return null;
}

export const unsupportedImage = () =>
  new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'errors.unsupportedImage', {}, [{ field: 'file', key: 'errors.unsupportedImage' }]);

export const invalidToken = () => new AppError(400, 'INVALID_TOKEN', 'errors.invalidToken', {}, [{ field: 'token', key: 'errors.invalidToken' }]);

/** Signed in, without a token: mails a confirmation link. */
export async function startAccountRemoval(deps: Pick<UsersDeps, 'db' | 'mailer' | 'publicUrl'>, auth: AuthContext): Promise<{ status: 'OK' }> {
  if (auth.twoFactorPending) throw new AppError(401, 'TWO_FACTOR_REQUIRED', 'errors.twoFactorPending');
  const { user } = auth;
  const token = await issueUserToken(deps.db, user.id, 'REMOVE_ACCOUNT');
  const link = `${deps.publicUrl}/auth/account-removal?token=${encodeURIComponent(token)}`;
  await deps.mailer.send({ to: user.email, ...renderMail('removeAccount', user.language, { name: user.name, link }) });
  return { status: 'OK' };
}

/** Deletes the account and everything it owns, its jobs kept anonymised for the statistics (deleteAccount). */
export async function confirmAccountRemoval(deps: Pick<UsersDeps, 'db' | 'storage'>, token: string): Promise<void> {
  const row = await consumeUserToken(deps.db, token, 'REMOVE_ACCOUNT');
  if (!row) throw invalidToken();
  await deleteAccount(deps, row.userId);
}

export { DELETED_USER_ID } from './repo.ts';

/**
 * Deletes an account for good (issue 26 item 3, issue 28 item 3): in one transaction its jobs move to the
 * anonymous DELETED_USER_ID (the statistics keep counting them), results no one else shares are deleted, and every
 * other row goes by the database's cascades (`extra` runs in the same transaction: the caller's audit entry); then
 * the user's files (images, masks, logo, result files) are removed. A file left by a crash is the sweep's.
 */
export async function deleteAccount(
  deps: Pick<UsersDeps, 'db' | 'storage'>,
  userId: string,
  extra?: (tx: Db) => Promise<void>,
): Promise<UserRow | undefined> {
  const { user, resultKeys } = await deps.db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const out = await repo.deleteUserKeepingJobs(t, userId);
    if (out.user && extra) await extra(t);
    return out;
  });
  if (!user) return undefined;
  for (const prefix of [`images/${userId}/`, `masks/${userId}/`, `logos/${userId}/`]) await removePrefix(deps.storage, prefix);
  await removeFiles(deps.storage, resultKeys);
  return user;
}
