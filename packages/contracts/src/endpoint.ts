import type { Static, TSchema } from 'typebox';

/**
 * One API operation, declared once and used by both sides: the server registers it (`route()` in
 * apps/server/src/platform/http/route.ts: validation, serialisation, OpenAPI), the web app calls it
 * (`call()` in apps/web/src/api/client.ts: path, query, body and answer typed from the same schemas).
 * Every schema here carries an `$id`, so the OpenAPI document names it.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface EndpointDef {
  method: HttpMethod;
  /** Fastify-style path below /api, e.g. `/jobs/:id`. */
  path: string;
  /** Unique, camelCase; the OpenAPI operationId. */
  operationId: string;
  tags: readonly string[];
  summary?: string;
  description?: string;
  params?: TSchema;
  querystring?: TSchema;
  /** JSON body; for `multipart/form-data` set `consumes` and describe the parts in `body`. */
  body?: TSchema;
  consumes?: readonly string[];
  /** Successful answers by status (2xx). Files: `FileDownload` with `produces`. */
  response: { [status: number]: TSchema };
  produces?: readonly string[];
}

/** Declares an endpoint, keeping its literal types (method, path, schemas). */
export function endpoint<const E extends EndpointDef>(e: E): E {
  return e;
}

type Field<E, K extends string> = K extends keyof E ? (E[K] extends TSchema ? E[K] : never) : never;

export type EndpointParams<E extends EndpointDef> = [Field<E, 'params'>] extends [never] ? never : Static<Field<E, 'params'>>;
export type EndpointQuery<E extends EndpointDef> = [Field<E, 'querystring'>] extends [never] ? never : Static<Field<E, 'querystring'>>;
export type EndpointBody<E extends EndpointDef> = [Field<E, 'body'>] extends [never] ? never : Static<Field<E, 'body'>>;

type Success<E extends EndpointDef> = E['response'] extends { 200: infer S }
  ? S
  : E['response'] extends { 201: infer S }
    ? S
    : E['response'] extends { 204: infer S }
      ? S
      : never;
/** The JSON answer of a successful call (`void` for none). */
export type EndpointResult<E extends EndpointDef> = Success<E> extends TSchema ? Static<Success<E>> : void;
