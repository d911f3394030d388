import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import { otpRule } from '@lamella/contracts';
import { eq } from 'drizzle-orm';
import type { Ctx } from '../../app.ts';
import { AppError } from '../../platform/http/errors.ts';
import { users } from '../../platform/db/schema/index.ts';
import type { UserRow } from '../users/repo.ts';
import { updateUser } from '../users/repo.ts';

const ISSUER = 'Lamella';

function totp(secret: string, label: string) {
  return new OTPAuth.TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(secret) });
}

const invalidCode = () => new AppError(400, 'INVALID_CODE', 'errors.invalidCode', {}, [{ field: 'code', key: 'errors.invalidCode' }]);

/** Starts enrolment: a new pending secret, returned as a QR code PNG of its otpauth:// URI and as text. */
export async function startEnrolment(ctx: Ctx, user: UserRow): Promise<{ png: Buffer; secret: string }> {
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  await updateUser(ctx.db, user.id, { totpPendingSecret: secret });
  const uri = totp(secret, user.email).toString();
  return { png: await QRCode.toBuffer(uri, { type: 'png', width: 240, margin: 1 }), secret };
}

/**
 * Checks a code against a secret, allowing one step of clock drift, and refuses a time step already used
 * (a code works once). Returns the accepted step.
 */
async function acceptCode(ctx: Ctx, user: UserRow, secret: string, code: string): Promise<void> {
  if (otpRule(code)) throw invalidCode();
  const t = totp(secret, user.email);
  const delta = t.validate({ token: code, window: 1 });
  if (delta === null) throw invalidCode();
  const step = Math.floor(Date.now() / 1000 / 30) + delta;
  if (user.totpLastStep !== null && step <= user.totpLastStep) throw invalidCode();
  await ctx.db.update(users).set({ totpLastStep: step }).where(eq(users.id, user.id));
}

export async function setEnabled(ctx: Ctx, user: UserRow, code: string, enable: boolean): Promise<boolean> {
  if (enable) {
    if (!user.totpPendingSecret) throw new AppError(400, 'TWO_FACTOR_NOT_STARTED', 'errors.twoFactorNotStarted');
    await acceptCode(ctx, user, user.totpPendingSecret, code);
    await updateUser(ctx.db, user.id, { totpSecret: user.totpPendingSecret, totpPendingSecret: null, totpEnabled: true });
    return true;
  }
  if (!user.totpEnabled || !user.totpSecret) return false;
  await acceptCode(ctx, user, user.totpSecret, code);
  await updateUser(ctx.db, user.id, { totpSecret: null, totpEnabled: false, totpLastStep: null });
  return false;
}

export async function validateLogin(ctx: Ctx, user: UserRow, code: string): Promise<void> {
  if (!user.totpEnabled || !user.totpSecret) throw invalidCode();
  await acceptCode(ctx, user, user.totpSecret, code);
}
