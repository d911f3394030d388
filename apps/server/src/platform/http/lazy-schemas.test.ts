import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazySchemas } from './lazy-schemas.ts';

const options = { ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array' as const, allErrors: true } } };
const schema = {
  querystring: { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, additionalProperties: false },
  body: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 2 } } },
  response: { 200: { type: 'object', properties: { name: { type: 'string' }, n: { type: 'integer' } } } },
};

async function app(lazy: ReturnType<typeof lazySchemas> | null) {
  const app = Fastify({ ...options, ...(lazy ? { schemaController: lazy.schemaController } : {}) });
  app.post('/echo', { schema }, async (request) => ({ ...(request.body as object), n: (request.query as { n?: number }).n, secret: 'x' }));
  await app.ready();
  return app;
}

describe('lazy route schemas (npm start)', () => {
  it('validate and serialize as Fastify’s own compilers do, compiling at the first request', async () => {
    const lazy = lazySchemas();
    const [eager, late] = [await app(null), await app(lazy)];
    const requests = [
      { method: 'POST' as const, url: '/echo?n=3', payload: { name: 'Ada', extra: 1 } },
      { method: 'POST' as const, url: '/echo?n=0', payload: { name: 'A' } },
      { method: 'POST' as const, url: '/echo?m=1', payload: {} },
    ];
    for (const r of requests) {
      const [a, b] = [await eager.inject(r), await late.inject(r)];
      expect(b.statusCode).toBe(a.statusCode);
      expect(b.json()).toEqual(a.json());
    }
    expect((await late.inject(requests[0])).json()).toEqual({ name: 'Ada', n: 3 });
    await Promise.all([eager.close(), late.close()]);
  });

  it('warm() compiles every schema no request has used yet', async () => {
    const lazy = lazySchemas();
    const late = await app(lazy);
    expect(await lazy.warm()).toBe(3); // querystring, body, response 200
    expect(await lazy.warm()).toBe(0);
    await late.close();
  });

  it('refuses a header schema with capital letters (Fastify lowercases them only for its own compiler)', async () => {
    const late = Fastify({ ...options, schemaController: lazySchemas().schemaController });
    late.get('/h', { schema: { headers: { type: 'object', properties: { 'X-Token': { type: 'string' } } } } }, async () => 'ok');
    await expect(late.ready()).rejects.toThrow(/X-Token.*lower case/);
  });
});
