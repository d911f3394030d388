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

/** Liveness: the process answers (no dependency is probed). */
export const Liveness = Type.Object({ status: Type.Literal('ok') }, { $id: 'Liveness' });
export type Liveness = Static<typeof Liveness>;

export const ReadinessCheck = Type.Object(
  { ok: Type.Boolean(), detail: Type.Optional(Type.String()) },
  { description: 'One condition of readiness; `detail` says what was found or what failed' },
);
export type ReadinessCheck = Static<typeof ReadinessCheck>;
/** Readiness: every named condition holds (200 `ready`), else 503 `not_ready` naming the failing ones. */
export const Readiness = Type.Object(
  {
    status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
    checks: Type.Object({
      database: ReadinessCheck,
      migrations: ReadinessCheck,
      storage: ReadinessCheck,
      launchers: ReadinessCheck,
    }),
  },
  { $id: 'Readiness' },
);
export type Readiness = Static<typeof Readiness>;

/** Prometheus text exposition format 0.0.4. */
export const MetricsText = Type.String({ $id: 'MetricsText', description: 'Prometheus text exposition format' });
export type MetricsText = Static<typeof MetricsText>;

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
  live: endpoint({ method: 'GET', path: '/health/live', operationId: 'getLiveness', tags, response: { 200: Liveness } }),
  ready: endpoint({ method: 'GET', path: '/health/ready', operationId: 'getReadiness', tags, response: { 200: Readiness, 503: Readiness } }),
  /** With `Authorization: Bearer $METRICS_TOKEN`; 401 without it, 404 when METRICS_TOKEN is unset. */
  metrics: endpoint({
    method: 'GET',
    path: '/metrics',
    operationId: 'getMetrics',
    tags,
    produces: ['text/plain'],
    response: { 200: MetricsText },
  }),
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
