import type { FastifyReply, FastifyRequest } from 'fastify';
import { emailRule, passwordRule, phoneRule, requiredRule } from '@lamella/contracts';
import type { Ctx } from '../../app.ts';
import { AppError } from '../../platform/http/errors.ts';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../platform/auth/passwords.ts';
import { endAllSessions, startSession } from '../../platform/auth/session.ts';
import { requestLanguage } from '../../platform/http/language.ts';
import { renderMail } from '../../platform/mail/mailer.ts';
import { licenses } from '../../platform/db/schema/index.ts';
import { findUserByEmail, findUserById, insertUser, normalizeEmail, updateUser, type UserRow } from '../users/repo.ts';
import { getDemoLicense } from '../system/settings.ts';
import { bool, readFormFields, str } from './form-fields.ts';
import { FieldErrors } from '../../platform/http/field-errors.ts';
import { consumeUserToken, issueUserToken } from './tokens-repo.ts';

export const VERIFICATION_RESEND_SECONDS = 60;
const DAY = 86_400_000;

export async function signup(ctx: Ctx, request: FastifyRequest, reply: FastifyReply, formFields: Array<{ id: string; value: unknown }>) {
  ctx.limiter.hit([[`signup:ip:${request.ip}`, ctx.limiter.limits.signupAddress]]);
  const f = readFormFields(formFields, ['email', 'password', 'name', 'surname', 'company', 'phone', 'subscribe', 'trainingConsent']);
  const email = normalizeEmail(str(f.email));
  const password = typeof f.password === 'string' ? f.password : '';
  const errors = new FieldErrors();
  for (const field of ['name', 'surname', 'company'] as const) errors.add(field, requiredRule(f[field]));
  errors.add('email', requiredRule(email) ?? emailRule(email));
  errors.add('password', password ? passwordRule(password) : 'validation.required');
  errors.add('phone', phoneRule(str(f.phone)));
  for (const field of ['name', 'surname', 'company', 'phone'] as const) if (str(f[field]).length > 200) errors.add(field, 'validation.tooLong');
  if (email.length > 254) errors.add('email', 'validation.tooLong');
  errors.throwIfAny();
  if (await findUserByEmail(ctx.db, email))
    throw new AppError(409, 'EMAIL_EXISTS', 'errors.emailExists', {}, [{ field: 'email', key: 'errors.emailExists' }]);

  const trainingConsent = bool(f.trainingConsent);
  const demo = await getDemoLicense(ctx.db);
  const now = Date.now();
  const passwordHash = await hashPassword(password);
  const user = await ctx.db.transaction(async (tx) => {
    const u = await insertUser(tx as never, {
      email,
      passwordHash,
      name: str(f.name),
      surname: str(f.surname),
      language: requestLanguage(request),
      subscribe: bool(f.subscribe),
      trainingConsent,
      trainingBonusGrantedAt: trainingConsent ? new Date(now) : null,
      address: { company: str(f.company), ...(str(f.phone) ? { phone: str(f.phone) } : {}) },
    });
    const days = demo.demoDuration + (trainingConsent ? demo.extensionDuration : 0);
    await tx
      .insert(licenses)
      .values({ userId: u.id, type: 'DEMO', createdBy: 'SYSTEM', images: demo.maxImages, finishAt: new Date(now + days * DAY) });
    return u;
  });
  await startSession(ctx.db, request, reply, ctx.sessionOptions, user.id);
  await sendVerificationMail(ctx, user);
  return user;
}

export async function sendVerificationMail(ctx: Ctx, user: UserRow): Promise<void> {
  const token = await issueUserToken(ctx.db, user.id, 'VERIFY_EMAIL', user.email);
  await updateUser(ctx.db, user.id, { lastVerificationMailAt: new Date() });
  const link = `${ctx.config.publicUrl}/auth/verify-email?token=${encodeURIComponent(token)}`;
  await ctx.mailer.send({ to: user.email, ...renderMail('verifyEmail', user.language, { name: user.name, link }) });
}

/** Resends the verification mail, at most once per 60 s (the verify page's countdown). */
export async function resendVerification(ctx: Ctx, user: UserRow): Promise<'OK' | 'EMAIL_ALREADY_VERIFIED_ERROR'> {
  if (user.emailVerified) return 'EMAIL_ALREADY_VERIFIED_ERROR';
  const last = user.lastVerificationMailAt?.getTime() ?? 0;
  const wait = Math.ceil((last + VERIFICATION_RESEND_SECONDS * 1000 - Date.now()) / 1000);
  if (wait > 0) throw new AppError(429, 'RATE_LIMITED', 'errors.verificationTooSoon', { seconds: wait }, [], { 'retry-after': String(wait) });
  await sendVerificationMail(ctx, user);
  return 'OK';
}

export async function verifyEmail(ctx: Ctx, token: string): Promise<void> {
  const row = await consumeUserToken(ctx.db, token, 'VERIFY_EMAIL');
  const user = row && (await findUserById(ctx.db, row.userId));
  if (!row || !user || (row.email && row.email !== user.email)) throw invalidToken();
  await updateUser(ctx.db, user.id, { emailVerified: true });
}

export async function signin(ctx: Ctx, request: FastifyRequest, reply: FastifyReply, formFields: Array<{ id: string; value: unknown }>) {
  const f = readFormFields(formFields, ['email', 'password']);
  const email = normalizeEmail(str(f.email));
  const password = typeof f.password === 'string' ? f.password : '';
  const errors = new FieldErrors();
  errors.add('email', requiredRule(email) ?? emailRule(email));
  errors.add('password', password ? null : 'validation.required');
  errors.throwIfAny();
  ctx.limiter.hit([
    [`signin:acct:${email}`, ctx.limiter.limits.signinAccount],
    [`signin:ip:${request.ip}`, ctx.limiter.limits.signinAddress],
  ]);
  const user = await findUserByEmail(ctx.db, email);
  if (!user) {
    await burnPasswordCheck(password);
    throw new AppError(401, 'INVALID_CREDENTIALS', 'errors.invalidCredentials');
  }
  if (!(await verifyPassword(user.passwordHash, password))) throw new AppError(401, 'INVALID_CREDENTIALS', 'errors.invalidCredentials');
  if (user.role === 'BLOCKED') throw new AppError(403, 'ACCOUNT_BLOCKED', 'errors.accountBlocked');
  ctx.limiter.reset(`signin:acct:${email}`);
  await startSession(ctx.db, request, reply, ctx.sessionOptions, user.id, { twoFactorPending: user.totpEnabled });
  await updateUser(ctx.db, user.id, { lastLoginAt: new Date() });
  return user;
}

/** Always answers OK, so the call does not reveal which addresses have accounts. */
export async function requestPasswordReset(ctx: Ctx, request: FastifyRequest, formFields: Array<{ id: string; value: unknown }>) {
  const f = readFormFields(formFields, ['email']);
  const email = normalizeEmail(str(f.email));
  new FieldErrors().add('email', requiredRule(email) ?? emailRule(email)).throwIfAny();
  ctx.limiter.hit([
    [`reset:acct:${email}`, ctx.limiter.limits.resetAccount],
    [`reset:ip:${request.ip}`, ctx.limiter.limits.resetAddress],
  ]);
  const user = await findUserByEmail(ctx.db, email);
  if (!user || user.role === 'BLOCKED') return;
  const token = await issueUserToken(ctx.db, user.id, 'RESET_PASSWORD');
  const link = `${ctx.config.publicUrl}/auth/reset-password?token=${encodeURIComponent(token)}`;
  await ctx.mailer.send({ to: user.email, ...renderMail('resetPassword', user.language, { name: user.name, link }) });
}

/** Sets the new password, ends every session of the account (whoever had the old password is out). */
export async function resetPassword(ctx: Ctx, request: FastifyRequest, token: string, formFields: Array<{ id: string; value: unknown }>) {
  const f = readFormFields(formFields, ['password']);
  const password = typeof f.password === 'string' ? f.password : '';
  new FieldErrors().add('password', password ? passwordRule(password) : 'validation.required').throwIfAny();
  ctx.limiter.hit([[`reset:ip:${request.ip}`, ctx.limiter.limits.resetAddress]]);
  const row = await consumeUserToken(ctx.db, token, 'RESET_PASSWORD');
  if (!row) throw invalidToken();
  await updateUser(ctx.db, row.userId, { passwordHash: await hashPassword(password) });
  await endAllSessions(ctx.db, row.userId);
}

export const invalidToken = () => new AppError(400, 'INVALID_TOKEN', 'errors.invalidToken', {}, [{ field: 'token', key: 'errors.invalidToken' }]);
