import type { FastifySchema, RouteOptions } from 'fastify';
import type { OpenAPIV3_1 } from 'openapi-types';

const methods = (m: RouteOptions['method']) => (Array.isArray(m) ? m : [m]);
const named = (schema: unknown) => typeof schema === 'object' && schema !== null && typeof (schema as { $id?: unknown }).$id === 'string';

/**
 * What an API route owes the contract (ARCHITECTURE.md "Contracts"): an operationId, and a named schema
 * (`$id`, from packages/contracts) for its params, query, body and every 2xx answer.
 */
export function contractViolations(route: RouteOptions): string[] {
  const where = `${methods(route.method).join(',')} ${route.url}`;
  const schema = (route.schema ?? {}) as Record<string, unknown> & { response?: Record<string, unknown> };
  const out: string[] = [];
  if (!schema.operationId) out.push(`${where}: no operationId`);
  for (const part of ['params', 'querystring', 'body'] as const) {
    if (schema[part] !== undefined && !named(schema[part])) out.push(`${where}: ${part} schema has no $id`);
  }
  const success = Object.entries(schema.response ?? {}).filter(([status]) => status.startsWith('2'));
  if (!success.length) out.push(`${where}: no 2xx response schema`);
  for (const [status, s] of success) if (!named(s)) out.push(`${where}: response ${status} schema has no $id`);
  return out;
}

/**
 * Fails closed: an API route registered without `config.auth` is a startup error, never a public route.
 * Contract violations are collected (see contractViolations) for the contract test and startup log.
 */
export function checkRoute(route: RouteOptions, violations: string[]): void {
  if (route.method === 'HEAD' || (Array.isArray(route.method) && route.method.every((m) => m === 'HEAD'))) return;
  const auth = (route.config as { auth?: unknown } | undefined)?.auth;
  if (!auth) throw new Error(`Route ${methods(route.method).join(',')} ${route.url} has no config.auth: every API route declares who may call it`);
  violations.push(...contractViolations(route));
}

const idOf = (schema: unknown): string | null => (named(schema) ? (schema as { $id: string }).$id : null);

/** Replaces every nested named schema by a reference to its component, collecting it in `components`. */
function toComponent(schema: unknown, components: Record<string, unknown>, top = false): unknown {
  if (Array.isArray(schema)) return schema.map((x) => toComponent(x, components));
  if (!schema || typeof schema !== 'object') return schema;
  const id = idOf(schema);
  const { $id: _drop, ...rest } = schema as Record<string, unknown>;
  const body = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, toComponent(v, components)]));
  if (!id || top) return body;
  if (!(id in components)) {
    components[id] = {};
    components[id] = body;
  }
  return { $ref: `#/components/schemas/${id}` };
}

/**
 * OpenAPI naming: a route's named body and 2xx answers (and every named schema inside them) appear once
 * under components.schemas and are referred to by name. Document-only: validation and serialisation use the
 * schemas as they are. Returns swagger's `transform` and `transformObject` for one app.
 */
const sortKeys = <T>(o: Record<string, T>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));

export function openApiNaming(complete?: (doc: Record<string, unknown>) => void) {
  const components: Record<string, unknown> = {};
  const ref = (x: unknown) => (idOf(x) && idOf(x) !== 'NoContent' ? toComponent(x, components) : x);
  return {
    transform({ schema, url, route }: { schema: FastifySchema; url: string; route?: RouteOptions }): { schema: FastifySchema; url: string } {
      if (!schema) return { schema, url };
      const multipart = (route?.config as { multipartBody?: unknown } | undefined)?.multipartBody;
      const s = (multipart ? { ...schema, body: multipart } : schema) as FastifySchema & { response?: Record<string, unknown> };
      const response = s.response ? Object.fromEntries(Object.entries(s.response).map(([k, v]) => [k, k.startsWith('2') ? ref(v) : v])) : undefined;
      return { schema: { ...s, ...(s.body ? { body: ref(s.body) } : {}), ...(response ? { response } : {}) }, url };
    },
    transformObject(document: { openapiObject: object } | { swaggerObject: object }): Partial<OpenAPIV3_1.Document> {
      if (!('openapiObject' in document)) return document.swaggerObject as Partial<OpenAPIV3_1.Document>;
      const doc = document.openapiObject as { components?: { schemas?: Record<string, unknown> } };
      doc.components = { ...doc.components, schemas: sortKeys({ ...doc.components?.schemas, ...components }) };
      complete?.(doc as Record<string, unknown>);
      return document.openapiObject as Partial<OpenAPIV3_1.Document>;
    },
  };
}
