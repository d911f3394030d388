import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { emailRule, passwordRule, phoneRule, requiredRule, type SignupFormField, type TextFormField } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type { Limiter } from '../../platform/http/rate-limit.ts';
import { AppError } from '../../platform/http/errors.ts';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../platform/auth/passwords.ts';
import { endAllSessions, loadUserContext, startSession, type SessionOptions } from '../../platform/auth/session.ts';
import { consumeUserToken, issueUserToken } from '../../platform/auth/user-tokens.ts';
import { requestLanguage } from '../../platform/http/language.ts';
import { renderMail } from '../../platform/mail/mailer.ts';
import { FieldErrors } from '../../platform/http/field-errors.ts';
import * as users from '../users/service.ts';
import { getDemoLicense } from '../system/service.ts';
import { recordSignupAcceptance } from '../terms/service.ts';
import { bool, readFormFields, str } from './form-fields.ts';

/** What the auth module needs. */
export interface AuthDeps {
  db: Db;
  mailer: Mailer;
  limiter: Limiter;
  publicUrl: string;
  sessionOptions: SessionOptions;
}

export const VERIFICATION_RESEND_SECONDS = 60;
/**
 * A reset request answers after at least this long, whether the address has an account or not (the mail is
 * sent after the answer), so the answer time does not reveal which addresses have accounts.
 */
export const RESET_ANSWER_MS = 400;
const DAY = 86_400_000;

export async function signup(deps: AuthDeps, request: FastifyRequest, reply: FastifyReply, formFields: SignupFormField[]) {
  await deps.limiter.hit([[`signup:ip:${request.ip}`, deps.limiter.limits.signupAddress]]);
  const f = readFormFields(formFields, ['email', 'password', 'name', 'surname', 'company', 'phone', 'subscribe', 'trainingConsent']);
  const email = users.normalizeEmail(str(f.email));
  const password = typeof f.password === 'string' ? f.password : '';
  const errors = new FieldErrors();
  for (const field of ['name', 'surname', 'company'] as const) errors.add(field, requiredRule(f[field]));
  errors.add('email', requiredRule(email) ?? emailRule(email));
  errors.add('password', password ? passwordRule(password) : 'validation.required');
  errors.add('phone', phoneRule(str(f.phone)));
  for (const field of ['name', 'surname', 'company', 'phone'] as const) if (str(f[field]).length > 200) errors.add(field, 'validation.tooLong');
  if (email.length > 254) errors.add('email', 'validation.tooLong');
  errors.throwIfAny();
  if (await users.findUserByEmail(deps.db, email))
    throw new AppError(409, 'EMAIL_EXISTS', 'errors.emailExists', {}, [{ field: 'email', key: 'errors.emailExists' }]);

  const trainingConsent = bool(f.trainingConsent);
  const demo = await getDemoLicense(deps.db);
  const now = Date.now();
  const days = demo.demoDuration + (trainingConsent ? demo.extensionDuration : 0);
  const user = await users.insertUserWithLicense(
    deps.db,
    {
      email,
      passwordHash: await hashPassword(password),
      name: str(f.name),
      surname: str(f.surname),
      language: requestLanguage(request),
      subscribe: bool(f.subscribe),
      trainingConsent,
      trainingBonusGrantedAt: trainingConsent ? new Date(now) : null,
      address: { company: str(f.company), ...(str(f.phone) ? { phone: str(f.phone) } : {}) },
    },
    { type: 'DEMO', createdBy: 'SYSTEM', images: demo.maxImages, finishAt: new Date(now + days * DAY) },
  );
  // The register form requires accepting the terms: record the version it showed (the current one).
  await recordSignupAcceptance(deps.db, user.id);
  await startSession(deps.db, request, reply, deps.sessionOptions, user.id);
  await users.sendVerificationMail(deps, user);
  return user;
}

/** Resends the verification mail, at most once per 60 s (the verify page's countdown). */
export async function resendVerification(deps: AuthDeps, user: users.UserRow): Promise<'OK' | 'EMAIL_ALREADY_VERIFIED_ERROR'> {
  if (user.emailVerified) return 'EMAIL_ALREADY_VERIFIED_ERROR';
  const last = user.lastVerificationMailAt?.getTime() ?? 0;
  const wait = Math.ceil((last + VERIFICATION_RESEND_SECONDS * 1000 - Date.now()) / 1000);
  if (wait > 0) throw new AppError(429, 'RATE_LIMITED', 'errors.verificationTooSoon', { seconds: wait }, [], { 'retry-after': String(wait) });
  await users.sendVerificationMail(deps, user);
  return 'OK';
}

export async function verifyEmail(db: Db, token: string): Promise<{ status: 'OK' }> {
  const row = await consumeUserToken(db, token, 'VERIFY_EMAIL');
  const user = row && (await users.findUserById(db, row.userId));
  if (!row || !user || (row.email && row.email !== user.email)) throw users.invalidToken();
  await users.updateUser(db, user.id, { emailVerified: true });
  return { status: 'OK' };
}

export async function signin(deps: AuthDeps, request: FastifyRequest, reply: FastifyReply, formFields: TextFormField[]) {
  const f = readFormFields(formFields, ['email', 'password']);
  const email = users.normalizeEmail(str(f.email));
  const password = typeof f.password === 'string' ? f.password : '';
  const errors = new FieldErrors();
  errors.add('email', requiredRule(email) ?? emailRule(email));
  errors.add('password', password ? null : 'validation.required');
  errors.throwIfAny();
  // Counted before the password is checked (atomically: INCR in Redis, one Map update in memory), so N
  // concurrent guesses are evaluated at most up to the limit; a success takes its counts back.
  const accountKey = `signin:acct:${email}`;
  const addressKey = `signin:ip:${request.ip}:${email}`;
  await deps.limiter.hit(
    [
      [accountKey, deps.limiter.limits.signinAccount],
      [addressKey, deps.limiter.limits.signinAddress],
    ],
    'errors.signinLimited',
  );
  const user = await users.findUserByEmail(deps.db, email);
  if (!user) await burnPasswordCheck(password);
  if (!user || !(await verifyPassword(user.passwordHash, password))) throw new AppError(401, 'INVALID_CREDENTIALS', 'errors.invalidCredentials');
  if (user.role === 'BLOCKED') throw new AppError(403, 'ACCOUNT_BLOCKED', 'errors.accountBlocked');
  await Promise.all([deps.limiter.reset(accountKey), deps.limiter.reset(addressKey)]);
  await startSession(deps.db, request, reply, deps.sessionOptions, user.id, { twoFactorPending: user.totpEnabled });
  await users.updateUser(deps.db, user.id, { lastLoginAt: new Date() });
  return user;
}

/**
 * Always answers OK, after the same time for known and unknown addresses (RESET_ANSWER_MS; the token and
 * the mail are made without delaying it), so the call does not reveal which addresses have accounts.
 */
export async function requestPasswordReset(deps: AuthDeps, request: FastifyRequest, formFields: TextFormField[]): Promise<{ status: 'OK' }> {
  const started = Date.now();
  const f = readFormFields(formFields, ['email']);
  const email = users.normalizeEmail(str(f.email));
  new FieldErrors().add('email', requiredRule(email) ?? emailRule(email)).throwIfAny();
  await deps.limiter.hit([
    [`reset:acct:${email}`, deps.limiter.limits.resetAccount],
    [`reset:ip:${request.ip}`, deps.limiter.limits.resetAddress],
  ]);
  const user = await users.findUserByEmail(deps.db, email);
  // The token and the mail do not delay the answer: known and unknown addresses do the same work before it.
  if (user && user.role !== 'BLOCKED') {
    void sendResetMail(deps, user).catch((err: unknown) => request.log.error({ err }, 'password reset mail failed'));
  }
  const wait = RESET_ANSWER_MS - (Date.now() - started);
  if (wait > 0) await sleep(wait);
  return { status: 'OK' };
}

async function sendResetMail(deps: AuthDeps, user: users.UserRow): Promise<void> {
  const token = await issueUserToken(deps.db, user.id, 'RESET_PASSWORD');
  const link = `${deps.publicUrl}/auth/reset-password?token=${encodeURIComponent(token)}`;
  await deps.mailer.send({ to: user.email, ...renderMail('resetPassword', user.language, { name: user.name, link }) });
}

/**
 * Sets the new password, ends every session of the account and revokes its access keys (whoever had the
 * old password is out).
 */
export async function resetPassword(deps: AuthDeps, request: FastifyRequest, token: string, formFields: TextFormField[]): Promise<{ status: 'OK' }> {
  const f = readFormFields(formFields, ['password']);
  const password = typeof f.password === 'string' ? f.password : '';
  new FieldErrors().add('password', password ? passwordRule(password) : 'validation.required').throwIfAny();
  await deps.limiter.hit([[`reset:ip:${request.ip}`, deps.limiter.limits.resetAddress]]);
  const row = await consumeUserToken(deps.db, token, 'RESET_PASSWORD');
  if (!row) throw users.invalidToken();
  await users.setPassword(deps.db, row.userId, password);
  await endAllSessions(deps.db, row.userId);
  return { status: 'OK' };
}

/** The Me of a user who has just signed in or up. */
export async function meAfterSignin(db: Db, userId: string, twoFactorPending: boolean) {
  const user = await users.findUserById(db, userId);
  if (!user) throw new AppError(401, 'UNAUTHENTICATED', 'errors.unauthenticated');
  return users.presentMe({ ...(await loadUserContext(db, user)), twoFactorPending });
}
