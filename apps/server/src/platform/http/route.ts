import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod, RouteShorthandOptions } from 'fastify';
import type { EndpointDef } from '@lamella/contracts';
import type { Static, TSchema } from 'typebox';
import type { Guard } from '../auth/guard.ts';

type Field<E, K extends string> = K extends keyof E ? (E[K] extends TSchema ? Static<E[K]> : unknown) : unknown;
type Answer<E extends EndpointDef> = E['response'] extends { 200: infer S extends TSchema }
  ? Static<S>
  : E['response'] extends { 201: infer S extends TSchema }
    ? Static<S>
    : unknown;

/** The request as the endpoint's schemas validated it. */
export type EndpointRequest<E extends EndpointDef> = FastifyRequest<{
  Params: Field<E, 'params'>;
  Querystring: Field<E, 'querystring'>;
  Body: Field<E, 'body'>;
}>;

export type EndpointHandler<E extends EndpointDef> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
) => Promise<Answer<E> | FastifyReply | void> | Answer<E> | FastifyReply | void;

export interface RouteOptions {
  /** Who may call (see guard.ts); required: a route without one cannot be registered. */
  auth: Guard;
  /** Extra Fastify options (bodyLimit, rate limits…). */
  fastify?: Pick<RouteShorthandOptions, 'bodyLimit'>;
}

/** Where a module registers its endpoints: the Fastify plugin instance it is given. */
export type RouteHost = FastifyInstance;

/**
 * Registers one contract endpoint: method and path, schemas (validation, fast serialisation that drops
 * undeclared fields, OpenAPI with operationId and named components), the guard, and the handler.
 */
export function route<E extends EndpointDef>(app: RouteHost, endpoint: E, options: RouteOptions, handler: EndpointHandler<E>): void {
  const { method, path, operationId, tags, summary, description, params, querystring, body, consumes, response, produces } = endpoint;
  app.route({
    method,
    url: path,
    ...options.fastify,
    // a multipart body is parsed by the handler (not validated by Fastify): kept for the OpenAPI document only
    config: { auth: options.auth, ...(body && consumes?.includes('multipart/form-data') ? { multipartBody: body } : {}) },
    schema: {
      operationId,
      tags: [...tags],
      ...(summary ? { summary } : {}),
      ...(description ? { description } : {}),
      ...(params ? { params } : {}),
      ...(querystring ? { querystring } : {}),
      ...(body && !consumes?.includes('multipart/form-data') ? { body } : {}),
      ...(consumes ? { consumes: [...consumes] } : {}),
      ...(produces ? { produces: [...produces] } : {}),
      response,
    },
    handler: handler as unknown as RouteHandlerMethod,
  });
}
