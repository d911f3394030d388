import { Type, type Static } from 'typebox';
import { FileDownload } from './common.ts';
import { endpoint } from './endpoint.ts';
import { Me } from './users.ts';

export const TwoFactorState = Type.Object(
  {
    enabled: Type.Boolean(),
    /** How many unused recovery codes the account has (while enabled). */
    recoveryCodesLeft: Type.Optional(Type.Integer({ minimum: 0 })),
    /** The new recovery codes, answered once: by the enrolment that made them. */
    recoveryCodes: Type.Optional(Type.Array(Type.String())),
  },
  { $id: 'TwoFactorState' },
);
export type TwoFactorState = Static<typeof TwoFactorState>;
export const TwoFactorUpdateBody = Type.Object(
  {
    /** enable: a code of the pending (new) secret; disable: a code of the current authenticator or a recovery code. */
    code: Type.String({ maxLength: 24 }),
    enable: Type.Boolean(),
    /** Enrolling a new authenticator while one is enabled: a code of the current one or a recovery code. */
    currentCode: Type.Optional(Type.String({ maxLength: 24 })),
  },
  { $id: 'TwoFactorUpdateBody', additionalProperties: false },
);
export type TwoFactorUpdateBody = Static<typeof TwoFactorUpdateBody>;
export const TwoFactorValidateBody = Type.Object(
  { /** A code of the authenticator or a recovery code. */ code: Type.String({ maxLength: 24 }) },
  { $id: 'TwoFactorValidateBody', additionalProperties: false },
);
export type TwoFactorValidateBody = Static<typeof TwoFactorValidateBody>;
export const TwoFactorValidateResponse = Type.Object({ status: Type.Literal('OK'), user: Me }, { $id: 'TwoFactorValidateResponse' });
export type TwoFactorValidateResponse = Static<typeof TwoFactorValidateResponse>;

const tags = ['two-factor'] as const;
/** TOTP two-factor authentication (accounts.md §7 "Two-factor"). */
export const twoFactorApi = {
  state: endpoint({ method: 'GET', path: '/users/2fa', operationId: 'getTwoFactorState', tags, response: { 200: TwoFactorState } }),
  /** The QR code PNG of a new pending secret; the secret itself is in the `x-otp-secret` header. */
  start: endpoint({
    method: 'POST',
    path: '/users/2fa',
    operationId: 'startTwoFactorEnrolment',
    tags,
    produces: ['image/png'],
    response: { 200: FileDownload },
  }),
  update: endpoint({
    method: 'PUT',
    path: '/users/2fa',
    operationId: 'setTwoFactor',
    tags,
    body: TwoFactorUpdateBody,
    response: { 200: TwoFactorState },
  }),
  /** Completes a sign-in that owes the second factor: the pending session is replaced by a full one. */
  validate: endpoint({
    method: 'POST',
    path: '/users/2fa/validate',
    operationId: 'validateTwoFactor',
    tags,
    body: TwoFactorValidateBody,
    response: { 200: TwoFactorValidateResponse },
  }),
};
