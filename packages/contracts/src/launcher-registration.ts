import { Type, type Static } from 'typebox';
import { IdParams } from './common.ts';
import { endpoint } from './endpoint.ts';

/**
 * Launchers that join by themselves: an ADMIN creates a registration token for a server (Servers screen); a
 * launcher started on that machine with the server's URL and the token registers as one of its launchers
 * (POST /launchers/register) and is used at once. Revoking the token removes the launchers it registered.
 */
export const RegistrationToken = Type.Object(
  {
    id: Type.String(),
    nodeId: Type.String(),
    name: Type.String(),
    /** The token's first characters, to tell tokens apart (the token itself is shown once). */
    tokenPrefix: Type.String(),
    /** Launchers registered with it now. */
    launcherCount: Type.Integer(),
    createdAt: Type.String(),
    lastUsedAt: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'RegistrationToken' },
);
export type RegistrationToken = Static<typeof RegistrationToken>;
export const RegistrationTokenList = Type.Array(RegistrationToken, { $id: 'RegistrationTokenList' });

export const CreateRegistrationTokenBody = Type.Object(
  { name: Type.Optional(Type.String({ maxLength: 200 })) },
  { $id: 'CreateRegistrationTokenBody' },
);
export type CreateRegistrationTokenBody = Static<typeof CreateRegistrationTokenBody>;

/** The new token, in full, this once. */
export const CreatedRegistrationToken = Type.Object(
  { ...RegistrationToken.properties, token: Type.String(), message: Type.String() },
  { $id: 'CreatedRegistrationToken' },
);
export type CreatedRegistrationToken = Static<typeof CreatedRegistrationToken>;

export const RevokedRegistrationToken = Type.Object(
  { id: Type.String(), revoked: Type.Boolean(), removedLaunchers: Type.Integer(), message: Type.String() },
  { $id: 'RevokedRegistrationToken' },
);
export type RevokedRegistrationToken = Static<typeof RevokedRegistrationToken>;

/** What a launcher sends when it registers (the token goes in `Authorization: Bearer`). */
export const RegisterLauncherBody = Type.Object(
  {
    /** The port its HTTP service listens on, on the server's IP. */
    port: Type.Optional(Type.Integer()),
    /** The address it advertises; when given it must be the server's IP. */
    host: Type.Optional(Type.String({ maxLength: 255 })),
    version: Type.Optional(Type.String({ maxLength: 100 })),
    /** Analyses it runs at the same time. */
    slots: Type.Optional(Type.Integer()),
  },
  { $id: 'RegisterLauncherBody' },
);
export type RegisterLauncherBody = Static<typeof RegisterLauncherBody>;

export const RegisteredLauncher = Type.Object(
  {
    executorId: Type.String(),
    nodeId: Type.String(),
    /** The address the server reaches the launcher on. */
    url: Type.String(),
    /** Whether the server reached its health check while registering it. */
    reachable: Type.Boolean(),
  },
  { $id: 'RegisteredLauncher' },
);
export type RegisteredLauncher = Static<typeof RegisteredLauncher>;

const tags = ['admin-servers'] as const;
export const launcherRegistrationApi = {
  listTokens: endpoint({
    method: 'GET',
    path: '/admin/nodes/:id/registration-tokens',
    operationId: 'listRegistrationTokens',
    tags,
    params: IdParams,
    response: { 200: RegistrationTokenList },
  }),
  createToken: endpoint({
    method: 'POST',
    path: '/admin/nodes/:id/registration-tokens',
    operationId: 'createRegistrationToken',
    tags,
    params: IdParams,
    body: CreateRegistrationTokenBody,
    response: { 200: CreatedRegistrationToken },
  }),
  revokeToken: endpoint({
    method: 'DELETE',
    path: '/admin/registration-tokens/:id',
    operationId: 'revokeRegistrationToken',
    tags,
    params: IdParams,
    response: { 200: RevokedRegistrationToken },
  }),
  register: endpoint({
    method: 'POST',
    path: '/launchers/register',
    operationId: 'registerLauncher',
    tags: ['launchers'],
    summary: 'A launcher registers itself with a registration token (Authorization: Bearer <token>)',
    body: RegisterLauncherBody,
    response: { 200: RegisteredLauncher },
  }),
};
