import { Type, type Static } from 'typebox';
import { FileDownload, LanguageSchema, Role, StatusOk } from './common.ts';
import { endpoint } from './endpoint.ts';

/**
 * The readable cookie that says "this browser has a session", set and cleared by the server with the HttpOnly
 * session cookie: the web app asks GET /users/me only where it is (a signed-out visitor's 401 was an error in the
 * browser's console on every public page).
 */
export const SIGNED_IN_COOKIE = 'lamella_signed_in';

/** GET /users/me: the signed-in caller. */
export const Me = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    surname: Type.String(),
    fullName: Type.String(),
    email: Type.String(),
    role: Role,
    permissions: Type.Array(Type.String()),
    grpAdmin: Type.Boolean(),
    language: LanguageSchema,
    emailVerified: Type.Boolean(),
    twoFactorPending: Type.Boolean(),
    impersonatedBy: Type.Optional(Type.Union([Type.Null(), Type.Object({ id: Type.String(), fullName: Type.String() })])),
  },
  { $id: 'Me' },
);
export type Me = Static<typeof Me>;

export const Address = Type.Object(
  {
    company: Type.Optional(Type.String({ maxLength: 200 })),
    address: Type.Optional(Type.String({ maxLength: 300 })),
    city: Type.Optional(Type.String({ maxLength: 120 })),
    country: Type.Optional(Type.String({ maxLength: 120 })),
    postalCode: Type.Optional(Type.String({ maxLength: 20 })),
    taxNumber: Type.Optional(Type.String({ maxLength: 60 })),
    phone: Type.Optional(Type.String({ maxLength: 40 })),
  },
  { $id: 'Address', additionalProperties: false },
);
export type Address = Static<typeof Address>;

export const LicenseSummary = Type.Object(
  {
    type: Type.String(),
    images: Type.Union([Type.Integer(), Type.Null()]),
    used: Type.Integer(),
    finish: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'LicenseSummary' },
);
export type LicenseSummary = Static<typeof LicenseSummary>;

export const CsvDecimalSeparator = Type.Union([Type.Literal('comma'), Type.Literal('dot')]);

/** GET /users/me/account: the profile of accounts.md §3. */
export const Account = Type.Object(
  {
    email: Type.String(),
    name: Type.String(),
    surname: Type.String(),
    group: Type.Union([Type.Null(), Type.Object({ name: Type.String() })]),
    subscribe: Type.Boolean(),
    trainingConsent: Type.Boolean(),
    canChangeTrainingConsent: Type.Boolean(),
    csvDecimalSeparator: CsvDecimalSeparator,
    language: LanguageSchema,
    address: Address,
    hasLogo: Type.Boolean(),
    twoFactorEnabled: Type.Boolean(),
    license: Type.Union([Type.Null(), LicenseSummary]),
  },
  { $id: 'Account' },
);
export type Account = Static<typeof Account>;

export const UpdateProfileBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 100 })),
    surname: Type.Optional(Type.String({ maxLength: 100 })),
    subscribe: Type.Optional(Type.Boolean()),
    csvDecimalSeparator: Type.Optional(CsvDecimalSeparator),
    language: Type.Optional(LanguageSchema),
    address: Type.Optional(Address),
  },
  { additionalProperties: false, $id: 'UpdateProfileBody' },
);
export type UpdateProfileBody = Static<typeof UpdateProfileBody>;

export const UpdateAuthBody = Type.Object(
  {
    currentPassword: Type.String({ maxLength: 200 }),
    email: Type.Optional(Type.String({ maxLength: 254 })),
    newPassword: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false, $id: 'UpdateAuthBody' },
);
export type UpdateAuthBody = Static<typeof UpdateAuthBody>;
export const UpdateAuthResponse = Type.Object({ status: Type.Literal('OK'), emailChanged: Type.Boolean() }, { $id: 'UpdateAuthResponse' });
export type UpdateAuthResponse = Static<typeof UpdateAuthResponse>;
export const ConsentBody = Type.Object({ trainingConsent: Type.Boolean() }, { additionalProperties: false, $id: 'ConsentBody' });
export type ConsentBody = Static<typeof ConsentBody>;
export const RemovalQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 200 })) }, { $id: 'RemovalQuery' });
export type RemovalQuery = Static<typeof RemovalQuery>;
/** PUT /users/me/logo: multipart with one part `file` (PNG or JPEG, at most 5 MB). Documentation only. */
export const LogoUploadBody = Type.Object({ file: Type.String({ format: 'binary' }) }, { $id: 'LogoUploadBody' });

const tags = ['users'] as const;
/** The signed-in user's own account (accounts.md §7 "Profile and account"). */
export const usersApi = {
  me: endpoint({ method: 'GET', path: '/users/me', operationId: 'getMe', tags, response: { 200: Me } }),
  account: endpoint({ method: 'GET', path: '/users/me/account', operationId: 'getAccount', tags, response: { 200: Account } }),
  updateProfile: endpoint({
    method: 'PATCH',
    path: '/users/me',
    operationId: 'updateProfile',
    tags,
    body: UpdateProfileBody,
    response: { 200: Account },
  }),
  updateAuth: endpoint({
    method: 'PATCH',
    path: '/users/me/auth',
    operationId: 'updateAuth',
    tags,
    body: UpdateAuthBody,
    response: { 200: UpdateAuthResponse },
  }),
  setConsent: endpoint({
    method: 'PATCH',
    path: '/users/me/consent',
    operationId: 'setTrainingConsent',
    tags,
    body: ConsentBody,
    response: { 200: Account },
  }),
  uploadLogo: endpoint({
    method: 'PUT',
    path: '/users/me/logo',
    operationId: 'uploadLogo',
    tags,
    consumes: ['multipart/form-data'],
    body: LogoUploadBody,
    response: { 200: StatusOk },
  }),
  logo: endpoint({
    method: 'GET',
    path: '/users/me/logo',
    operationId: 'getLogo',
    tags,
    produces: ['image/png'],
    response: { 200: FileDownload },
  }),
  removeLogo: endpoint({ method: 'DELETE', path: '/users/me/logo', operationId: 'deleteLogo', tags, response: { 200: StatusOk } }),
  /** Without a token: mails a confirmation link (signed in). With ?token=: performs the removal. */
  removeAccount: endpoint({
    method: 'DELETE',
    path: '/users/me',
    operationId: 'deleteAccount',
    tags,
    querystring: RemovalQuery,
    response: { 200: StatusOk },
  }),
  /** Ends every session of the user on every device. POST is the form the web app uses; GET is the spec's. */
  forceLogout: endpoint({ method: 'POST', path: '/users/me/force-logout', operationId: 'forceLogout', tags, response: { 200: StatusOk } }),
  forceLogoutGet: endpoint({
    method: 'GET',
    path: '/users/me/force-logout',
    operationId: 'forceLogoutGet',
    tags,
    response: { 200: StatusOk },
  }),
};
