import { randomInt } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { otpRule, type TwoFactorState, type TwoFactorUpdateBody, type TwoFactorValidateResponse } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import type { Limiter } from '../../platform/http/rate-limit.ts';
import { AppError } from '../../platform/http/errors.ts';
import { startSession, type AuthContext, type SessionOptions } from '../../platform/auth/session.ts';
import { forbidWhileImpersonating } from '../../platform/auth/guard.ts';
import { hashToken } from '../../platform/auth/tokens.ts';
import * as users from '../users/service.ts';
import * as repo from './repo.ts';

/** What the two-factor module needs. */
export interface TwoFactorDeps {
  db: Db;
  limiter: Limiter;
  sessionOptions: SessionOptions;
}

const ISSUER = 'Lamella';

function totp(secret: string, label: string) {
  return new OTPAuth.TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(secret) });
}

const invalidCode = (field = 'code') => new AppError(400, 'INVALID_CODE', 'errors.invalidCode', {}, [{ field, key: 'errors.invalidCode' }]);

/** Recovery codes made at each enrolment, shown once (only their SHA-256 is stored). */
export const RECOVERY_CODE_COUNT = 10;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_LENGTH = 10;

/** A recovery code, `xxxxx-xxxxx` (about 50 bits; guesses are limited like one-time codes). */
function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < RECOVERY_LENGTH; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** Case, spaces and dashes do not matter when a recovery code is typed. */
const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Starts enrolment: a new pending secret, returned as a QR code PNG of its otpauth:// URI and as text. */
export async function startEnrolment(db: Db, auth: AuthContext): Promise<{ png: Buffer; secret: string }> {
  forbidWhileImpersonating(auth);
  const { user } = auth;
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  await repo.setPendingSecret(db, user.id, secret);
  const uri = totp(secret, user.email).toString();
  return { png: await QRCode.toBuffer(uri, { type: 'png', width: 240, margin: 1 }), secret };
}

/** The time step of a valid code of `secret` (one step of clock drift allowed); throws 400 otherwise. */
function codeStep(user: users.UserRow, secret: string, code: string, field = 'code'): number {
  if (otpRule(code)) throw invalidCode(field);
  const delta = totp(secret, user.email).validate({ token: code, window: 1 });
  if (delta === null) throw invalidCode(field);
  return Math.floor(Date.now() / 1000 / 30) + delta;
}

/**
 * Checks a code against a secret and spends its time step: the step is compared with the last used one and
 * stored in one conditional update, so a code works once, even when the same code arrives twice at the same moment.
 */
async function acceptCode(db: Db, user: users.UserRow, secret: string, code: string, field = 'code'): Promise<void> {
  const step = codeStep(user, secret, code, field);
  if (!(await repo.claimStep(db, user.id, step))) throw invalidCode(field);
}

/**
 * The second factor the account has now: a code of its authenticator (6 digits) or one of its recovery codes
 * (spent by this use).
 */
async function acceptCurrentFactor(db: Db, user: users.UserRow, code: string, field = 'code'): Promise<void> {
  if (!user.totpEnabled || !user.totpSecret) throw invalidCode(field);
  if (!otpRule(code)) return acceptCode(db, user, user.totpSecret, code, field);
  const normalized = normalizeRecoveryCode(code);
  if (normalized.length !== RECOVERY_LENGTH || !(await repo.spendRecoveryCode(db, user.id, hashToken(normalized)))) throw invalidCode(field);
}

export async function state(db: Db, user: users.UserRow): Promise<TwoFactorState> {
  return user.totpEnabled ? { enabled: true, recoveryCodesLeft: await repo.countRecoveryCodes(db, user.id) } : { enabled: false };
}

/**
 * Turns the second factor on (with a code of the pending secret) or off. With the second factor on, enrolling a
 * new authenticator (`currentCode`) and turning it off (`code`) need a code of the current authenticator or a
 * recovery code, so a stolen session cannot replace or remove it. Each enrolment makes new recovery codes,
 * answered once.
 */
export async function setEnabled(deps: TwoFactorDeps, auth: AuthContext, body: TwoFactorUpdateBody): Promise<TwoFactorState> {
  forbidWhileImpersonating(auth);
  const { user } = auth;
  await deps.limiter.hit([[`otp:acct:${user.id}`, deps.limiter.limits.otpAccount]]);
  if (body.enable) {
    const secret = user.totpPendingSecret;
    if (!secret) throw new AppError(400, 'TWO_FACTOR_NOT_STARTED', 'errors.twoFactorNotStarted');
    const step = codeStep(user, secret, body.code);
    if (user.totpEnabled) {
      if (!body.currentCode?.trim())
        throw new AppError(400, 'CURRENT_CODE_REQUIRED', 'errors.currentCodeRequired', {}, [
          { field: 'currentCode', key: 'errors.currentCodeRequired' },
        ]);
      await acceptCurrentFactor(deps.db, user, body.currentCode.trim(), 'currentCode');
    }
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    if (
      !(await repo.activate(
        deps.db,
        user.id,
        secret,
        step,
        codes.map((c) => hashToken(normalizeRecoveryCode(c))),
      ))
    )
      throw invalidCode();
    return { enabled: true, recoveryCodes: codes, recoveryCodesLeft: codes.length };
  }
  if (!user.totpEnabled || !user.totpSecret) return { enabled: false };
  await acceptCurrentFactor(deps.db, user, body.code.trim());
  await repo.deactivate(deps.db, user.id);
  return { enabled: false };
}

/** Completes a sign-in that owes the second factor: the pending session is replaced by a full one. */
export async function validateLogin(
  deps: TwoFactorDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  auth: AuthContext,
  code: string,
): Promise<TwoFactorValidateResponse> {
  await deps.limiter.hit([
    [`otp:acct:${auth.user.id}`, deps.limiter.limits.otpAccount],
    [`otp:ip:${request.ip}`, deps.limiter.limits.otpAddress],
  ]);
  await acceptCurrentFactor(deps.db, auth.user, code.trim());
  await deps.limiter.reset(`otp:acct:${auth.user.id}`);
  await startSession(deps.db, request, reply, deps.sessionOptions, auth.user.id, { impersonatorId: auth.impersonatorId });
  const user = (await users.findUserById(deps.db, auth.user.id))!;
  return { status: 'OK', user: users.presentMe({ ...auth, user, twoFactorPending: false }) };
}
