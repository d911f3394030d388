/**
 * The Lamella server for bench/api/run.ts, in its own process so the load generator does not share its event loop:
 * the real app as the tests build it (startTestApp: buildApp + bootstrap, no launchers), on PGlite or — when
 * TEST_DATABASE_URL is set — on a scratch PostgreSQL database created for this run and dropped at the end.
 * Seeds through the API: a verified user with BENCH_API_JOBS jobs (queued; no launcher runs them) and
 * BENCH_API_NOTIFICATIONS notifications, and the bootstrap admin. Prints `READY <json>` with the base URL, the
 * two session cookies and a job id, and stops on SIGTERM.
 */
import type { HttpClient } from '../../apps/server/test/http-client.ts';
import { factories } from '../../apps/server/test/factories.ts';
import { startTestApp } from '../../apps/server/test/test-app.ts';
import { notify } from '../../apps/server/src/modules/notifications/service.ts';
import { openDatabase } from '../../apps/server/src/platform/db/client.ts';

const JOBS = Number(process.env.BENCH_API_JOBS ?? 10);
const NOTIFICATIONS = Number(process.env.BENCH_API_NOTIFICATIONS ?? 10);

// PGlite is opened here (fresh, migrated) rather than by startTestApp, whose PGlite comes from the vitest setup.
// The answer caches as in production (30 s each; startTestApp would turn them off on PostgreSQL), unless the bench
// run sets SESSION_CACHE_SECONDS / LIST_CACHE_SECONDS (0 turns one off).
const env = {
  SESSION_CACHE_SECONDS: process.env.SESSION_CACHE_SECONDS ?? '30',
  LIST_CACHE_SECONDS: process.env.LIST_CACHE_SECONDS ?? '30',
};
const t = await startTestApp(process.env.TEST_DATABASE_URL ? { env } : { env, database: await openDatabase({ url: null, dir: null }) });
const f = factories(t);
const user = await f.user();
const image = await f.image(user);
const jobIds: string[] = [];
for (let i = 0; i < JOBS; i++) jobIds.push((await f.job(user, { image, model: i % 2 ? 'porosity' : 'grain-size' })).id);
for (let i = 0; i < NOTIFICATIONS; i++)
  await notify(t.db, { emitToUser: () => undefined }, user.id, 'JOB_FINISHED', { jobId: jobIds[i % JOBS] ?? null });
const admin = await f.admin();
const cookieOf = (c: HttpClient) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
console.log(
  `READY ${JSON.stringify({
    baseUrl: t.baseUrl,
    kind: t.database.kind,
    userCookie: cookieOf(user.client),
    adminCookie: cookieOf(admin.client),
    jobId: jobIds[0],
  })}`,
);
const stop = async () => {
  await t.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
