/**
 * The Lamella server for bench/api/run.ts, in its own process so the load generator does not share its event loop:
 * the real app as the tests build it (startTestApp: buildApp + bootstrap, no launchers), on PGlite or — when
 * TEST_DATABASE_URL is set — on a scratch PostgreSQL database created for this run and dropped at the end.
 * Seeds through the API: a verified user with BENCH_API_JOBS jobs (queued; no launcher runs them) and
 * BENCH_API_NOTIFICATIONS notifications, and the bootstrap admin. Prints `READY <json>` with the base URL, the
 * two session cookies and a job id, and stops on SIGTERM.
 * For the other phases of bench:api: BENCH_API_HISTORY_JOBS more jobs of that user written straight into the
 * database (bench/api/history.ts: 100,000), BENCH_API_ACCOUNTS more signed-in users (their cookies in `accounts`)
 * and BENCH_API_LAUNCHERS local launcher processes (bench/api/mixed.ts), `modelId` the porosity model's id.
 */
import { sql } from 'drizzle-orm';
import type { HttpClient } from '../../apps/server/test/http-client.ts';
import { factories } from '../../apps/server/test/factories.ts';
import { startTestApp } from '../../apps/server/test/test-app.ts';
import { notify } from '../../apps/server/src/modules/notifications/service.ts';
import { openDatabase } from '../../apps/server/src/platform/db/client.ts';

const JOBS = Number(process.env.BENCH_API_JOBS ?? 10);
const NOTIFICATIONS = Number(process.env.BENCH_API_NOTIFICATIONS ?? 10);
const HISTORY_JOBS = Number(process.env.BENCH_API_HISTORY_JOBS ?? 0);
const ACCOUNTS = Number(process.env.BENCH_API_ACCOUNTS ?? 0);
const LAUNCHERS = Number(process.env.BENCH_API_LAUNCHERS ?? 0);

// PGlite is opened here (fresh, migrated) rather than by startTestApp, whose PGlite comes from the vitest setup.
// The answer caches as in production (30 s each; startTestApp would turn them off on PostgreSQL), unless the bench
// run sets SESSION_CACHE_SECONDS / LIST_CACHE_SECONDS (0 turns one off).
const env = {
  SESSION_CACHE_SECONDS: process.env.SESSION_CACHE_SECONDS ?? '30',
  LIST_CACHE_SECONDS: process.env.LIST_CACHE_SECONDS ?? '30',
};
const t = await startTestApp({
  env,
  launchers: LAUNCHERS || undefined,
  ...(process.env.TEST_DATABASE_URL ? {} : { database: await openDatabase({ url: null, dir: null }) }),
});
const f = factories(t);
const user = await f.user();
const image = await f.image(user);
const jobIds: string[] = [];
for (let i = 0; i < JOBS; i++) jobIds.push((await f.job(user, { image, model: i % 2 ? 'porosity' : 'grain-size' })).id);
for (let i = 0; i < NOTIFICATIONS; i++)
  await notify(t.db, { emitToUser: () => undefined }, user.id, 'JOB_FINISHED', { jobId: jobIds[i % JOBS] ?? null });
if (HISTORY_JOBS > 0) {
  // A long history written as a database import would: statuses as in production (mostly finished), created over
  // two years, finished a few seconds later, one in 20 archived, one in 50 deleted; both models.
  const other = await f.modelId('porosity');
  const grain = await f.modelId('grain-size');
  await t.db
    .execute(sql`insert into jobs (owner_id, image_id, model_id, model_version, status, source, created_at, started_at, finished_at, archived, deleted)
    select ${user.id}::uuid, ${image.id}::uuid, case when g % 2 = 0 then ${grain}::uuid else ${other}::uuid end, '1',
      (case when g % 10 = 0 then 'FAILED' when g % 7 = 0 then 'CACHED' else 'FINISHED' end)::job_status, 'WEB',
      now() - (g * interval '10 minutes'), now() - (g * interval '10 minutes') + interval '1 second',
      now() - (g * interval '10 minutes') + interval '5 seconds', g % 20 = 0, g % 50 = 0
    from generate_series(1, ${HISTORY_JOBS}) g`);
}
// BENCH_API_HISTORY_JOBS: a second user with a short history (10 jobs, written alike), the reference of the history phase
let shortCookie = '';
if (HISTORY_JOBS > 0) {
  const short = await f.user();
  const shortImage = await f.image(short);
  const grain = await f.modelId('grain-size');
  await t.db.execute(sql`insert into jobs (owner_id, image_id, model_id, model_version, status, source, created_at, started_at, finished_at)
    select ${short.id}::uuid, ${shortImage.id}::uuid, ${grain}::uuid, '1', 'FINISHED'::job_status, 'WEB',
      now() - (g * interval '10 minutes'), now() - (g * interval '10 minutes') + interval '1 second', now() - (g * interval '10 minutes') + interval '5 seconds'
    from generate_series(1, 10) g`);
  shortCookie = [...short.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  // as autovacuum leaves a table after a bulk insert (insert threshold): visibility map set, statistics fresh
  await t.db.execute(sql`vacuum analyze jobs`);
}
const admin = await f.admin();
const cookieOf = (c: HttpClient) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
const accounts: string[] = [];
for (let i = 0; i < ACCOUNTS; i++) accounts.push(cookieOf((await f.user()).client));
console.log(
  `READY ${JSON.stringify({
    baseUrl: t.baseUrl,
    kind: t.database.kind,
    userCookie: cookieOf(user.client),
    adminCookie: cookieOf(admin.client),
    jobId: jobIds[0],
    userId: user.id,
    modelId: await f.modelId('porosity'),
    accounts,
    shortCookie,
  })}`,
);
const stop = async () => {
  await t.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
