/**
 * npx tsx bench/api/explain-history.ts — the plans and database times of the job list's statements for a user with
 * BENCH_API_HISTORY_JOBS jobs (default 100,000) on PostgreSQL (a scratch database), next to bench:api's history
 * phase: which index each sort uses, and what the page costs in the database alone.
 */
import { sql } from 'drizzle-orm';
import { factories } from '../../apps/server/test/factories.ts';
import { startTestApp } from '../../apps/server/test/test-app.ts';

process.env.TEST_DATABASE_URL ||= process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/lamella_bench_api';
const JOBS = Number(process.env.BENCH_API_HISTORY_JOBS ?? 100_000);
const t = await startTestApp();
try {
  const f = factories(t);
  const user = await f.user();
  const image = await f.image(user);
  const grain = await f.modelId('grain-size');
  await t.db
    .execute(sql`insert into jobs (owner_id, image_id, model_id, model_version, status, source, created_at, started_at, finished_at, archived, deleted)
    select ${user.id}::uuid, ${image.id}::uuid, ${grain}::uuid, '1',
      (case when g % 10 = 0 then 'FAILED' when g % 7 = 0 then 'CACHED' else 'FINISHED' end)::job_status, 'WEB',
      now() - (g * interval '10 minutes'), now() - (g * interval '10 minutes') + interval '1 second',
      now() - (g * interval '10 minutes') + interval '5 seconds', g % 20 = 0, g % 50 = 0
    from generate_series(1, ${JOBS}) g`);
  // as autovacuum leaves a table after a bulk insert (insert threshold): visibility map set, statistics fresh
  await t.db.execute(sql`vacuum analyze jobs`);
  const show = async (label: string, q: ReturnType<typeof sql>) => {
    const r = (await t.db.execute(sql`explain (analyze, buffers off, costs off) ${q}`)) as unknown as { rows: Array<Record<string, string>> };
    const lines = r.rows.map((x) => Object.values(x)[0]);
    console.log(`\n== ${label}\n${lines.filter((l) => /Index|Scan|Sort|Execution|Planning|Limit/.test(l)).join('\n')}`);
  };
  const page = (order: string, extra = sql``) =>
    sql`select p.id from jobs p where p.owner_id = ${user.id}::uuid and not p.deleted and p.archived = false
      and p.source not in ('SANDBOX', 'IDENTIFICATION') ${extra} order by ${sql.raw(order)} limit 11`;
  await show('first page, created desc', page('p.created_at desc, p.id desc'));
  await show('first page, finished desc', page('p.finished_at desc, p.id desc'));
  await show('first page, status asc', page('p.status asc, p.id asc'));
  await show('owner total', sql`select coalesce(sum(n), 0) from job_owner_totals where owner_id = ${user.id}::uuid and archived = false`);
  // the service as GET /jobs calls it (prepared statements, presented rows), 30 times each: ms per call
  const { listJobs } = await import('../../apps/server/src/modules/jobs/service.ts');
  const trips: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t0 = performance.now();
    await t.db.execute(sql`select 1`);
    trips.push(performance.now() - t0);
  }
  trips.sort((a, b) => a - b);
  console.log(`reference: one round trip (select 1): median ${trips[15].toFixed(1)} ms`);
  for (const q of [
    {},
    { sortBy: 'finishedAt' as const },
    { sortBy: 'status' as const, sortOrder: 'asc' as const },
    { pageSize: 100 },
    { name: 'sample' },
  ]) {
    const ms: number[] = [];
    for (let i = 0; i < 30; i++) {
      const t0 = performance.now();
      await listJobs(t.db, user.id, q, 'en');
      ms.push(performance.now() - t0);
    }
    ms.sort((a, b) => a - b);
    console.log(`listJobs ${JSON.stringify(q)}: median ${ms[15].toFixed(1)} ms, max ${ms[29].toFixed(1)} ms`);
  }
  await show(
    'old total: count over the history',
    sql`select count(*) from jobs where owner_id = ${user.id}::uuid and not deleted and not archived and source not in ('SANDBOX', 'IDENTIFICATION')`,
  );
} finally {
  await t.close();
}
process.exit(0);
