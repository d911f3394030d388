import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { startTestApp, type TestApp } from './test-app.ts';

/** The API document as a product (issue 27 item 1): committed, complete, and what the server serves. */
type Json = Record<string, unknown>;
type Op = { operationId: string; summary?: string; description?: string; security?: unknown[]; responses: Record<string, Json>; requestBody?: Json };

let t: TestApp;
let doc: { info: { version: string }; paths: Record<string, Record<string, Op>>; components: { schemas: Record<string, Json> } };
let ops: Array<{ path: string; method: string; op: Op }>;
beforeAll(async () => {
  t = await startTestApp();
  doc = (await t.client().get('/api/openapi.json')).body;
  ops = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));
});
afterAll(() => t?.close());

describe('the OpenAPI document', () => {
  it('is the committed apps/server/openapi.json (run `npm run openapi:update` after changing the API)', () => {
    const committed = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));
    expect(doc).toEqual(committed);
  });

  it('gives every operation a summary, its security and its error answers with the ApiError schema and codes', () => {
    expect(ops.length).toBeGreaterThan(200);
    for (const { path, method, op } of ops) {
      const where = `${method} ${path}`;
      expect(op.summary, where).toBeTruthy();
      expect(Array.isArray(op.security), where).toBe(true);
      const errors = Object.entries(op.responses).filter(([s]) => Number(s) >= 400);
      expect(errors.length, where).toBeGreaterThan(0);
      for (const [status, r] of errors) {
        // an error answer the contract declares with its own body (the health check's 503) keeps it
        if (!r['x-error-codes']) {
          expect(r.content, `${where} ${status}`).toBeTruthy();
          continue;
        }
        expect((r.content as Json)['application/json'], `${where} ${status}`).toEqual({ schema: { $ref: '#/components/schemas/ApiError' } });
        expect((r['x-error-codes'] as string[]).length, `${where} ${status}`).toBeGreaterThan(0);
      }
      expect(op.responses['500']['x-error-codes'], where).toContain('INTERNAL_ERROR');
    }
  });

  it('marks public routes, names the roles of guarded ones, and lists the codes a handler throws', () => {
    const byId = new Map(ops.map((o) => [o.op.operationId, o.op]));
    const signIn = [...byId.values()].find((o) => o.security?.length === 0 && /sign|login/i.test(o.operationId));
    expect(signIn?.description).toMatch(/^Public|Public: no authentication/m);
    const createKey = byId.get('createAccessKey')!;
    expect(createKey.security).toEqual([{ session: [] }, { accessKey: [] }]);
    expect(createKey.responses['403']['x-error-codes']).toContain('ACCESS_KEY_CANNOT_CREATE_KEYS');
    expect(createKey.responses['400']['x-error-codes']).toContain('VALIDATION_FAILED');
    expect(createKey.responses['429'].headers).toHaveProperty('Retry-After');
    const admin = ops.find((o) => /Roles: ADMIN/.test(o.op.description ?? ''));
    expect(admin?.op.responses['403']['x-error-codes']).toContain('FORBIDDEN');
    expect(byId.get('deleteAccessKey')!.responses['404']['x-error-codes']).toEqual(['NOT_FOUND']);
  });

  it('describes the multipart image upload (files and fields) so a generated client can upload', () => {
    const upload = ops.find((o) => o.op.operationId === 'uploadImages')!.op;
    const content = (upload.requestBody as { content: Record<string, { schema: { $ref: string } }> }).content;
    expect(Object.keys(content)).toEqual(['multipart/form-data']);
    const body = doc.components.schemas[content['multipart/form-data'].schema.$ref.split('/').pop()!] as { properties: Record<string, Json> };
    expect(body.properties.files).toMatchObject({ type: 'array', items: { type: 'string', format: 'binary' } });
    expect(body.properties.pixelSizeUm).toHaveProperty('description');
  });

  it('describes most properties (doc comments of the contracts, then common field names)', () => {
    let total = 0;
    let described = 0;
    const walk = (s: unknown): void => {
      if (Array.isArray(s)) return s.forEach(walk);
      if (!s || typeof s !== 'object') return;
      for (const p of Object.values(((s as Json).properties ?? {}) as Record<string, Json>)) {
        total += 1;
        if (p.description) described += 1;
      }
      Object.values(s).forEach(walk);
    };
    walk(doc.components.schemas);
    expect(described / total).toBeGreaterThan(0.75);
  });
});
