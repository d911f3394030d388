import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { otpRule, type TwoFactorState, type TwoFactorValidateResponse } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import type { Limiter } from '../../platform/http/rate-limit.ts';
import { AppError } from '../../platform/http/errors.ts';
import { startSession, type AuthContext, type SessionOptions } from '../../platform/auth/session.ts';
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

const invalidCode = () => new AppError(400, 'INVALID_CODE', 'errors.invalidCode', {}, [{ field: 'code', key: 'errors.invalidCode' }]);

/** Starts enrolment: a new pending secret, returned as a QR code PNG of its otpauth:// URI and as text. */
export async function startEnrolment(db: Db, user: users.UserRow): Promise<{ png: Buffer; secret: string }> {
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  await repo.setPendingSecret(db, user.id, secret);
  const uri = totp(secret, user.email).toString();
  return { png: await QRCode.toBuffer(uri, { type: 'png', width: 240, margin: 1 }), secret };
}

/**
 * Checks a code against a secret, allowing one step of clock drift, and spends its time step: the step is
 * compared with the last used one and stored in one conditional update, so a code works once, even when
 * the same code arrives twice at the same moment.
 */
async function acceptCode(db: Db, user: users.UserRow, secret: string, code: string): Promise<void> {
  if (otpRule(code)) throw invalidCode();
  const delta = totp(secret, user.email).validate({ token: code, window: 1 });
  if (delta === null) throw invalidCode();
  const step = Math.floor(Date.now() / 1000 / 30) + delta;
  if (!(await repo.claimStep(db, user.id, step))) throw invalidCode();
}

export async function setEnabled(deps: TwoFactorDeps, user: users.UserRow, code: string, enable: boolean): Promise<TwoFactorState> {
  await deps.limiter.hit([[`otp:acct:${user.id}`, deps.limiter.limits.otpAccount]]);
  if (enable) {
    if (!user.totpPendingSecret) throw new AppError(400, 'TWO_FACTOR_NOT_STARTED', 'errors.twoFactorNotStarted');
    await acceptCode(deps.db, user, user.totpPendingSecret, code);
    await repo.activate(deps.db, user.id, user.totpPendingSecret);
    return { enabled: true };
  }
  if (!user.totpEnabled || !user.totpSecret) return { enabled: false };
  await acceptCode(deps.db, user, user.totpSecret, code);
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
  if (!auth.user.totpEnabled || !auth.user.totpSecret) throw invalidCode();
  await acceptCode(deps.db, auth.user, auth.user.totpSecret, code);
  await deps.limiter.reset(`otp:acct:${auth.user.id}`);
  await startSession(deps.db, request, reply, deps.sessionOptions, auth.user.id, { impersonatorId: auth.impersonatorId });
  const user = (await users.findUserById(deps.db, auth.user.id))!;
  return { status: 'OK', user: users.presentMe({ ...auth, user, twoFactorPending: false }) };
}
