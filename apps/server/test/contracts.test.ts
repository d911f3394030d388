import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { startTestApp, type TestApp } from './test-app.ts';
import { checkRoute } from '../src/platform/http/route-rules.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

describe('the API contract', () => {
  it('every API route has an operationId and named schemas for params, query, body and 2xx answers', () => {
    expect(t.app.contractDebt).toEqual([]);
  });

  it('the OpenAPI document names every operation and schema (no def-N)', async () => {
    const res = await t.client().get('/api/openapi.json');
    const doc = res.body as { paths: Record<string, Record<string, { operationId?: string }>>; components?: { schemas?: Record<string, unknown> } };
    const ops = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));
    expect(ops.length).toBeGreaterThan(100);
    expect(ops.filter((o) => !o.op.operationId).map((o) => `${o.method} ${o.path}`)).toEqual([]);
    const ids = ops.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(JSON.stringify(doc)).not.toMatch(/def-\d+/);
  });

  it('a route without config.auth cannot be registered (fails closed)', async () => {
    const app = Fastify();
    const debt: string[] = [];
    app.addHook('onRoute', (route) => checkRoute(route, debt));
    expect(() => app.get('/x', async () => 'open')).toThrow(/no config\.auth/);
    await app.close();
  });
});
