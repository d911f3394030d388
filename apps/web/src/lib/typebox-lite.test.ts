import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Type as TypeBox } from 'typebox';
import { describe, expect, it } from 'vitest';
import { Type } from './typebox-lite';

const contractsDir = fileURLToPath(new URL('../../../../packages/contracts/src/', import.meta.url));

describe('typebox-lite (the web build’s stand-in for TypeBox)', () => {
  it('has every builder the contracts call (a missing one would break the built app at start)', () => {
    const used = new Set<string>();
    for (const file of readdirSync(contractsDir).filter((f) => f.endsWith('.ts')))
      for (const m of readFileSync(contractsDir + file, 'utf8').matchAll(/\bType\.([A-Za-z]+)\b/g)) used.add(m[1]);
    expect([...used].filter((name) => !(name in Type))).toEqual([]);
  });

  it('builds the same JSON Schema as TypeBox', () => {
    // TypeBox called through the stand-in's signatures: the same calls on both
    const build = (T: typeof Type) =>
      T.Object(
        {
          id: T.String({ format: 'uuid' }),
          n: T.Optional(T.Integer({ minimum: 1, maximum: 100 })),
          kind: T.Union([T.Literal('a'), T.Literal(2), T.Null()]),
          items: T.Array(T.Number(), { maxItems: 3 }),
          flags: T.Record(T.String(), T.Boolean()),
          pair: T.Tuple([T.Number(), T.Number()]),
          any: T.Unknown(),
          raw: T.Unsafe({ type: 'string', format: 'binary' }),
        },
        { $id: 'Sample', additionalProperties: false },
      );
    expect(JSON.parse(JSON.stringify(build(Type)))).toEqual(JSON.parse(JSON.stringify(build(TypeBox as unknown as typeof Type))));
  });
});
