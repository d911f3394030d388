/**
 * npm run bench:admin:seed — fills a dedicated PostgreSQL database with 1,000,000 jobs for the admin jobs
 * benchmark (bench/admin/run.ts). Everything is generated inside PostgreSQL with INSERT ... SELECT
 * generate_series, so it takes minutes, not hours.
 *
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/lamella_bench); the database is created
 * through the `test` database of the same server when missing, then the app's migrations run on it.
 * BENCH_JOBS (default 1,000,000). Re-running is a no-op when the database already holds that many jobs;
 * BENCH_RESEED=1 wipes the bench rows and seeds again.
 *
 * Shape (deterministic ids: md5('bench-<kind>-<n>')::uuid, so rows reference each other without joins):
 *  - 5,000 users, 300 companies (10% of users without a company), owners of jobs Zipf-like (few heavy users);
 *  - 12 models (popularity skewed), 2 model versions; 20,000 projects (60% of jobs without a project);
 *  - 300,000 images (60 per user, each job uses one of its owner's images); 200,000 results;
 *  - jobs over 2 years, more recent ones denser; status FINISHED 80%, CACHED 8%, FAILED 7%, NEW/PENDING 0.5%
 *    each, rest FINISHED; source WEB 65%, API 25%, SANDBOX 5%, IDENTIFICATION 3%, TEST 2%; 8% deleted,
 *    5% archived; wait 0.2–30 s, duration 2–60 s (long tail);
 *  - user feedback on 3% of jobs, admin feedback on 1% (1–3 votes), masks on 5% (1–3 masks, 40% submitted);
 *    the jobs-row aggregates (user_rating, admin_rating_mean, submitted_masks) computed from them.
 */
import pg from 'pg';
import { openDatabase } from '../../apps/server/src/platform/db/client.ts';

export const BENCH_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/lamella_bench';
const JOBS = Number(process.env.BENCH_JOBS ?? 1_000_000);
const USERS = 5000;
const COMPANIES = 300;
const MODELS = 12;
const PROJECTS_PER_USER = 4;
const IMAGES_PER_USER = 60;
const RESULTS = 200_000;
const CHUNK = 100_000;

export async function ensureDatabase(url = BENCH_URL): Promise<void> {
  const u = new URL(url);
  const name = u.pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/test';
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  const { rowCount } = await c.query('select 1 from pg_database where datname = $1', [name]);
  if (!rowCount) {
    console.log(`creating database ${name}`);
    await c.query(`create database "${name.replace(/"/g, '')}"`);
  }
  await c.end();
  // The app's own migrations (drizzle migrator, as at server start).
  const applied = async () => {
    const b = new pg.Client({ connectionString: url });
    await b.connect();
    try {
      return (await b.query(`select count(*)::int as n from drizzle.__drizzle_migrations`)).rows[0].n as number;
    } catch {
      return 0;
    } finally {
      await b.end();
    }
  };
  const before = await applied();
  const db = await openDatabase({ url, dir: null });
  await db.close();
  // A migration that rewrote rows (0003 backfills the jobs aggregates) leaves their pages out of the visibility
  // map, so index-only scans of jobs fetch the heap until a vacuum: vacuum now rather than time that.
  if ((await applied()) > before && before > 0) {
    const v = new pg.Client({ connectionString: url });
    await v.connect();
    const s = Date.now();
    await v.query(`vacuum (analyze) jobs`);
    console.log(`migrations applied; vacuum analyze jobs in ${((Date.now() - s) / 1000).toFixed(1)} s`);
    await v.end();
  }
}

export async function jobCount(url = BENCH_URL): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query(`select count(*)::int as n from jobs`);
    return rows[0].n;
  } finally {
    await c.end();
  }
}

const t0 = Date.now();
const log = (m: string) => console.log(`[seed ${((Date.now() - t0) / 1000).toFixed(1).padStart(6)} s] ${m}`);

export async function seed(url = BENCH_URL): Promise<void> {
  await ensureDatabase(url);
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const q = async (label: string, text: string) => {
    const s = Date.now();
    const r = await c.query(text);
    log(`${label}: ${r.rowCount ?? ''} rows in ${((Date.now() - s) / 1000).toFixed(1)} s`);
  };
  try {
    const { rows } = await c.query(`select count(*)::int as n from jobs`);
    if (rows[0].n >= JOBS && !process.env.BENCH_RESEED) {
      log(`already ${rows[0].n} jobs, nothing to do`);
      return;
    }
    log(`seeding ${JOBS} jobs into ${url.replace(/\/\/[^@]*@/, '//')}`);
    // Foreign-key triggers off for the bulk load (ids are consistent by construction): superuser only.
    await c.query(`set session_replication_role = replica`);
    await c.query(`set synchronous_commit = off`);
    await c.query(`set work_mem = '64MB'`);
    await q('wipe', `truncate masks, user_feedback, admin_feedback, issue_reports, jobs, results, images, projects cascade`);
    await c.query(`delete from users where email like 'bench-%'`);
    await c.query(`delete from compute_models where internal_name like 'bench_%'`);

    await q(
      'users',
      `insert into users (id, email, password_hash, name, surname, role, email_verified, address, created_at)
       select md5('bench-user-' || n)::uuid, 'bench-' || n || '@example.com', 'x', 
         (array['Ada','Alan','Grace','Marie','Nikola','Emmy','Carl','Lise','Max','Rosalind'])[1 + n % 10] || n,
         (array['Lovelace','Turing','Hopper','Curie','Tesla','Noether','Gauss','Meitner','Planck','Franklin'])[1 + (n / 10) % 10],
         'USER', true,
         case when n % 10 = 0 then '{}'::jsonb else jsonb_build_object('company', 'Company ' || lpad(((n * 7919) % ${COMPANIES})::text, 3, '0') || ' GmbH') end,
         now() - interval '800 days' + (n * interval '800 days' / ${USERS})
       from generate_series(0, ${USERS - 1}) n`,
    );
    await q(
      'models',
      `insert into compute_models (id, internal_name, routing_path, storage_path, display_name, version, access_type)
       select md5('bench-model-' || n)::uuid, 'bench_' || n, '/bench_' || n, 'bench/' || n,
         (array['Porosity','Grain size','Layer thickness','Cracks','Nodularity','Phase fraction','Inclusions','Coating','Weld seam','Graphite','Decarburization','Hardness'])[1 + n] || ' (bench)',
         '20250101', 'PUBLIC'
       from generate_series(0, ${MODELS - 1}) n`,
    );
    await q(
      'projects',
      `insert into projects (id, owner_id, name)
       select md5('bench-project-' || n)::uuid, md5('bench-user-' || (n % ${USERS}))::uuid, 'Project ' || n
       from generate_series(0, ${USERS * PROJECTS_PER_USER - 1}) n`,
    );
    await q(
      'images',
      `insert into images (id, owner_id, orginal_filename, filename, sha256, format, width, height, size, created_at)
       select md5('bench-image-' || n)::uuid, md5('bench-user-' || (n % ${USERS}))::uuid, 'sample_' || n || '.png', 'images/' || md5('bench-image-' || n) || '.png',
         md5('sha-' || n), 'png', 1024 + (n % 3) * 512, 768 + (n % 3) * 384, 500000 + (n % 1000) * 1000, now() - interval '730 days'
       from generate_series(0, ${USERS * IMAGES_PER_USER - 1}) n`,
    );
    await q(
      'results',
      `insert into results (id, items, measurements)
       select md5('bench-result-' || n)::uuid, '[{"type":"message","text":"ok"}]'::jsonb, jsonb_build_object('count', n % 100)
       from generate_series(0, ${RESULTS - 1}) n`,
    );

    // Jobs in chunks (progress + bounded transaction size). Random draws in an inner query so that each
    // column of a row sees the same draws.
    for (let from = 0; from < JOBS; from += CHUNK) {
      const to = Math.min(JOBS, from + CHUNK) - 1;
      await q(
        `jobs ${from}..${to}`,
        `insert into jobs (id, owner_id, image_id, model_id, model_version, project_id, status, source, result_id, attempts,
            archived, deleted, created_at, started_at, finished_at, duration_ms, wait_ms, error)
         select id, md5('bench-user-' || u)::uuid, md5('bench-image-' || (u + ${USERS} * floor(r_img * ${IMAGES_PER_USER})::int))::uuid,
           md5('bench-model-' || m)::uuid, case when r_ver < 0.3 then '20241025' else '20250101' end,
           case when r_proj < 0.6 then null else md5('bench-project-' || (u + ${USERS} * (floor(r_proj * 10)::int % ${PROJECTS_PER_USER})))::uuid end,
           st::job_status, src::job_source,
           case when st in ('FINISHED', 'CACHED') then md5('bench-result-' || (g % ${RESULTS}))::uuid end,
           case when st = 'NEW' then 0 else 1 end,
           r_arch < 0.05, r_del < 0.08, created,
           case when st in ('NEW') then null else created + wait * interval '1 ms' end,
           case when st in ('NEW', 'PENDING') then null else created + (wait + dur) * interval '1 ms' end,
           case when st in ('NEW', 'PENDING') then null else dur end,
           case when st = 'NEW' then null else wait end,
           case when st = 'FAILED' then 'Model error: bench failure ' || (g % 17) end
         from (
           select g, id, u, m, r_img, r_ver, r_proj, r_arch, r_del, created,
             case when r_st < 0.005 then 'NEW' when r_st < 0.01 then 'PENDING' when r_st < 0.08 then 'FAILED'
                  when r_st < 0.16 then 'CACHED' else 'FINISHED' end as st,
             case when r_src < 0.65 then 'WEB' when r_src < 0.90 then 'API' when r_src < 0.95 then 'SANDBOX'
                  when r_src < 0.98 then 'IDENTIFICATION' else 'TEST' end as src,
             case when r_st >= 0.08 and r_st < 0.16 then 0 else 2000 + floor(58000 * power(r_dur, 3))::bigint end as dur,
             200 + floor(29800 * power(r_wait, 4))::bigint as wait
           from (
             select g, gen_random_uuid() as id,
               floor(${USERS} * power(random(), 3))::int as u,
               floor(${MODELS} * power(random(), 2))::int as m,
               random() as r_img, random() as r_ver, random() as r_proj, random() as r_arch, random() as r_del,
               random() as r_st, random() as r_src, random() as r_dur, random() as r_wait,
               now() - interval '730 days' * (1 - sqrt(random())) as created
             from generate_series(${from}, ${to}) g
           ) a
         ) b`,
      );
    }
    await q(
      'user feedback (3%)',
      `insert into user_feedback (job_id, user_id, rating, comment, created_at)
       select id, owner_id, 1 + floor(random() * 5)::int, case when random() < 0.3 then 'Looks ' || (array['good','wrong','fine','odd'])[1 + floor(random() * 4)::int] end,
         coalesce(finished_at, created_at) + interval '5 minutes'
       from jobs where random() < 0.03`,
    );
    await q(
      'admin feedback (1%, 1-3 votes)',
      `insert into admin_feedback (job_id, user_id, scale_number, scale_length, resin, results, comment, created_at)
       select j.id, null, 1 + floor(random() * 5)::int, 1 + floor(random() * 5)::int, 1 + floor(random() * 5)::int, 1 + floor(random() * 5)::int,
         case when random() < 0.2 then 'checked' end, j.created_at + v * interval '1 hour'
       from (select id, created_at, 1 + floor(random() * 3)::int as votes from jobs where random() < 0.01) j, generate_series(1, 3) v
       where v <= j.votes`,
    );
    await q(
      'masks (5% of jobs, 1-3 each, 40% submitted)',
      `insert into masks (owner_id, job_id, image_id, label, filename, storage_key, is_submitted, created_at, parent_id)
       select j.owner_id, j.id, j.image_id, (array['grain','pore','crack','layer'])[1 + floor(random() * 4)::int], 'mask_' || v || '.png',
         'masks/' || j.id || '/' || v, random() < 0.4, j.created_at + v * interval '1 minute', null
       from (select id, owner_id, image_id, created_at, 1 + floor(random() * 3)::int as n from jobs where random() < 0.05) j, generate_series(1, 3) v
       where v <= j.n`,
    );
    // The jobs-row aggregates the app keeps on each write (the admin jobs list sorts on them), as the
    // 0003 migration backfills them.
    await q(
      'jobs.user_rating',
      `update jobs j set user_rating = f.k from (select job_id, max(rating) as k from user_feedback group by job_id) f where f.job_id = j.id`,
    );
    await q(
      'jobs.admin_rating_mean',
      `update jobs j set admin_rating_mean = a.k
       from (select job_id, avg((scale_number + scale_length + resin + results) / 4.0) as k from admin_feedback group by job_id) a where a.job_id = j.id`,
    );
    await q(
      'jobs.submitted_masks',
      `update jobs j set submitted_masks = k.n from (select job_id, count(*) as n from masks where is_submitted and job_id is not null group by job_id) k where k.job_id = j.id`,
    );
    await c.query(`set session_replication_role = origin`);
    await q('vacuum analyze', `vacuum analyze`);
    log('done');
  } finally {
    await c.end();
  }
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('bench/admin/seed.ts')) {
  seed()
    .then(() => process.exit(0))
    .catch((e) => {
      console.error(e);
      process.exit(1);
    });
}
