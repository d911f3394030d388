/**
 * The web build's stand-in for `typebox` (vite.config.ts aliases it for `vite build` only): the contracts' schema
 * builders as plain JSON Schema objects, a few hundred bytes instead of TypeBox's ~120 kB. The web app reads the
 * contracts' endpoints (method, path) and constants and takes its types from them; it never validates with the
 * schemas, so the same JSON Schema shape is all it needs (the server and the tests use TypeBox itself).
 * Only the builders the contracts call exist here: typebox-lite.test.ts fails when a contract calls another one, or
 * when a builder's JSON Schema differs from TypeBox's.
 */
type Schema = Record<string, unknown>;
type Options = Record<string, unknown>;

const OPTIONAL = Symbol('optional');
const isOptional = (s: Schema) => (s as { [OPTIONAL]?: boolean })[OPTIONAL] === true;

function Optional(schema: Schema): Schema {
  const out = { ...schema };
  Object.defineProperty(out, OPTIONAL, { value: true, enumerable: false });
  return out;
}

function Object_(properties: Record<string, Schema>, options: Options = {}): Schema {
  const required = Object.keys(properties).filter((k) => !isOptional(properties[k]));
  return { type: 'object', ...(required.length ? { required } : {}), properties, ...options };
}

export const Type = {
  String: (options: Options = {}): Schema => ({ type: 'string', ...options }),
  Number: (options: Options = {}): Schema => ({ type: 'number', ...options }),
  Integer: (options: Options = {}): Schema => ({ type: 'integer', ...options }),
  Boolean: (options: Options = {}): Schema => ({ type: 'boolean', ...options }),
  Null: (options: Options = {}): Schema => ({ type: 'null', ...options }),
  Unknown: (options: Options = {}): Schema => ({ ...options }),
  Unsafe: (schema: Schema = {}): Schema => ({ ...schema }),
  Literal: (value: string | number | boolean, options: Options = {}): Schema => ({ type: typeof value, const: value, ...options }),
  Union: (anyOf: Schema[], options: Options = {}): Schema => ({ anyOf, ...options }),
  Array: (items: Schema, options: Options = {}): Schema => ({ type: 'array', items, ...options }),
  Tuple: (items: Schema[], options: Options = {}): Schema => ({
    type: 'array',
    additionalItems: false,
    items,
    minItems: items.length,
    ...options,
  }),
  Record: (_key: Schema, value: Schema, options: Options = {}): Schema => ({ type: 'object', patternProperties: { '^.*$': value }, ...options }),
  Object: Object_,
  Optional,
};
