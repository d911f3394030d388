import { Type, type Static } from 'typebox';
import { FormFields, LanguageSchema, Role } from './common.ts';

/** GET /users/me */
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

export const SigninBody = Type.Object({ formFields: FormFields });
export const SignupBody = Type.Object({ formFields: FormFields });
export const SigninResponse = Type.Object({ status: Type.Literal('OK'), user: Me, twoFactorRequired: Type.Boolean() });
export const SignupResponse = Type.Object({ status: Type.Literal('OK'), user: Me });
export type SigninResponse = Static<typeof SigninResponse>;

export const VerifyEmailBody = Type.Object({ method: Type.Literal('token'), token: Type.String({ maxLength: 200 }) });
export const ResetTokenBody = Type.Object({ formFields: FormFields });
export const ResetPasswordBody = Type.Object({
  method: Type.Literal('token'),
  token: Type.String({ maxLength: 200 }),
  formFields: FormFields,
});
export const VerifyTokenResponse = Type.Object({
  status: Type.Union([Type.Literal('OK'), Type.Literal('EMAIL_ALREADY_VERIFIED_ERROR')]),
});
export const VerifyStateResponse = Type.Object({ status: Type.Literal('OK'), isVerified: Type.Boolean() });

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

export const LicenseSummary = Type.Object({
  type: Type.String(),
  images: Type.Union([Type.Integer(), Type.Null()]),
  used: Type.Integer(),
  finish: Type.Union([Type.String(), Type.Null()]),
});

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
    csvDecimalSeparator: Type.Union([Type.Literal('comma'), Type.Literal('dot')]),
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
    csvDecimalSeparator: Type.Optional(Type.Union([Type.Literal('comma'), Type.Literal('dot')])),
    language: Type.Optional(LanguageSchema),
    address: Type.Optional(Address),
  },
  { additionalProperties: false },
);
export type UpdateProfileBody = Static<typeof UpdateProfileBody>;

export const UpdateAuthBody = Type.Object(
  {
    currentPassword: Type.String({ maxLength: 200 }),
    email: Type.Optional(Type.String({ maxLength: 254 })),
    newPassword: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
export const UpdateAuthResponse = Type.Object({ status: Type.Literal('OK'), emailChanged: Type.Boolean() });
export const ConsentBody = Type.Object({ trainingConsent: Type.Boolean() }, { additionalProperties: false });
export const RemovalQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 200 })) });

export const TwoFactorState = Type.Object({ enabled: Type.Boolean() });
export const TwoFactorUpdateBody = Type.Object({ code: Type.String({ maxLength: 12 }), enable: Type.Boolean() });
export const TwoFactorValidateBody = Type.Object({ code: Type.String({ maxLength: 12 }) });
export const TwoFactorValidateResponse = Type.Object({ status: Type.Literal('OK'), user: Me });

export const AvailableModel = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    displayName: Type.String(),
    accessType: Type.Union([Type.Literal('PUBLIC'), Type.Literal('PRIVATE')]),
    isDefaultVisible: Type.Boolean(),
    favorite: Type.Boolean(),
  },
  { $id: 'AvailableModel' },
);
export type AvailableModel = Static<typeof AvailableModel>;
export const ModelNavItem = Type.Object(
  {
    id: Type.String(),
    displayName: Type.String(),
    label: Type.String(),
    path: Type.String(),
    modelId: Type.String(),
    accessType: Type.Union([Type.Literal('PUBLIC'), Type.Literal('PRIVATE')]),
  },
  { $id: 'ModelNavItem' },
);
export type ModelNavItem = Static<typeof ModelNavItem>;
export const FavoriteBody = Type.Object({ id: Type.String(), favorite: Type.Boolean() }, { additionalProperties: false });

export const VersionInfo = Type.Object({ version: Type.String(), environment: Type.String() }, { $id: 'VersionInfo' });
export type VersionInfo = Static<typeof VersionInfo>;
