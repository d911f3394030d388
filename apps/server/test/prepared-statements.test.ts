import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { jobs } from '../src/platform/db/schema/index.ts';
import { presentJobsByIds } from '../src/modules/jobs/service.ts';
import { jobsApi, notificationsApi, type Job } from '@lamella/contracts';
import { literal, preparedStatement, runNamed } from '../src/platform/db/prepared.ts';
import { factories, type Factories } from './factories.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * Issue 15 item 1, hot paths: statements of the hot calls are prepared once (platform/db/prepared.ts; on PGlite a
 * SQL PREPARE run with literal values) and the jobs list, a job and the notifications panel are one statement each.
 */
let t: TestApp;
let f: Factories;
beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
});
afterAll(() => t?.close());

describe('prepared statements', () => {
  const echo = preparedStatement<{ s: string; n: number; b: boolean; ids: string[] }>(
    'lamella_test_echo',
    () =>
      sql`select ${sql.placeholder('s')}::text as s, ${sql.placeholder('n')}::int as n, ${sql.placeholder('b')}::boolean as b,
        ${sql.placeholder('ids')}::uuid[]::text[] as ids`,
  );
  const ids = ['7c0f8a3e-4d55-4e9b-9f3a-0a1b2c3d4e5f', '00000000-0000-4000-8000-000000000000'];

  it('answers the values given, quotes and backslashes included, run after run', async () => {
    for (const s of ["O'Brien", "'); drop table jobs; --", 'back\\slash "quoted"', '']) {
      expect(await echo(t.db, { s, n: 42, b: true, ids })).toEqual([{ s, n: 42, b: true, ids }]);
    }
    expect(((await t.db.execute(sql`select count(*)::int as n from jobs`)) as unknown as { rows: unknown[] }).rows).toHaveLength(1);
  });

  // PGlite's PREPARE is ours to redo; node-postgres keeps its own record of a connection's statements.
  it('prepares again after the statements were deallocated (PGlite)', async () => {
    if (t.database.kind !== 'pglite') return;
    await echo(t.db, { s: 'a', n: 1, b: false, ids: [] });
    await t.db.execute(sql`deallocate all`);
    expect(await echo(t.db, { s: 'b', n: 2, b: false, ids: [] })).toEqual([{ s: 'b', n: 2, b: false, ids: [] }]);
    expect(await runNamed(t.db, sql`select ${'x'}::text as v`)).toEqual([{ v: 'x' }]);
  });

  it('writes literals only for strings, finite numbers, booleans, null and string arrays', () => {
    expect(literal("it's")).toBe("'it''s'");
    expect(literal(['a"b', 'c\\d'])).toBe(`'{"a\\"b","c\\\\d"}'`);
    expect(literal(null)).toBe('null');
    expect(() => literal(Number.NaN)).toThrow();
    expect(() => literal({})).toThrow();
    expect(() => literal([1])).toThrow();
  });
});

describe('hot calls', () => {
  it('a job reads the same in the list, alone and as created; another user and a deleted job are 404', async () => {
    const u = await f.user();
    const image = await f.image(u);
    const created = await f.job(u, { image });
    const list = (await u.client.call(jobsApi.list, { query: {} })).body as Job[];
    const one = (await u.client.call(jobsApi.get, { params: { id: created.id } })).body as Job;
    expect(list).toEqual([one]);
    expect(one).toEqual({ ...created, createdAt: one.createdAt });
    expect(one.createdAt).toBe(created.createdAt);
    const other = await f.user();
    expect((await other.client.call(jobsApi.get, { params: { id: created.id } })).status).toBe(404);
    expect((await u.client.post('/api/jobs/delete', { jobsIds: [created.id] })).status).toBeLessThan(300);
    expect((await u.client.call(jobsApi.get, { params: { id: created.id } })).status).toBe(404);
  });

  it('the notifications panel lists newest first in the wire shape', async () => {
    const u = await f.user();
    const res = await u.client.call(notificationsApi.list, {});
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
  });
});

describe('jobs by id for another domain (presentJobsByIds: a project report)', () => {
  it("answers the ids' order in one read, and leaves unknown ids and deleted jobs out", async () => {
    const u = await f.user();
    const image = await f.image(u);
    const [a, b, c] = [await f.job(u, { image }), await f.job(u, { image, model: 'porosity' }), await f.job(u, { image })];
    await t.db.update(jobs).set({ deleted: true }).where(eq(jobs.id, b.id));
    const unknown = '00000000-0000-4000-8000-000000000000';
    const shown = await presentJobsByIds(t.db, [c.id, unknown, b.id, a.id]);
    expect(shown.map((j) => j.id)).toEqual([c.id, a.id]);
    expect(shown[1]).toEqual(a);
  });
});
