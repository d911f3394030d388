import { Type, type Static } from 'typebox';
import { StatusOk } from './common.ts';
import { endpoint } from './endpoint.ts';
import { Me } from './users.ts';

/**
 * SuperTokens-shaped `formFields: [{id, value}]` (accounts.md §7). Text fields carry strings; the signup's
 * `subscribe` and `trainingConsent` carry booleans. Unknown ids are ignored.
 */
export const TextFormField = Type.Object({ id: Type.String({ maxLength: 50 }), value: Type.String({ maxLength: 1000 }) }, { $id: 'TextFormField' });
export type TextFormField = Static<typeof TextFormField>;
export const SignupFormField = Type.Object(
  { id: Type.String({ maxLength: 50 }), value: Type.Union([Type.String({ maxLength: 1000 }), Type.Boolean()]) },
  { $id: 'SignupFormField' },
);
export type SignupFormField = Static<typeof SignupFormField>;

/** formFields: email, password. */
export const SigninBody = Type.Object({ formFields: Type.Array(TextFormField, { maxItems: 20 }) }, { $id: 'SigninBody' });
export type SigninBody = Static<typeof SigninBody>;
/** formFields: email, password, name, surname, company, phone, subscribe, trainingConsent. */
export const SignupBody = Type.Object({ formFields: Type.Array(SignupFormField, { maxItems: 20 }) }, { $id: 'SignupBody' });
export type SignupBody = Static<typeof SignupBody>;
export const SigninResponse = Type.Object({ status: Type.Literal('OK'), user: Me, twoFactorRequired: Type.Boolean() }, { $id: 'SigninResponse' });
export type SigninResponse = Static<typeof SigninResponse>;
export const SignupResponse = Type.Object({ status: Type.Literal('OK'), user: Me }, { $id: 'SignupResponse' });
export type SignupResponse = Static<typeof SignupResponse>;

export const VerifyEmailBody = Type.Object({ method: Type.Literal('token'), token: Type.String({ maxLength: 200 }) }, { $id: 'VerifyEmailBody' });
export type VerifyEmailBody = Static<typeof VerifyEmailBody>;
/** formFields: email. */
export const ResetTokenBody = Type.Object({ formFields: Type.Array(TextFormField, { maxItems: 20 }) }, { $id: 'ResetTokenBody' });
export type ResetTokenBody = Static<typeof ResetTokenBody>;
/** formFields: password. */
export const ResetPasswordBody = Type.Object(
  { method: Type.Literal('token'), token: Type.String({ maxLength: 200 }), formFields: Type.Array(TextFormField, { maxItems: 20 }) },
  { $id: 'ResetPasswordBody' },
);
export type ResetPasswordBody = Static<typeof ResetPasswordBody>;
export const VerifyTokenResponse = Type.Object(
  { status: Type.Union([Type.Literal('OK'), Type.Literal('EMAIL_ALREADY_VERIFIED_ERROR')]) },
  { $id: 'VerifyTokenResponse' },
);
export type VerifyTokenResponse = Static<typeof VerifyTokenResponse>;
export const VerifyStateResponse = Type.Object({ status: Type.Literal('OK'), isVerified: Type.Boolean() }, { $id: 'VerifyStateResponse' });
export type VerifyStateResponse = Static<typeof VerifyStateResponse>;

const tags = ['auth'] as const;
/** The session service under /api/auth (accounts.md §7). */
export const authApi = {
  signup: endpoint({ method: 'POST', path: '/auth/signup', operationId: 'signup', tags, body: SignupBody, response: { 200: SignupResponse } }),
  signin: endpoint({ method: 'POST', path: '/auth/signin', operationId: 'signin', tags, body: SigninBody, response: { 200: SigninResponse } }),
  signout: endpoint({ method: 'POST', path: '/auth/signout', operationId: 'signout', tags, response: { 200: StatusOk } }),
  requestVerificationMail: endpoint({
    method: 'POST',
    path: '/auth/user/email/verify/token',
    operationId: 'requestVerificationMail',
    tags,
    response: { 200: VerifyTokenResponse },
  }),
  verificationState: endpoint({
    method: 'GET',
    path: '/auth/user/email/verify',
    operationId: 'getVerificationState',
    tags,
    response: { 200: VerifyStateResponse },
  }),
  verifyEmail: endpoint({
    method: 'POST',
    path: '/auth/user/email/verify',
    operationId: 'verifyEmail',
    tags,
    body: VerifyEmailBody,
    response: { 200: StatusOk },
  }),
  requestPasswordReset: endpoint({
    method: 'POST',
    path: '/auth/user/password/reset/token',
    operationId: 'requestPasswordReset',
    tags,
    body: ResetTokenBody,
    response: { 200: StatusOk },
  }),
  resetPassword: endpoint({
    method: 'POST',
    path: '/auth/user/password/reset',
    operationId: 'resetPassword',
    tags,
    body: ResetPasswordBody,
    response: { 200: StatusOk },
  }),
};
