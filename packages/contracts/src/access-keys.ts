import { Type, type Static } from 'typebox';
import { IdParams, NoContent } from './common.ts';
import { endpoint } from './endpoint.ts';

/** Access keys for programs (accounts.md §7 "Access keys"): `Authorization: Bearer lam_…`. */
export const AccessKey = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    createdAt: Type.String(),
    lastUsed: Type.Union([Type.String(), Type.Null()]),
    enabled: Type.Boolean(),
  },
  { $id: 'AccessKey' },
);
export type AccessKey = Static<typeof AccessKey>;
export const AccessKeyList = Type.Array(AccessKey, { $id: 'AccessKeyList' });
/** The creation answer: the only time the key's code is shown. */
export const CreatedAccessKey = Type.Object({ ...AccessKey.properties, code: Type.String() }, { $id: 'CreatedAccessKey' });
export type CreatedAccessKey = Static<typeof CreatedAccessKey>;
export const CreateAccessKeyBody = Type.Object(
  { name: Type.String({ maxLength: 100 }) },
  { additionalProperties: false, $id: 'CreateAccessKeyBody' },
);
export type CreateAccessKeyBody = Static<typeof CreateAccessKeyBody>;
export const UpdateAccessKeyBody = Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false, $id: 'UpdateAccessKeyBody' });
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
