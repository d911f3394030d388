import { authApi as auth, twoFactorApi, usersApi, type SignupFormField, type TextFormField } from '@lamella/contracts';
import { call } from '../../api/client';

/** The SuperTokens-shaped `formFields` of the auth calls. */
function textFields(values: Record<string, string>): TextFormField[] {
  return Object.entries(values).map(([id, value]) => ({ id, value }));
}
function signupFields(values: Record<string, string | boolean>): SignupFormField[] {
  return Object.entries(values).map(([id, value]) => ({ id, value }));
}

export const authApi = {
  signin: (email: string, password: string) => call(auth.signin, { body: { formFields: textFields({ email, password }) } }),
  signup: (values: {
    email: string;
    password: string;
    name: string;
    surname: string;
    company: string;
    phone: string;
    subscribe: boolean;
    trainingConsent: boolean;
  }) => call(auth.signup, { body: { formFields: signupFields(values) } }),
  signout: () => call(auth.signout),
  requestVerificationMail: () => call(auth.requestVerificationMail),
  verifyEmail: (token: string) => call(auth.verifyEmail, { body: { method: 'token', token } }),
  requestPasswordReset: (email: string) => call(auth.requestPasswordReset, { body: { formFields: textFields({ email }) } }),
  resetPassword: (token: string, password: string) =>
    call(auth.resetPassword, { body: { method: 'token', token, formFields: textFields({ password }) } }),
  validateOtp: (code: string) => call(twoFactorApi.validate, { body: { code } }),
  confirmRemoval: (token: string) => call(usersApi.removeAccount, { query: { token } }),
  /** Ends every session of the user on every device. */
  forceLogout: () => call(usersApi.forceLogout),
};
