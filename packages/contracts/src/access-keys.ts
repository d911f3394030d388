import { Type, type Static } from 'typebox';
import { IdParams, NoContent } from './common.ts';
import { endpoint } from './endpoint.ts';

/** READ_ONLY: GET calls only (403 ACCESS_KEY_READ_ONLY otherwise); READ_WRITE: every call its owner may make. */
export const AccessKeyScope = Type.Union([Type.Literal('READ_ONLY'), Type.Literal('READ_WRITE')], {
  description: 'READ_ONLY: GET calls only; READ_WRITE: every call the owner may make',
});
export type AccessKeyScope = Static<typeof AccessKeyScope>;
/** The most requests a minute a key may be given, and the default. */
export const ACCESS_KEY_RATE_MAX = 600;

/** Access keys for programs (accounts.md §7 "Access keys"): `Authorization: Bearer lam_…`. */
export const AccessKey = Type.Object(
  {
    id: Type.String({ description: "The key's identifier (UUID)" }),
    name: Type.String({ description: 'Label chosen by the owner' }),
    createdAt: Type.String({ description: 'When the key was made (ISO 8601, UTC)' }),
    lastUsed: Type.Union([Type.String(), Type.Null()], {
      description: 'When the key last authenticated a request (ISO 8601, UTC, to the minute); null: never',
    }),
    enabled: Type.Boolean({ description: 'A disabled key authenticates nothing (401)' }),
    scope: AccessKeyScope,
    ratePerMinute: Type.Integer({ description: 'Requests a minute this key may make; beyond, 429 RATE_LIMITED with Retry-After' }),
    requestCount: Type.Integer({ description: 'Requests made with this key since it was created' }),
  },
  { $id: 'AccessKey' },
);
export type AccessKey = Static<typeof AccessKey>;
export const AccessKeyList = Type.Array(AccessKey, { $id: 'AccessKeyList' });
/** The creation answer: the only time the key's code is shown. */
export const CreatedAccessKey = Type.Object(
  {
    ...AccessKey.properties,
    code: Type.String({ description: 'The key itself (`lam_…`), shown this once: send it as `Authorization: Bearer <code>`' }),
  },
  { $id: 'CreatedAccessKey' },
);
export type CreatedAccessKey = Static<typeof CreatedAccessKey>;
const RatePerMinute = Type.Integer({ minimum: 1, maximum: ACCESS_KEY_RATE_MAX, description: `Requests a minute (1-${ACCESS_KEY_RATE_MAX})` });
export const CreateAccessKeyBody = Type.Object(
  {
    name: Type.String({ maxLength: 100, description: 'Label of the key (required, at most 100 characters)' }),
    scope: Type.Optional(
      Type.Union([Type.Literal('READ_ONLY'), Type.Literal('READ_WRITE')], { description: 'READ_ONLY or READ_WRITE (when not given)' }),
    ),
    ratePerMinute: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: ACCESS_KEY_RATE_MAX,
        description: `Requests a minute (1-${ACCESS_KEY_RATE_MAX}); ${ACCESS_KEY_RATE_MAX} when not given`,
      }),
    ),
  },
  { additionalProperties: false, $id: 'CreateAccessKeyBody' },
);
export type CreateAccessKeyBody = Static<typeof CreateAccessKeyBody>;
export const UpdateAccessKeyBody = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: 'Enable or disable the key' })),
    scope: Type.Optional(AccessKeyScope),
    ratePerMinute: Type.Optional(RatePerMinute),
  },
  { additionalProperties: false, $id: 'UpdateAccessKeyBody' },
);
export type UpdateAccessKeyBody = Static<typeof UpdateAccessKeyBody>;

const tags = ['access-keys'] as const;
export const accessKeysApi = {
  list: endpoint({ method: 'GET', path: '/access-keys', operationId: 'listAccessKeys', tags, response: { 200: AccessKeyList } }),
  create: endpoint({
    method: 'POST',
    path: '/access-keys',
    operationId: 'createAccessKey',
    tags,
    body: CreateAccessKeyBody,
    response: { 200: CreatedAccessKey },
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/access-keys/:id',
    operationId: 'updateAccessKey',
    tags,
    params: IdParams,
    body: UpdateAccessKeyBody,
    response: { 200: AccessKey },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/access-keys/:id',
    operationId: 'deleteAccessKey',
    tags,
    params: IdParams,
    response: { 204: NoContent },
  }),
};
