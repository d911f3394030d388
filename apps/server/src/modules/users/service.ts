import { and, eq, ne } from 'drizzle-orm';
import sharp from 'sharp';
import { emailRule, passwordRule, phoneRule, requiredRule, type UpdateProfileBody } from '@lamella/contracts';
import type { Ctx } from '../../app.ts';
import { AppError } from '../../platform/http/errors.ts';
import { hashPassword, verifyPassword } from '../../platform/auth/passwords.ts';
import { renderMail } from '../../platform/mail/mailer.ts';
import { licenses, sessions, users } from '../../platform/db/schema/index.ts';
import { FieldErrors } from '../../platform/http/field-errors.ts';
import { consumeUserToken, issueUserToken } from '../auth/tokens-repo.ts';
import { invalidToken, sendVerificationMail } from '../auth/service.ts';
import { getDemoLicense } from '../system/settings.ts';
import { findActiveLicense, findUserByEmail, normalizeEmail, updateUser, type UserRow } from './repo.ts';

const DAY = 86_400_000;
export const MAX_LOGO_BYTES = 5 * 1024 * 1024;

/** Profile form: name, surname and country are required once given; blank values were removed by the client. */
export async function updateProfile(ctx: Ctx, user: UserRow, body: UpdateProfileBody): Promise<UserRow> {
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
  return updateUser(ctx.db, user.id, {
    ...(body.name !== undefined ? { name: body.name.trim() } : {}),
    ...(body.surname !== undefined ? { surname: body.surname.trim() } : {}),
    ...(body.subscribe !== undefined ? { subscribe: body.subscribe } : {}),
    ...(body.csvDecimalSeparator ? { csvDecimalSeparator: body.csvDecimalSeparator } : {}),
    ...(body.language ? { language: body.language } : {}),
    ...(address ? { address } : {}),
  });
}

/**
 * Account form: the current password confirms every change. A new e-mail address must be verified again
 * (a verification mail goes to it); a new password ends the other sessions.
 */
export async function updateAuth(
  ctx: Ctx,
  user: UserRow,
  sessionId: string | null,
  body: { currentPassword: string; email?: string; newPassword?: string },
): Promise<{ emailChanged: boolean }> {
  const errors = new FieldErrors();
  errors.add('currentPassword', body.currentPassword ? null : 'validation.required');
  const email = body.email !== undefined ? normalizeEmail(body.email) : undefined;
  if (email !== undefined) errors.add('email', requiredRule(email) ?? emailRule(email));
  if (body.newPassword !== undefined && body.newPassword !== '') errors.add('newPassword', passwordRule(body.newPassword));
  errors.throwIfAny();
  if (!(await verifyPassword(user.passwordHash, body.currentPassword))) {
    throw new AppError(400, 'WRONG_PASSWORD', 'errors.wrongPassword', {}, [{ field: 'currentPassword', key: 'errors.wrongPassword' }]);
  }
  const emailChanged = email !== undefined && email !== user.email;
  if (emailChanged && (await findUserByEmail(ctx.db, email))) {
    throw new AppError(409, 'EMAIL_EXISTS', 'errors.emailExists', {}, [{ field: 'email', key: 'errors.emailExists' }]);
  }
  const changes: Partial<UserRow> = {};
  if (emailChanged) Object.assign(changes, { email, emailVerified: false });
  if (body.newPassword) changes.passwordHash = await hashPassword(body.newPassword);
  const updated = Object.keys(changes).length ? await updateUser(ctx.db, user.id, changes) : user;
  if (body.newPassword) {
    await ctx.db.delete(sessions).where(sessionId ? and(eq(sessions.userId, user.id), ne(sessions.id, sessionId)) : eq(sessions.userId, user.id));
  }
  if (emailChanged) await sendVerificationMail(ctx, updated);
  return { emailChanged };
}

/** Giving consent the first time adds the 2 extra trial months to a DEMO license. */
export async function setTrainingConsent(ctx: Ctx, user: UserRow, consent: boolean): Promise<UserRow> {
  if (user.groupId) throw new AppError(403, 'CONSENT_FIXED', 'errors.forbidden');
  return ctx.db.transaction(async (tx) => {
    const grantBonus = consent && !user.trainingBonusGrantedAt;
    if (grantBonus) {
      const license = await findActiveLicense(tx as never, user.id);
      if (license?.type === 'DEMO' && license.finishAt) {
        const demo = await getDemoLicense(tx as never);
        await tx
          .update(licenses)
          .set({ finishAt: new Date(license.finishAt.getTime() + demo.extensionDuration * DAY) })
          .where(eq(licenses.id, license.id));
      }
    }
    const [row] = await tx
      .update(users)
      .set({ trainingConsent: consent, ...(grantBonus ? { trainingBonusGrantedAt: new Date() } : {}), updatedAt: new Date() })
      .where(eq(users.id, user.id))
      .returning();
    return row;
  });
}

/** Accepts PNG or JPEG by content; stores a re-encoded PNG (at most 512 px) so nothing else is ever served. */
export async function saveLogo(ctx: Ctx, user: UserRow, data: Buffer): Promise<void> {
  const format = sniffImage(data);
  if (format !== 'png' && format !== 'jpeg') throw unsupportedImage();
  let png: Buffer;
  try {
    png = await sharp(data, { limitInputPixels: 40_000_000 }).resize(512, 512, { fit: 'inside', withoutEnlargement: true }).png().toBuffer();
  } catch {
    throw unsupportedImage();
  }
  const key = `logos/${user.id}/${Date.now()}.png`;
  await ctx.storage.put(key, png);
  await updateUser(ctx.db, user.id, { logoKey: key });
  if (user.logoKey) await ctx.storage.delete(user.logoKey);
}

export async function removeLogo(ctx: Ctx, user: UserRow): Promise<void> {
  if (!user.logoKey) return;
  await updateUser(ctx.db, user.id, { logoKey: null });
  await ctx.storage.delete(user.logoKey);
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

export async function startAccountRemoval(ctx: Ctx, user: UserRow): Promise<void> {
  const token = await issueUserToken(ctx.db, user.id, 'REMOVE_ACCOUNT');
  const link = `${ctx.config.publicUrl}/auth/account-removal?token=${encodeURIComponent(token)}`;
  await ctx.mailer.send({ to: user.email, ...renderMail('removeAccount', user.language, { name: user.name, link }) });
}

/** Deletes the account and everything it owns (rows cascade; stored files are removed after). */
export async function confirmAccountRemoval(ctx: Ctx, token: string): Promise<void> {
  const row = await consumeUserToken(ctx.db, token, 'REMOVE_ACCOUNT');
  if (!row) throw invalidToken();
  const [user] = await ctx.db.delete(users).where(eq(users.id, row.userId)).returning();
  if (user?.logoKey) await ctx.storage.delete(user.logoKey);
}
