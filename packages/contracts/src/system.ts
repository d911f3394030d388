import { Type, type Static } from 'typebox';
import { endpoint } from './endpoint.ts';

export const HealthCheck = Type.Object(
  { ok: Type.Boolean(), kind: Type.String(), error: Type.Optional(Type.String()) },
  { description: 'One dependency probe' },
);
export const Health = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
    version: Type.String(),
    database: HealthCheck,
    storage: HealthCheck,
    mail: HealthCheck,
  },
  { $id: 'Health' },
);
export type Health = Static<typeof Health>;

export const VersionInfo = Type.Object({ version: Type.String(), environment: Type.String() }, { $id: 'VersionInfo' });
export type VersionInfo = Static<typeof VersionInfo>;

/** A language code in a path (`en`, `de`); another code answers 404 (translations) or English (terms). */
export const LanguageParams = Type.Object({ lng: Type.String({ maxLength: 10 }) }, { $id: 'LanguageParams' });
export type LanguageParams = Static<typeof LanguageParams>;
/** Nested translation keys → text, with the administrator's overrides merged in. */
export const TranslationTree = Type.Record(Type.String(), Type.Unknown(), { $id: 'TranslationTree' });
export type TranslationTree = Static<typeof TranslationTree>;
export const UserCount = Type.Object({ count: Type.Integer() }, { $id: 'UserCount' });
export type UserCount = Static<typeof UserCount>;

const tags = ['system'] as const;
/** Health, version, translations and the user count (the terms: terms.ts). */
export const systemApi = {
  health: endpoint({ method: 'GET', path: '/health', operationId: 'getHealth', tags, response: { 200: Health, 503: Health } }),
  version: endpoint({ method: 'GET', path: '/version', operationId: 'getVersion', tags, response: { 200: VersionInfo } }),
  translations: endpoint({
    method: 'GET',
    path: '/languages/:lng',
    operationId: 'getTranslations',
    tags,
    params: LanguageParams,
    response: { 200: TranslationTree },
  }),
  userCount: endpoint({ method: 'GET', path: '/users/count', operationId: 'countUsers', tags, response: { 200: UserCount } }),
};
