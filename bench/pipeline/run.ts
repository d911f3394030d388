/**
 * npm run bench:pipeline — jobs per minute through the whole path (HTTP upload → job → queue → launcher →
 * result stored) with 1, 2 and 4 local launchers, and the queue's own overhead per job (creation → the
 * launcher taking it, measured on jobs submitted one at a time to idle launchers, model time excluded).
 * Uses the embedded database and real launcher processes. Prints a table; never fails a build.
 *
 * First (issue 15 item 2): upload to result for one 4 MP TIFF on an idle machine (one launcher, nothing else
 * queued), split by stage — upload (receive), renditions, storing the upload, queue wait, launcher transfer,
 * model (the launcher's own time), storing the result, notifying (the owner's socket.io `job` event) — from the
 * upload's Server-Timing header and the dispatcher's stage times (Dispatcher.stageListener); median of
 * BENCH_LATENCY_RUNS (default 3, after one warm-up). Targets: under 2.5 s in all, model under 1.5 s.
 * BENCH_PIPELINE=latency runs only this part.
 */
import { eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { io as connect } from 'socket.io-client';
import type { JobStageTimes } from '../../apps/server/src/modules/jobs/dispatcher.ts';
import { parseServerTiming } from '../../apps/server/src/platform/http/server-timing.ts';
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

const LATENCY_RUNS = Number(process.env.BENCH_LATENCY_RUNS ?? 3);

interface Stages {
  upload: number;
  renditions: number;
  uploadStore: number;
  queue: number;
  transfer: number;
  model: number;
  storing: number;
  notifying: number;
  total: number;
}

/** Upload start → result stored and the owner told, for one 4 MP TIFF per run on one idle launcher. */
async function latency(): Promise<Stages[]> {
  const t = await startTestApp({ launchers: 1 });
  try {
    await t.launchersReady(120_000);
    const u = await t.signupVerified();
    await t.db.update((await import('../../apps/server/src/platform/db/schema/index.ts')).licenses).set({ images: null });
    const [{ id: model }] = await t.db.select({ id: computeModels.id }).from(computeModels).where(eq(computeModels.internalName, 'porosity'));
    const socket = connect(t.baseUrl, {
      path: '/socket.io',
      transports: ['websocket'],
      extraHeaders: { cookie: `lamella_session=${u.client.cookies.get('lamella_session')}` },
    });
    const told = new Map<string, number>();
    socket.on('job', (e: { id: string; status: string }) => {
      if (e.status === 'FINISHED' || e.status === 'FAILED') told.set(e.id, Date.now());
    });
    const stageTimes = new Map<string, JobStageTimes>();
    t.app.ctx.dispatcher.stageListener = (s) => stageTimes.set(s.jobId, s);
    while (!socket.connected) await new Promise((r) => setTimeout(r, 20));
    const out: Stages[] = [];
    for (let i = 0; i <= LATENCY_RUNS; i++) {
      // 2310 × 1732 ≈ 4.0 MP, 8-bit grey TIFF; a new picture each run (the same bytes would be answered from the cache)
      const { png } = await poresImage({ width: 2310, height: 1732, count: 120 + i, r: 18, seed: 1000 + i });
      const tiff = await sharp(png).greyscale().tiff().toBuffer();
      const form = new FormData();
      form.append('files', new Blob([new Uint8Array(tiff)], { type: 'image/tiff' }), `bench-${i}.tif`);
      const t0 = Date.now();
      const up = await u.client.request('POST', '/api/images', { form });
      if (up.status !== 200) throw new Error(`upload answered ${up.status}: ${JSON.stringify(up.body)}`);
      const uploaded = Date.now();
      const timing = parseServerTiming(up.headers.get('server-timing'));
      const [job] = (await u.client.post('/api/jobs', { imageIds: [up.body[0].id], modelIds: [model] })).body as Array<{ id: string }>;
      const deadline = Date.now() + 120_000;
      while (!told.has(job.id) || !stageTimes.has(job.id)) {
        if (Date.now() > deadline) throw new Error(`job ${job.id} did not finish`);
        await new Promise((r) => setTimeout(r, 5));
      }
      const [row] = await t.db.select().from(jobs).where(eq(jobs.id, job.id));
      if (row.status !== 'FINISHED') throw new Error(`job ${job.id}: ${row.status} ${row.error}`);
      const s = stageTimes.get(job.id)!;
      const notifiedAt = told.get(job.id)!;
      const serverUpload = (timing.receive ?? 0) + (timing.renditions ?? 0) + (timing.store ?? 0);
      const stages: Stages = {
        // the client's whole upload request less the server's renditions and storing: the bytes' way in
        upload: uploaded - t0 - (timing.renditions ?? 0) - (timing.store ?? 0),
        renditions: timing.renditions ?? 0,
        uploadStore: timing.store ?? 0,
        // upload answered → the job claimed: the POST /jobs call and the queue's wait
        queue: s.storedAt - s.storingMs - s.modelMs - s.transferMs - uploaded,
        transfer: s.transferMs,
        model: s.modelMs,
        storing: s.storingMs,
        notifying: notifiedAt - s.storedAt,
        total: notifiedAt - t0,
      };
      void serverUpload;
      if (i > 0) out.push(stages); // run 0 warms the launcher (first model call) and the server
      process.stderr.write('.');
    }
    socket.close();
    return out;
  } finally {
    await t.close();
  }
}

const lat = await latency();
const med = (k: keyof Stages) => median(lat.map((r) => r[k]));
const labels: Array<[keyof Stages, string]> = [
  ['upload', 'upload (bytes in)'],
  ['renditions', 'renditions'],
  ['uploadStore', 'storing the upload'],
  ['queue', 'queue wait (incl. POST /jobs)'],
  ['transfer', 'launcher transfer (both ways)'],
  ['model', "model (launcher's own time)"],
  ['storing', 'storing the result'],
  ['notifying', 'notifying (socket.io event)'],
  ['total', 'TOTAL upload start → told'],
];
console.log(`\nUpload to result — one 4 MP (2310×1732) 8-bit TIFF, porosity, 1 idle launcher; median of ${lat.length} runs (ms)`);
console.log(`stage                          | ${lat.map((_, i) => `run ${i + 1}`.padStart(7)).join(' | ')} |  median`);
for (const [k, label] of labels)
  console.log(
    `${label.padEnd(30)} | ${lat.map((r) => String(Math.round(r[k])).padStart(7)).join(' | ')} | ${String(Math.round(med(k))).padStart(7)}`,
  );
const totalOk = med('total') < 2500;
const modelOk = med('model') < 1500;
console.log(
  `total < 2500 ms: ${totalOk ? 'PASS' : 'FAIL'} (${Math.round(med('total'))} ms); model < 1500 ms: ${modelOk ? 'PASS' : 'FAIL'} (${Math.round(med('model'))} ms)`,
);
if (process.env.BENCH_PIPELINE === 'latency') process.exit(0);

const rows = [];
for (const n of [1, 2, 4]) rows.push(await run(n));
console.log(`\nPipeline benchmark (${JOBS} porosity jobs on 1024×768 images per run; overhead over ${SERIAL} serial jobs)`);
console.log('launchers | jobs/min | queue overhead median (ms) | p95 (ms) | failed');
for (const r of rows)
  console.log(
    `${String(r.launchers).padStart(9)} | ${r.jobsPerMinute.toFixed(1).padStart(8)} | ${String(r.overheadMedian).padStart(26)} | ${String(r.overheadP95).padStart(8)} | ${r.failed}`,
  );
process.exit(0);
