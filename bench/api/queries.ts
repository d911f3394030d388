/**
 * npx tsx bench/api/queries.ts — the SQL statements each hot call runs (PostgreSQL, one request each, seeded as
 * bench/api/server.ts seeds). A diagnostic printed next to bench:api: fewer round trips is most of the win.
 */
import pg from 'pg';
import { factories } from '../../apps/server/test/factories.ts';
import { startTestApp } from '../../apps/server/test/test-app.ts';

process.env.TEST_DATABASE_URL ||= process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/lamella_bench_api';
const seen: string[] = [];
let recording = false;
const original = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if (recording) {
    const q = args[0] as string | { text: string };
    seen.push((typeof q === 'string' ? q : q.text).replace(/\s+/g, ' ').slice(0, Number(process.env.QUERY_WIDTH ?? 160)));
  }
  return (original as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

const t = await startTestApp();
try {
  const f = factories(t);
  const user = await f.user();
  const image = await f.image(user);
  let jobId = '';
  for (let i = 0; i < 10; i++) jobId = (await f.job(user, { image })).id;
  const admin = await f.admin();
  for (const [who, path] of [
    [user, '/api/users/me'],
    [user, '/api/jobs'],
    [user, `/api/jobs/${jobId}`],
    [user, '/api/notifications'],
    [user, '/api/settings/available-models'],
    [admin, '/api/admin/jobs'],
  ] as const) {
    await who.client.get(path);
    seen.length = 0;
    recording = true;
    const res = await who.client.get(path);
    recording = false;
    console.log(`\n${path} → ${res.status}: ${seen.length} statements`);
    for (const q of seen) console.log(`  ${q}`);
  }
} finally {
  await t.close();
}
process.exit(0);
