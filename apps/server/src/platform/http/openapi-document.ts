import { readFileSync } from 'node:fs';
import type { Guard } from '../auth/guard.ts';

/**
 * The parts of the OpenAPI document that no single route declares (ARCHITECTURE.md "The API document"), added to
 * every operation by swagger's transformObject:
 * - security from the route's guard (`config.auth`): `[]` for public routes, else the session cookie or an access
 *   key, with the roles or privilege in the description;
 * - every error answer (ApiError, its status and stable codes): the guard's (401/403), validation (400) when the
 *   operation takes parameters or a body, an access key's rate limit (429), 500, and the codes its handler can
 *   reach (openapi-facts.json, found in the source by scripts/openapi/facts.ts);
 * - a summary where the contract has none (from the operationId), and descriptions of schemas and properties from
 *   the doc comments of packages/contracts (also in openapi-facts.json) or, for the common field names, from
 *   PROPERTY_TEXTS below.
 */

export interface OpenApiFacts {
  errors: Record<string, Array<[number, string]>>;
  descriptions: Record<string, { description?: string; properties?: Record<string, string> }>;
}

export function loadFacts(): OpenApiFacts {
  try {
    return JSON.parse(readFileSync(new URL('./openapi-facts.json', import.meta.url), 'utf8')) as OpenApiFacts;
  } catch {
    return { errors: {}, descriptions: {} };
  }
}

/** The API's own version (info.version): raise it with every breaking change (`npm run openapi:breaking`). */
export const API_VERSION = '2.0.0';

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request: a parameter or field is invalid (details name each field)',
  401: 'Not signed in, or the second factor is still owed',
  403: 'Signed in, but not allowed',
  404: 'Not found (or not visible to the caller)',
  409: 'Conflict with the current state',
  410: 'Gone',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Unprocessable content',
  429: 'Too many requests: wait the seconds of Retry-After',
  500: 'Internal error',
  502: 'Bad gateway',
  503: 'Service unavailable: try again later (Retry-After when known)',
};

/** Descriptions of field names used across the schemas; a contract's own doc comment wins. */
const PROPERTY_TEXTS: Record<string, string> = {
  id: 'Identifier (UUID)',
  userId: "The user's identifier (UUID)",
  jobId: "The job's identifier (UUID)",
  imageId: "The image's identifier (UUID)",
  projectId: "The project's identifier (UUID)",
  groupId: "The group's identifier (UUID)",
  modelId: "The model's identifier",
  createdAt: 'When it was created (ISO 8601, UTC)',
  updatedAt: 'When it last changed (ISO 8601, UTC)',
  deletedAt: 'When it was deleted (ISO 8601, UTC); null: not deleted',
  startedAt: 'When it started (ISO 8601, UTC)',
  finishedAt: 'When it finished (ISO 8601, UTC)',
  expiresAt: 'When it expires (ISO 8601, UTC)',
  lastUsed: 'When it was last used (ISO 8601, UTC); null: never',
  name: 'Name',
  surname: 'Surname',
  email: 'E-mail address',
  title: 'Title',
  description: 'Description',
  status: 'Status',
  role: 'Role: ADMIN, POWER_USER, EDITOR, USER or BLOCKED',
  enabled: 'Whether it is enabled',
  items: 'The entries of this page',
  total: 'How many entries match, over all pages',
  page: 'Page number, from 1',
  pageSize: 'Entries per page',
  limit: 'Most entries to return',
  offset: 'Entries to skip',
  sort: 'Sort field',
  order: 'Sort order: asc or desc',
  search: 'Text searched for',
  q: 'Text searched for',
  format: 'Format',
  language: 'Language: en or de',
  code: 'Stable machine-readable code',
  message: 'Human text in the caller language',
  statusCode: 'HTTP status code',
  width: 'Width in pixels',
  height: 'Height in pixels',
  size: 'Size in bytes',
  pixelSizeUm: 'Calibration in µm per pixel; null: none given',
  key: 'Key',
  value: 'Value',
  label: 'Label',
  displayName: 'Name shown to users',
  version: 'Version',
  modelVersion: 'Version of the model that ran',
  count: 'Count',
  token: 'One-time token from the e-mail',
  password: 'Password',
  field: 'The field concerned (dotted path)',
  details: 'One entry per invalid field',
  company: 'Company',
  fullName: 'Name and surname',
  deleted: 'Whether it is deleted',
  type: 'Type',
  comment: 'Comment',
  filename: 'File name',
  orginalFilename: 'The file name as uploaded (spelled as in the specification)',
  settings: 'Settings (JSON object)',
  ok: 'Whether it succeeded',
  rating: 'Rating',
  user: 'The user',
  images: 'The images',
  members: 'The members',
  last7Days: 'Count over the last 7 days',
  last30Days: 'Count over the last 30 days',
  results: 'The results',
  source: 'Where it came from',
  model: 'The model',
  files: 'The files',
  used: 'How many are used',
  detail: 'Detail',
  trainingConsent: 'Whether the user agrees that their images train the models',
  address: 'Postal address',
  owner: 'The owner',
  archived: 'Whether it is archived',
  accessType: 'Who may use it: PUBLIC or PRIVATE',
  versions: 'The versions',
  modelName: "The model's name",
  error: 'Error text; null: none',
  withMasks: 'Whether masks are included',
  formFields: 'Form fields (id and value)',
  group: 'The group',
  license: 'The licence',
  action: 'Action',
  scaleNumber: 'Scale bar number as read',
  scaleLength: 'Scale bar length',
  image: 'The image',
  currentVersion: 'The current version',
  port: 'TCP port',
  x: 'x coordinate in pixels',
  y: 'y coordinate in pixels',
  measurements: 'The measurements',
  data: 'Data',
  active: 'Whether it is active',
  content: 'Content',
  position: 'Position in the order',
  text: 'Text',
  values: 'Values',
  kind: 'Kind',
  models: 'The models',
  file: 'The file',
  phone: 'Phone number',
  city: 'City',
  country: 'Country',
  postalCode: 'Postal code',
  taxNumber: 'Tax number',
  unit: 'Unit',
  mean: 'Mean',
  score: 'Score',
  validated: 'Whether the file was read and checked',
  feedback: 'Feedback',
  method: 'Method',
  state: 'State',
  stats: 'Statistics',
  project: 'The project',
  durationMs: 'Duration in milliseconds',
  waitMs: 'Waiting time in milliseconds',
  en: 'English text',
  de: 'German text',
};

/** A description from the shape of a field name (…At, …Id, …Ids, is…/has…/can…, …En/…De) when none is written. */
function byPattern(name: string): string | undefined {
  const words = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  let m: RegExpExecArray | null;
  if ((m = /^(.+)(En|De)$/.exec(name)))
    return `${PROPERTY_TEXTS[m[1]] ?? words(m[1]).replace(/^./, (c) => c.toUpperCase())} in ${m[2] === 'En' ? 'English' : 'German'}`;
  if ((m = /^(.+)At$/.exec(name))) return `When ${words(m[1])} (ISO 8601, UTC)`;
  if ((m = /^(.+)Ids$/.exec(name))) return `Identifiers of the ${words(m[1])}s`;
  if ((m = /^(.+)Id$/.exec(name))) return `Identifier of the ${words(m[1])}`;
  if ((m = /^(is|has|can)([A-Z].*)$/.exec(name))) return `Whether ${m[1] === 'is' ? 'it is' : m[1] === 'has' ? 'it has' : 'one can'} ${words(m[2])}`;
  if ((m = /^(.+)Count$/.exec(name))) return `Number of ${words(m[1])}`;
  return undefined;
}

const humanise = (operationId: string) => {
  const words = operationId.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

function guardText(guard: Guard): string {
  if (guard === 'public') return 'Public: no authentication.';
  const how = 'Session cookie (`lamella_session`) or access key (`Authorization: Bearer lam_…`).';
  if (guard === 'pending') return `${how} Allowed while the second factor is still owed.`;
  if (guard === 'session') return `${how} Allowed before the e-mail address is verified.`;
  if (guard === 'user') return `${how} Any signed-in user with a verified e-mail address.`;
  if ('roles' in guard) return `${how} Roles: ${guard.roles.join(', ')}.`;
  return `${how} ADMIN, or a POWER_USER holding the privilege ${guard.permission}.`;
}

/** An access key's rate limit counts on every route; a read-only key is refused on every other method than GET. */
function guardErrors(guard: Guard, method: string): Array<[number, string]> {
  const out: Array<[number, string]> = [[429, 'RATE_LIMITED']];
  if (guard === 'public') return out;
  out.push([401, 'UNAUTHENTICATED']);
  if (method !== 'get') out.push([403, 'ACCESS_KEY_READ_ONLY']);
  if (guard === 'pending') return out;
  out.push([401, 'TWO_FACTOR_REQUIRED']);
  if (guard === 'session') return out;
  out.push([403, 'EMAIL_NOT_VERIFIED']);
  if (guard === 'user') return out;
  out.push([403, 'FORBIDDEN']);
  return out;
}

type Json = Record<string, unknown>;
type Operation = Json & {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: unknown[];
  requestBody?: unknown;
  responses?: Record<string, Json>;
  security?: unknown;
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Adds descriptions to a schema tree (in place): the named schema's own from the facts, else by field name. */
function describeSchema(schema: unknown, own: Record<string, string> | undefined): void {
  if (!schema || typeof schema !== 'object') return;
  if (Array.isArray(schema)) return schema.forEach((s) => describeSchema(s, undefined));
  const s = schema as Json;
  const props = s.properties as Record<string, Json> | undefined;
  if (props)
    for (const [name, p] of Object.entries(props)) {
      if (!p || typeof p !== 'object') continue;
      const text = own?.[name] ?? (p.description as string | undefined) ?? PROPERTY_TEXTS[name] ?? byPattern(name);
      if (text && !p.description) {
        if (typeof p.$ref === 'string') props[name] = { description: text, allOf: [{ $ref: p.$ref }] };
        else p.description = text;
      }
      describeSchema(p, undefined);
    }
  for (const k of ['items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties']) if (k in s) describeSchema(s[k], undefined);
}

/** Completes the document (in place) with what `routes` (operationId → guard) and the facts tell. */
export function completeDocument(doc: Json, routes: Map<string, Guard>, facts: OpenApiFacts): Json {
  (doc.info as Json).version = API_VERSION;
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Operation>>;
  for (const item of Object.values(paths))
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.operationId) continue;
      const guard = routes.get(op.operationId) ?? 'user';
      op.summary ??= humanise(op.operationId);
      op.description = [op.description, guardText(guard)].filter(Boolean).join('\n\n');
      op.security = guard === 'public' ? [] : [{ session: [] }, { accessKey: [] }];
      const codes = new Map<number, Set<string>>();
      const add = ([status, code]: [number, string]) => codes.set(status, (codes.get(status) ?? new Set()).add(code));
      guardErrors(guard, method).forEach(add);
      if (op.parameters?.length || op.requestBody) add([400, 'VALIDATION_FAILED']);
      (facts.errors[op.operationId] ?? []).forEach(add);
      add([500, 'INTERNAL_ERROR']);
      op.responses ??= {};
      for (const [status, r] of Object.entries(op.responses))
        if (r.description === 'Default Response') r.description = status === '204' ? 'Done; no content' : 'Success';
      for (const status of [...codes.keys()].sort((a, b) => a - b)) {
        const list = [...(codes.get(status) ?? [])].sort();
        op.responses[String(status)] = {
          description: `${STATUS_TEXT[status] ?? 'Error'}. Codes: ${list.map((c) => `\`${c}\``).join(', ')}`,
          ...(status === 429 || status === 503
            ? { headers: { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } } } }
            : {}),
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
          'x-error-codes': list,
        };
      }
    }
  const schemas = ((doc.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  for (const [id, schema] of Object.entries(schemas)) {
    const own = facts.descriptions[id];
    if (own?.description && !schema.description) schema.description = own.description;
    describeSchema(schema, own?.properties);
  }
  // parameters and inline bodies by field name too
  for (const item of Object.values(paths))
    for (const method of METHODS) {
      const op = item[method];
      for (const p of (op?.parameters ?? []) as Json[]) {
        const text = PROPERTY_TEXTS[p.name as string] ?? byPattern(p.name as string);
        if (!p.description && text) p.description = text;
      }
    }
  return doc;
}
