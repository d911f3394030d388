import { Type, type Static, type TSchema } from 'typebox';
import { IdParams, NoContent } from './common.ts';
import { endpoint } from './endpoint.ts';

const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);

/** Project settings templates (accounts.md §2, §7): ADMIN only. */
export const SettingsTemplate = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    settings: Type.Record(Type.String(), Type.Unknown()),
    createdBy: Nullable(Type.Object({ name: Type.String(), surname: Nullable(Type.String()) })),
    createdAt: Type.String(),
  },
  { $id: 'SettingsTemplate' },
);
export type SettingsTemplate = Static<typeof SettingsTemplate>;
export const SettingsTemplateList = Type.Array(SettingsTemplate, { $id: 'SettingsTemplateList' });

/**
 * The template form. `name` and `settings` are required (checked by the server, naming the field);
 * `settings` is a JSON object, or the editor's text of one (parsed by the server).
 */
export const SettingsTemplateBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    settings: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.String({ maxLength: 1_000_000 }), Type.Null()])),
  },
  { additionalProperties: false, $id: 'SettingsTemplateBody' },
);
export type SettingsTemplateBody = Static<typeof SettingsTemplateBody>;

const tags = ['project-settings-templates'] as const;
const base = '/admin/project-settings-templates';
export const templatesApi = {
  list: endpoint({ method: 'GET', path: base, operationId: 'listSettingsTemplates', tags, response: { 200: SettingsTemplateList } }),
  create: endpoint({
    method: 'POST',
    path: base,
    operationId: 'createSettingsTemplate',
    tags,
    body: SettingsTemplateBody,
    response: { 200: SettingsTemplate },
  }),
  get: endpoint({
    method: 'GET',
    path: `${base}/:id`,
    operationId: 'getSettingsTemplate',
    tags,
    params: IdParams,
    response: { 200: SettingsTemplate },
  }),
  update: endpoint({
    method: 'PUT',
    path: `${base}/:id`,
    operationId: 'updateSettingsTemplate',
    tags,
    params: IdParams,
    body: SettingsTemplateBody,
    response: { 200: SettingsTemplate },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: `${base}/:id`,
    operationId: 'deleteSettingsTemplate',
    tags,
    params: IdParams,
    response: { 204: NoContent },
  }),
};
