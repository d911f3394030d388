/**
 * Test support (never imported by the app): every endpoint of packages/contracts, and values their path and query
 * schemas accept, chosen to be as awkward for a URL as the schemas allow. Used by url.test.ts and by the server's
 * apps/server/test/url-builder.test.ts, which sends the built URLs through Fastify's own parser and validation.
 */
import * as contracts from '@lamella/contracts';
import type { EndpointDef } from '@lamella/contracts';

/** Every endpoint declared in packages/contracts, named `group.key`. */
export const endpoints: [string, EndpointDef][] = Object.entries(contracts).flatMap(([group, value]) =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.entries(value as Record<string, unknown>)
        .filter((e): e is [string, EndpointDef] => {
          const v = e[1] as Partial<EndpointDef> | null;
          return !!v && typeof v === 'object' && typeof v.method === 'string' && typeof v.path === 'string' && typeof v.operationId === 'string';
        })
        .map(([key, ep]) => [`${group}.${key}`, ep] as [string, EndpointDef])
    : [],
);

export interface Schema {
  type?: string | string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  const?: unknown;
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  format?: string;
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  pattern?: string;
}

/** Characters that break a hand-built URL: separators of the query and the path, `+`, `%`, `#`, non-ASCII. */
const NASTY = 'a b&c=d?e#f/g+h%i,é[]';
export const UUIDS = ['0b6c3f1e-2d4a-4c8e-9f10-1a2b3c4d5e6f', 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b'];

/** A value the schema accepts, as awkward for a URL as the schema allows (variant n for array items). */
export function sample(schema: Schema, n = 0): string | number | boolean | (string | number | boolean)[] | undefined {
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) {
    const usable = variants.filter((v) => v.type !== 'null' && v.type !== 'object');
    // Prefer the array form where a union offers one (it is the shape the builder must get right).
    const array = usable.find((v) => v.type === 'array');
    return sample(array ?? usable[0], n);
  }
  if (schema.const !== undefined) return schema.const as string;
  if (schema.enum) return schema.enum[0] as string;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'array': {
      const count = Math.min(2, schema.maxItems ?? 2);
      return Array.from({ length: count }, (_, i) => sample(schema.items ?? {}, i) as string | number | boolean);
    }
    case 'integer':
    case 'number':
      return Math.min(Math.max(schema.minimum ?? 0, 3 + n), schema.maximum ?? Number.MAX_SAFE_INTEGER);
    case 'boolean':
      return true;
    case 'string': {
      if (schema.format === 'uuid') return UUIDS[n % 2];
      if (schema.format === 'date') return '2026-11-26';
      if (schema.format === 'date-time') return '2026-11-26T13:45:00.000Z';
      if (schema.format === 'email') return `someone+${n}@example.com`;
      const text = `${n}${NASTY}`;
      const fitted = text.slice(0, Math.max(schema.minLength ?? 1, Math.min(text.length, schema.maxLength ?? text.length)));
      if (!schema.pattern) return fitted;
      // A pattern: the awkward text where it passes, else the first plain value that does (a day, a file name).
      const re = new RegExp(schema.pattern);
      return [fitted, '2026-11-26', `grain-${n}.png`, `result.${n}.json`, `value${n}`].find((v) => re.test(v)) ?? fitted;
    }
    default:
      return undefined; // objects in a query string: no endpoint declares one
  }
}

export function sampleObject(schema: Schema | undefined): Record<string, ReturnType<typeof sample>> | undefined {
  if (!schema?.properties) return undefined;
  const out: Record<string, ReturnType<typeof sample>> = {};
  for (const [k, s] of Object.entries(schema.properties)) {
    const v = sample(s);
    if (v !== undefined) out[k] = v;
  }
  return out;
}
