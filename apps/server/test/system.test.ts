import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('system', () => {
  it('reports health of database, storage and mail', async () => {
    const res = await t.client().get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', database: { ok: true }, storage: { ok: true, kind: 'disk' }, mail: { ok: true, kind: 'smtp' } });
    expect(['pglite', 'postgres']).toContain(res.body.database.kind);
  });

  it('reports degraded health with 503 when the mail server is gone', async () => {
    await t.mailbox.close();
    const res = await t.client().get('/api/health');
    expect(res.status).toBe(503);
    expect(res.body.mail.ok).toBe(false);
    expect(res.body.database.ok).toBe(true);
    // restart a mailbox is not needed by later tests in this file
  });

  it('serves the version and environment', async () => {
    const res = await t.client().get('/api/version');
    expect(res.body).toEqual({ version: '9.9.9-test', environment: 'testing' });
  });

  it('serves an OpenAPI 3 document generated from the route schemas, with named schemas', async () => {
    const res = await t.client().get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/api/auth/signin', '/api/users/me', '/api/access-keys', '/api/users/2fa/validate']),
    );
    expect(res.body.components.schemas).toHaveProperty('Me');
    const docs = await t.client().get('/api/docs/');
    expect(docs.status).toBe(200);
    expect(String(docs.body)).toContain('swagger');
  });

  it('serves translations in both languages and 404 for others', async () => {
    const en = await t.client().get('/api/languages/en');
    const de = await t.client().get('/api/languages/de');
    expect(en.body.auth.passwordValidator.length).toMatch(/12 characters/);
    expect(de.body.auth.passwordValidator.length).toMatch(/12 Zeichen/);
    expect((await t.client().get('/api/languages/fr')).status).toBe(404);
  });

  it('serves the terms per language', async () => {
    const de = await t.client().get('/api/terms/de');
    expect(de.body.content).toContain('Nutzungsbedingungen');
  });

  it('answers unknown API paths with the JSON error shape', async () => {
    const res = await t.client().get('/api/nope');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
  });

  it('requires a session for user calls', async () => {
    const res = await t.client().get('/api/users/me');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHENTICATED');
  });
});

describe('web app serving', () => {
  let w: TestApp;
  beforeAll(async () => {
    const { mkdtemp, mkdir, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dist = await mkdtemp(join(tmpdir(), 'lamella-web-'));
    await mkdir(join(dist, 'assets'));
    await writeFile(join(dist, 'index.html'), '<!doctype html><title>Lamella web</title>');
    await writeFile(join(dist, 'assets', 'app-1a2b.js'), 'console.log(1)');
    w = await startTestApp({ webDist: dist });
  });
  afterAll(() => w.close());

  it('serves the web app at / and at every client route, assets with long caching', async () => {
    for (const path of ['/', '/dashboard', '/auth/login?redirect=%2Fhistory', '/admin/jobs/123', '/models/grain-size']) {
      const res = await fetch(w.baseUrl + path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toContain('text/html');
      expect(await res.text(), path).toContain('Lamella web');
    }
    const asset = await fetch(w.baseUrl + '/assets/app-1a2b.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const api = await fetch(w.baseUrl + '/api/nothing-here');
    expect(api.status).toBe(404);
    expect(((await api.json()) as { code: string }).code).toBe('NOT_FOUND');
  });
});

describe('compression', () => {
  it('compresses text answers for clients that accept it, as the client asks', async () => {
    const { request } = await import('node:http');
    const raw = (path: string, encoding: string) =>
      new Promise<{ status: number; encoding: string | undefined; type: string | undefined }>((resolve, reject) => {
        const req = request(t.baseUrl + path, { headers: { 'accept-encoding': encoding } }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, encoding: res.headers['content-encoding'], type: res.headers['content-type'] }));
        });
        req.on('error', reject);
        req.end();
      });
    const doc = await raw('/api/openapi.json', 'br, gzip');
    expect(doc).toMatchObject({ status: 200, encoding: 'br' });
    expect((await raw('/api/openapi.json', 'gzip')).encoding).toBe('gzip');
    expect((await raw('/api/openapi.json', 'identity')).encoding).toBeUndefined();
  });
});
