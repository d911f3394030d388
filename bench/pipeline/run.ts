/**
 * npm run bench:pipeline — jobs per minute through the whole path (HTTP upload → job → queue → launcher →
 * result stored) with 1, 2 and 4 local launchers, and the queue's own overhead per job (creation → the
 * launcher taking it, measured on jobs submitted one at a time to idle launchers, model time excluded).
 * Uses the embedded database and real launcher processes. Prints a table; never fails a build.
 */
import { eq, inArray } from 'drizzle-orm';
import { startTestApp } from '../../apps/server/test/test-app.ts';
import { poresImage } from '../../apps/server/test/synthetic.ts';
import { computeModels, executors, jobs } from '../../apps/server/src/platform/db/schema/index.ts';

const JOBS = Number(process.env.BENCH_JOBS ?? 24);
const SERIAL = Number(process.env.BENCH_SERIAL ?? 20);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

async function run(launchers: number) {
  const t = await startTestApp({ launchers });
  try {
    await t.launchersReady(120_000);
    const u = await t.signupVerified();
    await t.db.update((await import('../../apps/server/src/platform/db/schema/index.ts')).licenses).set({ images: null });
    const [{ id: model }] = await t.db.select({ id: computeModels.id }).from(computeModels).where(eq(computeModels.internalName, 'porosity'));
    const form = new FormData();
    for (let i = 0; i < JOBS + SERIAL; i++) {
      const { png } = await poresImage({ width: 1024, height: 768, count: 20 + (i % 17), r: 12 + (i % 5) });
      form.append('files', new Blob([png]), `b${i}.png`);
    }
    const imgs = (await u.client.request('POST', '/api/images', { form })).body.map((i: { id: string }) => i.id) as string[];

    // overhead: one job at a time on idle launchers
    const overhead: number[] = [];
    for (const id of imgs.slice(0, SERIAL)) {
      const [job] = (await u.client.post('/api/jobs', { imageIds: [id], modelIds: [model] })).body;
      for (;;) {
        const [row] = await t.db.select().from(jobs).where(eq(jobs.id, job.id));
        if (row.status === 'FINISHED' || row.status === 'FAILED') {
          overhead.push(row.startedAt!.getTime() - row.createdAt.getTime());
          break;
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    }

    // throughput: all at once
    const start = Date.now();
    const created = (await u.client.post('/api/jobs', { imageIds: imgs.slice(SERIAL), modelIds: [model] })).body.map((j: { id: string }) => j.id);
    for (;;) {
      const rows = await t.db.select({ status: jobs.status }).from(jobs).where(inArray(jobs.id, created));
      if (rows.every((r) => r.status === 'FINISHED' || r.status === 'FAILED')) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const minutes = (Date.now() - start) / 60_000;
    const failed = (await t.db.select({ status: jobs.status }).from(jobs).where(inArray(jobs.id, created))).filter(
      (r) => r.status === 'FAILED',
    ).length;
    void executors;
    return { launchers, jobsPerMinute: created.length / minutes, overheadMedian: median(overhead), overheadP95: p95(overhead), failed };
  } finally {
    await t.close();
  }
}

const rows = [];
for (const n of [1, 2, 4]) rows.push(await run(n));
console.log(`\nPipeline benchmark (${JOBS} porosity jobs on 1024×768 images per run; overhead over ${SERIAL} serial jobs)`);
console.log('launchers | jobs/min | queue overhead median (ms) | p95 (ms) | failed');
for (const r of rows)
  console.log(
    `${String(r.launchers).padStart(9)} | ${r.jobsPerMinute.toFixed(1).padStart(8)} | ${String(r.overheadMedian).padStart(26)} | ${String(r.overheadP95).padStart(8)} | ${r.failed}`,
  );
process.exit(0);
