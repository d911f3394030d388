/**
 * Checks that the fast admin jobs list (listJobs) returns exactly the rows of the straightforward query
 * (sort key as a correlated subquery, LIMIT/OFFSET) for every sort key, both directions, a few pages and
 * filters, and that the jobs-row aggregates (user_rating, admin_rating_mean, submitted_masks) equal their
 * children. Run on a small bench database: BENCH_DATABASE_URL=.../lamella_bench_small BENCH_JOBS=20000.
 */
import { sql, type SQL } from 'drizzle-orm';
import { openDatabase } from '../../apps/server/src/platform/db/client.ts';
import { listJobs, rows, whereOf, SORTS } from '../../apps/server/src/modules/admin-jobs/repo.ts';
import { parseFilters } from '../../apps/server/src/modules/admin-jobs/service.ts';
import { BENCH_URL } from './seed.ts';

const REFERENCE: Record<string, SQL> = {
  createdAt: sql`j.created_at`,
  startedAt: sql`j.started_at`,
  finishedAt: sql`j.finished_at`,
  status: sql`j.status`,
  source: sql`j.source`,
  deleted: sql`j.deleted`,
  duration: sql`j.duration_ms`,
  waitTime: sql`j.wait_ms`,
  modelVersion: sql`j.model_version`,
  model: sql`(select m.display_name from compute_models m where m.id = j.model_id)`,
  owner: sql`(select lower(u.surname || ' ' || u.name) from users u where u.id = j.owner_id)`,
  company: sql`(select lower(u.address->>'company') from users u where u.id = j.owner_id)`,
  project: sql`(select p.name from projects p where p.id = j.project_id)`,
  image: sql`(select i.orginal_filename from images i where i.id = j.image_id)`,
  userRating: sql`(select max(f.rating) from user_feedback f where f.job_id = j.id)`,
  adminRating: sql`(select avg((a.scale_number + a.scale_length + a.resin + a.results) / 4.0) from admin_feedback a where a.job_id = j.id)`,
  submittedMasks: sql`(select count(*) from masks k where k.job_id = j.id and k.is_submitted)`,
};

const database = await openDatabase({ url: BENCH_URL, dir: null });
const db = database.db;
let bad = 0;
let checked = 0;
// The jobs-row aggregates the rating and mask sorts walk equal their children (as REFERENCE computes them).
const [drift] = await rows<{ n: string | number }>(
  db,
  sql`select count(*) as n from jobs j where j.user_rating is distinct from ${REFERENCE.userRating}
    or j.admin_rating_mean is distinct from ${REFERENCE.adminRating} or j.submitted_masks <> ${REFERENCE.submittedMasks}`,
);
console.log(`${drift.n} jobs whose user_rating / admin_rating_mean / submitted_masks differ from their feedback and masks`);
if (Number(drift.n)) bad++;
for (const q of [{}, { deleted: 'ALL' }, { status: 'FAILED' }, { company: 'company 04' }]) {
  const f = parseFilters(q);
  for (const key of Object.keys(SORTS)) {
    for (const dir of ['asc', 'desc'] as const) {
      for (const [page, size] of [
        [1, 100],
        [3, 100],
        [40, 100],
        [2, 7],
      ]) {
        const d = dir === 'asc' ? sql`asc` : sql`desc`;
        const nulls = dir === 'asc' ? sql`nulls first` : sql`nulls last`;
        const order = key === 'createdAt' ? sql`j.created_at ${d}, j.id ${d}` : sql`${REFERENCE[key]} ${d} ${nulls}, j.created_at ${d}, j.id ${d}`;
        const want = (
          await rows<{ id: string }>(
            db,
            sql`select j.id from jobs j where ${whereOf(f)} order by ${order} limit ${size + 1} offset ${(page - 1) * size}`,
          )
        ).map((r) => r.id);
        const got = await listJobs(db, f, key, dir, page, size);
        const ok = JSON.stringify(got.data.map((r) => r.id)) === JSON.stringify(want.slice(0, size)) && got.hasNextPage === want.length > size;
        checked++;
        if (!ok) {
          bad++;
          console.log(
            `MISMATCH ${JSON.stringify(q)} ${key} ${dir} page ${page} size ${size}: got ${got.data.length} want ${Math.min(size, want.length)}`,
          );
        }
      }
    }
  }
}
console.log(`${checked} pages checked, ${bad} mismatches`);
await database.close();
process.exit(bad ? 1 : 0);
