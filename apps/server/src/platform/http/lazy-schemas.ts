import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

/**
 * Route schemas compiled when first used instead of before the server listens (issue 30 item 5): Fastify compiles
 * every route's validators (Ajv) and response serializers (fast-json-stringify) while it gets ready, about a third
 * of `npm start`'s time to ready. The compilers are Fastify's own defaults with the same options, each wrapped so
 * that a route's schema is compiled at its first request (or by `warm()`, which `npm start` runs once listening,
 * a route per turn of the event loop, so a schema that does not compile is still reported right after the start).
 * Validation and serialization are the same; only when they are compiled changes.
 */
type Validate = ((data: unknown) => unknown) & { errors?: unknown };
type Serialize = (data: unknown) => string;
type ValidatorBuilder = (externalSchemas: unknown, options: unknown) => (route: unknown) => Validate;
type SerializerBuilder = (externalSchemas: unknown, options: unknown) => (route: unknown) => Serialize;

// Fastify's own copies of its default compilers (what it would load itself)
const fastifyRequire = createRequire(createRequire(import.meta.url).resolve('fastify'));
const AjvCompiler = fastifyRequire('@fastify/ajv-compiler') as () => ValidatorBuilder;
const SerializerSelector = fastifyRequire('@fastify/fast-json-stringify-compiler') as () => SerializerBuilder;

export interface LazySchemas {
  /** Fastify's `schemaController` option. */
  schemaController: NonNullable<FastifyServerOptions['schemaController']>;
  /** Compiles what no request has compiled yet, one schema per turn of the event loop; rejects on the first failure. */
  warm(): Promise<number>;
}

export function lazySchemas(): LazySchemas {
  const pending = new Set<() => unknown>();
  const buildValidator = AjvCompiler();
  const buildSerializer = SerializerSelector();
  const compilersFactory: { buildValidator: ValidatorBuilder; buildSerializer: SerializerBuilder } = {
    buildValidator: (externalSchemas, options) => {
      const compile = buildValidator(externalSchemas, options);
      return (route) => {
        // Fastify lowercases a header schema's names for its own compiler only: here they must be lowercase
        const r = route as { httpPart?: string; schema?: { properties?: object }; method?: string; url?: string };
        const upper = r.httpPart === 'headers' && Object.keys(r.schema?.properties ?? {}).find((k) => k !== k.toLowerCase());
        if (upper) throw new Error(`${r.method} ${r.url}: header "${upper}" in its schema must be written in lower case (lazy-schemas.ts)`);
        let fn: Validate | null = null;
        const get = () => (fn ??= compile(route));
        pending.add(get);
        const validate: Validate = (data) => get()(data);
        // Fastify reads the errors of the last call from the function
        Object.defineProperty(validate, 'errors', { get: () => fn?.errors });
        return validate;
      };
    },
    buildSerializer: (externalSchemas, options) => {
      const compile = buildSerializer(externalSchemas, options);
      return (route) => {
        let fn: Serialize | null = null;
        const get = () => (fn ??= compile(route));
        pending.add(get);
        return (data) => get()(data);
      };
    },
  };
  return {
    // typed as Fastify's option wants it (Ajv's whole function); Fastify calls the function and reads its `errors`
    schemaController: { compilersFactory } as unknown as LazySchemas['schemaController'],
    async warm() {
      let n = 0;
      for (const get of pending) {
        await new Promise((r) => setImmediate(r));
        get();
        pending.delete(get);
        n++;
      }
      return n;
    },
  };
}
