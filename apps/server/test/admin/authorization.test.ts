/**
 * The authorization matrix of the compute back-office (back-office.md §6): every call of the models registry,
 * servers and launchers, admin jobs and the admin sandbox, asked by anonymous, USER, EDITOR, POWER_USER without
 * and with JOB.READ or JOB.READ+JOB.WRITE, and ADMIN. ADMIN may do everything; JOB.READ opens the jobs pages for
 * reading (list, detail, reports); adding or deleting administrator feedback needs JOB.WRITE; everyone else is
 * refused (401 without a session, 403 with one). "Allowed" means the guard let the request through: the answer
 * is then the handler's (200, or 404 for the random ids used here, or 400 for an empty body) — never 401/403.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { privileges, users } from '../../src/platform/db/schema/index.ts';
import { ADMIN, startTestApp, type TestApp } from '../test-app.ts';
import type { HttpClient } from '../http-client.ts';

let t: TestApp;
type Persona = 'anonymous' | 'USER' | 'EDITOR' | 'POWER_USER' | 'POWER_USER+JOB.READ' | 'POWER_USER+JOB.WRITE' | 'ADMIN';
const clients = {} as Record<Persona, HttpClient>;

async function withRole(role: 'USER' | 'EDITOR' | 'POWER_USER', perms: string[] = []) {
  const u = await t.signupVerified();
  await t.db.update(users).set({ role }).where(eq(users.id, u.id));
  for (const p of perms) {
    const [resource, action] = p.split('.');
    await t.db.insert(privileges).values({ userId: u.id, resource, action });
  }
  // Sign in again: a role change ends the sessions (the new role applies at the next sign-in).
  return (await t.signin(u.email, u.password)).client;
}

beforeAll(async () => {
  t = await startTestApp();
  clients.anonymous = t.client();
  clients.USER = await withRole('USER');
  clients.EDITOR = await withRole('EDITOR');
  clients.POWER_USER = await withRole('POWER_USER', ['USER.READ']);
  clients['POWER_USER+JOB.READ'] = await withRole('POWER_USER', ['JOB.READ']);
  clients['POWER_USER+JOB.WRITE'] = await withRole('POWER_USER', ['JOB.READ', 'JOB.WRITE']);
  clients.ADMIN = (await t.signin(ADMIN.email, ADMIN.password)).client;
});
afterAll(() => t?.close());

/** STAFF: every staff role (ADMIN, POWER_USER with or without privileges, EDITOR). */
type Rule = 'ADMIN' | 'STAFF' | 'JOB.READ' | 'JOB.WRITE';
const id = randomUUID();
const calls: Array<[method: 'get' | 'post' | 'put' | 'delete', path: string, rule: Rule, body?: unknown]> = [
  // models registry
  ['get', '/api/admin/compute-models', 'ADMIN'],
  ['get', '/api/admin/compute-models/stats', 'ADMIN'],
  // the model short list feeds the Jobs page's Model filter of every staff role (issue 26 item 2)
  ['get', '/api/admin/compute-models/list', 'STAFF'],
  ['post', '/api/admin/compute-models', 'ADMIN', {}],
  ['put', `/api/admin/compute-models/${id}`, 'ADMIN', {}],
  ['delete', `/api/admin/compute-models/${id}`, 'ADMIN'],
  ['get', `/api/admin/compute-models/${id}/versions`, 'ADMIN'],
  ['get', `/api/admin/compute-models/${id}/access`, 'ADMIN'],
  ['post', `/api/admin/compute-models/${id}/access`, 'ADMIN', {}],
  ['delete', `/api/admin/compute-models/${id}/access/${randomUUID()}`, 'ADMIN'],
  ['get', `/api/admin/compute-models/${id}/example`, 'ADMIN'],
  ['put', `/api/admin/compute-models/${id}/example`, 'ADMIN', {}],
  ['get', `/api/admin/compute-models/${id}/manual/TOP/en`, 'ADMIN'],
  ['put', `/api/admin/compute-models/${id}/manual`, 'ADMIN', {}],
  // servers and launchers
  ['get', '/api/admin/nodes', 'ADMIN'],
  ['post', '/api/admin/nodes', 'ADMIN', {}],
  ['delete', `/api/admin/nodes/${id}`, 'ADMIN'],
  ['put', `/api/admin/nodes/${id}/start`, 'ADMIN'],
  ['put', `/api/admin/nodes/${id}/stop`, 'ADMIN'],
  ['post', '/api/admin/executors', 'ADMIN', {}],
  ['delete', `/api/admin/executors/${id}`, 'ADMIN'],
  ['post', `/api/admin/executors/${id}/test`, 'ADMIN'],
  ['get', '/api/admin/executors/versions', 'ADMIN'],
  ['put', '/api/admin/executors', 'ADMIN', {}],
  // jobs
  ['get', '/api/admin/jobs', 'JOB.READ'],
  ['get', '/api/admin/jobs/report', 'JOB.READ'],
  ['get', '/api/admin/jobs/masks-report', 'JOB.READ'],
  ['get', `/api/admin/jobs/${id}`, 'JOB.READ'],
  ['post', `/api/admin/jobs/${id}/feedback`, 'JOB.WRITE', {}],
  ['delete', `/api/admin/feedback/admin/${id}`, 'JOB.WRITE'],
];

function expected(persona: Persona, rule: Rule): 'unauthenticated' | 'forbidden' | 'allowed' {
  if (persona === 'anonymous') return 'unauthenticated';
  if (persona === 'ADMIN') return 'allowed';
  if (rule === 'STAFF') return persona === 'USER' ? 'forbidden' : 'allowed';
  if (rule === 'JOB.READ' && (persona === 'POWER_USER+JOB.READ' || persona === 'POWER_USER+JOB.WRITE')) return 'allowed';
  if (rule === 'JOB.WRITE' && persona === 'POWER_USER+JOB.WRITE') return 'allowed';
  return 'forbidden';
}

describe('compute back-office authorization matrix', () => {
  const personas: Persona[] = ['anonymous', 'USER', 'EDITOR', 'POWER_USER', 'POWER_USER+JOB.READ', 'POWER_USER+JOB.WRITE', 'ADMIN'];
  for (const persona of personas) {
    it(`answers ${persona} per the matrix on every call`, async () => {
      const wrong: string[] = [];
      for (const [method, path, rule, body] of calls) {
        const c = clients[persona];
        const res = method === 'get' || method === 'delete' ? await c[method](path) : await c[method](path, body);
        const want = expected(persona, rule);
        const got = res.status === 401 ? 'unauthenticated' : res.status === 403 ? 'forbidden' : 'allowed';
        if (got !== want || res.status >= 500) wrong.push(`${method.toUpperCase()} ${path}: ${res.status} (want ${want})`);
      }
      expect(wrong).toEqual([]);
    });
  }

  it('lets only ADMIN use the admin sandbox (params identification and versions)', async () => {
    const body = { imageId: randomUUID(), modelsIds: [randomUUID()], versions: ['20241025', '20250101'] };
    expect((await clients.anonymous.post('/api/sandbox', body)).status).toBe(401);
    for (const p of ['USER', 'EDITOR', 'POWER_USER', 'POWER_USER+JOB.READ', 'POWER_USER+JOB.WRITE'] as const) {
      expect((await clients[p].post('/api/sandbox', body)).status, p).toBe(403);
      expect(
        (await clients[p].post('/api/sandbox', { ...body, versions: null, params: { variables: [{ key: 'threshold', vals: ['1', '2'] }] } })).status,
        p,
      ).toBe(403);
    }
    // ADMIN passes the guard: the unknown image is then a 404, not a refusal.
    expect((await clients.ADMIN.post('/api/sandbox', body)).status).toBe(404);
  });

  it('answers the user-side manual and example calls for signed-in users only', async () => {
    const [model] = (await clients.ADMIN.get('/api/admin/compute-models/list')).body as Array<{ id: string }>;
    expect((await clients.anonymous.get(`/api/models/${model.id}/manual/TOP/en`)).status).toBe(401);
    expect((await clients.anonymous.get(`/api/models/${model.id}/example`)).status).toBe(401);
    expect((await clients.USER.get(`/api/models/${model.id}/manual/TOP/en`)).status).toBe(200);
    expect((await clients.USER.get(`/api/models/${model.id}/example`)).status).toBe(200);
  });
});
