import { api, formFields } from '../../api/client';
import type { Me, StatusOk } from '../../api/types';

export const authApi = {
  signin: (email: string, password: string) =>
    api.post<{ status: 'OK'; user: Me; twoFactorRequired: boolean }>('/auth/signin', formFields({ email, password })),
  signup: (values: {
    email: string;
    password: string;
    name: string;
    surname: string;
    company: string;
    phone: string;
    subscribe: boolean;
    trainingConsent: boolean;
  }) => api.post<{ status: 'OK'; user: Me }>('/auth/signup', formFields(values)),
  signout: () => api.post<StatusOk>('/auth/signout'),
  requestVerificationMail: () => api.post<{ status: 'OK' | 'EMAIL_ALREADY_VERIFIED_ERROR' }>('/auth/user/email/verify/token'),
  verifyEmail: (token: string) => api.post<StatusOk>('/auth/user/email/verify', { method: 'token', token }),
  requestPasswordReset: (email: string) => api.post<StatusOk>('/auth/user/password/reset/token', formFields({ email })),
  resetPassword: (token: string, password: string) =>
    api.post<StatusOk>('/auth/user/password/reset', { method: 'token', token, ...formFields({ password }) }),
  validateOtp: (code: string) => api.post<{ status: 'OK'; user: Me }>('/users/2fa/validate', { code }),
  confirmRemoval: (token: string) => api.delete<StatusOk>('/users/me', { query: { token } }),
};
