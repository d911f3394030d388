import type { FastifyInstance, FastifyRequest } from 'fastify';
import { validationFailed, type ErrorDetail } from './errors.ts';

/** The largest integer a schema field without its own `maximum` accepts: PostgreSQL's integer (int4). */
const INT4_MAX = 2_147_483_647;

type Schema = {
  type?: string | string[];
  maximum?: number;
  minimum?: number;
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  patternProperties?: Record<string, Schema>;
  items?: Schema | Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};

const typesOf = (s: Schema | undefined): string[] => (s?.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type]);

/** The branches of a schema that may describe `value` (unions are tried branch by branch). */
function branches(schema: Schema | undefined): Schema[] {
  if (!schema) return [];
  const alts = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  return alts.length ? alts.flatMap(branches) : [schema];
}

function childSchema(schemas: Schema[], key: string | number): Schema[] {
  const out: Schema[] = [];
  for (const s of schemas) {
    if (typeof key === 'number') {
      if (Array.isArray(s.items)) out.push(...branches(s.items[key]));
      else if (s.items) out.push(...branches(s.items));
    } else if (s.properties?.[key]) out.push(...branches(s.properties[key]));
    else if (s.patternProperties) for (const p of Object.values(s.patternProperties)) out.push(...branches(p));
    else if (typeof s.additionalProperties === 'object') out.push(...branches(s.additionalProperties));
  }
  return out;
}

/**
 * Walks a validated value beside its schema: a text with a NUL character (PostgreSQL cannot store one), an integer
 * outside the safe range or, without the schema's own maximum, outside PostgreSQL's integer, and a number that is
 * not finite each name their field.
 */
function inspect(value: unknown, schemas: Schema[], path: string[], out: ErrorDetail[]): void {
  const field = path.join('.') || 'body';
  if (typeof value === 'string') {
    if (value.includes('\u0000')) out.push({ field, key: 'errors.nulCharacter' });
    return;
  }
  if (typeof value === 'number') {
    const integer = schemas.find((s) => typesOf(s).includes('integer'));
    if (!Number.isFinite(value)) out.push({ field, key: 'errors.numberOutOfRange' });
    else if (integer) {
      const max = integer.maximum ?? INT4_MAX;
      const min = integer.minimum ?? -INT4_MAX - 1;
      if (!Number.isSafeInteger(value) || value > max || value < min) out.push({ field, key: 'errors.numberOutOfRange' });
    }
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((v, i) => inspect(v, childSchema(schemas, i), [...path, String(i)], out));
    return;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) inspect(v, childSchema(schemas, k), [...path, k], out);
  }
}

/** Field names as the validation error handler writes them: body fields bare, others under their part. */
function check(request: FastifyRequest): ErrorDetail[] {
  const schema = (request.routeOptions.schema ?? {}) as Record<string, Schema | undefined>;
  const out: ErrorDetail[] = [];
  inspect(request.query, branches(schema.querystring), ['querystring'], out);
  inspect(request.params, branches(schema.params), ['params'], out);
  if (request.body !== undefined && !request.isMultipart()) inspect(request.body, branches(schema.body), [], out);
  return out;
}

/**
 * Input the schemas let through but the database cannot take answers 400 VALIDATION_FAILED naming the field, not 500
 * (issue 28 item 9): NUL characters in texts (`\u0000`), and numbers like `page=1e309` or `99999999999999999999`.
 * Runs after validation (and type coercion) on every API route.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    if (!request.routeOptions.config?.auth) return;
    const problems = check(request);
    if (problems.length) throw validationFailed(problems);
  });
}
