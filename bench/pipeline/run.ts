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
 *
 * Issue 30 item 4 — the upload → result time above is for grain size (BENCH_LATENCY_MODEL, default grain-size)
 * and is printed as a ratio to the model's own time (target ≤ 1.3×); then:
 * - renditions of one 4 MP TIFF: the image decode pool (a worker process, one decode for both renditions) against
 *   the in-process rendering of 20261126 (two decodes, WebP effort 4), in the same run (target ≤ 100 ms);
 * - platform throughput against the bare model on the same BENCH_IMAGES (default 50) images: the analysis pool
 *   of packages/analysis with as many threads as the platform's launchers have slots (BENCH_LAUNCHERS, default
 *   2, one thread each, LAUNCHER_NICE=0 so both get the same priority), against upload-free job creation →
 *   every job FINISHED on the platform (target ≥ 0.9×). BENCH_THROUGHPUT_MODEL (default porosity), BENCH_SIZE
 *   (default 1600x1200).
 * BENCH_PIPELINE=all adds the older table of 1, 2 and 4 launchers.
 */
import { eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { io as connect } from 'socket.io-client';
import type { JobStageTimes } from '../../apps/server/src/modules/jobs/dispatcher.ts';
import { parseServerTiming } from '../../apps/server/src/platform/http/server-timing.ts';
import { startTestApp } from '../../apps/server/test/test-app.ts';
import { createAnalysisPool } from '@lamella/analysis';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imageWorkers } from '../../apps/server/src/modules/images/decode-pool.ts';
import { DISPLAY_SIZE, MAX_IMAGE_PIXELS, THUMBNAIL_SIZE } from '../../apps/server/src/modules/images/render.ts';
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
const LATENCY_MODEL = process.env.BENCH_LATENCY_MODEL ?? 'grain-size';

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
    const [{ id: model }] = await t.db.select({ id: computeModels.id }).from(computeModels).where(eq(computeModels.internalName, LATENCY_MODEL));
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
console.log(`\nUpload to result — one 4 MP (2310×1732) 8-bit TIFF, ${LATENCY_MODEL}, 1 idle launcher; median of ${lat.length} runs (ms)`);
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
const ratio = med('total') / med('model');
console.log(`upload → result / model's own time: ${ratio.toFixed(2)}× (target ≤ 1.3×: ${ratio <= 1.3 ? 'PASS' : 'FAIL'})`);
if (process.env.BENCH_PIPELINE === 'latency') process.exit(0);

// ---------------------------------------------------------------- renditions: decode pool against 20261126's in-process rendering

/** The renditions as made before issue 30 item 4 (images/render.ts of 20261126): in the server's process, two decodes, WebP effort 4. */
async function renderBefore(path: string) {
  const base = () => sharp(path, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error', sequentialRead: true }).rotate();
  await base().resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 80 }).toBuffer();
  await base().resize(DISPLAY_SIZE, DISPLAY_SIZE, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 90 }).toBuffer();
}
{
  const dir = await mkdtemp(join(tmpdir(), 'bench-renditions-'));
  const { png } = await poresImage({ width: 2310, height: 1732, count: 120, r: 18, seed: 77 });
  const path = join(dir, 'four-mp.tif');
  await writeFile(path, await sharp(png).greyscale().tiff().toBuffer());
  const pool = imageWorkers({ workers: 1 });
  const task = {
    op: 'ingest' as const,
    path,
    displaySize: DISPLAY_SIZE,
    thumbnailSize: THUMBNAIL_SIZE,
    maxPixels: MAX_IMAGE_PIXELS,
    maxDecodeBytes: pool.maxDecodeBytes,
  };
  await pool.run(task); // starts the worker
  await renderBefore(path);
  const before: number[] = [];
  const after: number[] = [];
  for (let i = 0; i < 7; i++) {
    let t0 = performance.now();
    await renderBefore(path);
    before.push(performance.now() - t0);
    t0 = performance.now();
    await pool.run(task);
    after.push(performance.now() - t0);
  }
  await pool.close();
  const b = median(before);
  const a = median(after);
  console.log(
    `\nRenditions of one 4 MP TIFF (median of 7, same run): before ${Math.round(b)} ms (in process, two decodes) → after ${Math.round(a)} ms (decode pool worker) = ${(a / b).toFixed(2)}× (target ≤ 100 ms: ${a <= 100 ? 'PASS' : 'FAIL'})`,
  );
}

// ---------------------------------------------------------------- platform throughput against the bare model

const IMAGES = Number(process.env.BENCH_IMAGES ?? 50);
const LAUNCHERS = Number(process.env.BENCH_LAUNCHERS ?? 2);
const TP_MODEL = process.env.BENCH_THROUGHPUT_MODEL ?? 'porosity';
const [TW, TH] = (process.env.BENCH_SIZE ?? '1600x1200').split('x').map(Number);
{
  const pngs: Buffer[] = [];
  for (let i = 0; i < IMAGES; i++)
    pngs.push((await poresImage({ width: TW, height: TH, count: 30 + (i % 17), r: 12 + (i % 5), seed: 5000 + i })).png);
  // bare: the analysis pool with the launchers' slots, every image once (after one warm-up run per thread)
  const pool = createAnalysisPool({ size: LAUNCHERS });
  await Promise.all(Array.from({ length: LAUNCHERS }, (_, i) => pool.run(TP_MODEL, undefined, pngs[i], {}, { lang: 'en' } as never)));
  let t0 = Date.now();
  await Promise.all(pngs.map((png) => pool.run(TP_MODEL, undefined, png, {}, { lang: 'en' } as never)));
  const bareMs = Date.now() - t0;
  await pool.close();
  // platform: the same images uploaded first, then one job each on LAUNCHERS launchers (one thread each)
  process.env.LAUNCHER_NICE = '0';
  const t = await startTestApp({ launchers: LAUNCHERS });
  let platformMs = 0;
  let failed = 0;
  try {
    await t.launchersReady(120_000);
    const u = await t.signupVerified();
    await t.db.update((await import('../../apps/server/src/platform/db/schema/index.ts')).licenses).set({ images: null });
    const [{ id: model }] = await t.db.select({ id: computeModels.id }).from(computeModels).where(eq(computeModels.internalName, TP_MODEL));
    const ids: string[] = [];
    for (let i = 0; i < pngs.length; i += 10) {
      const form = new FormData();
      pngs.slice(i, i + 10).forEach((png, k) => form.append('files', new Blob([new Uint8Array(png)]), `t${i + k}.png`));
      ids.push(...(await u.client.request('POST', '/api/images', { form })).body.map((x: { id: string }) => x.id));
    }
    // warm-up: one job per launcher on other pictures (the first model call of each launcher)
    const warm: string[] = [];
    for (let i = 0; i < LAUNCHERS; i++) {
      const form = new FormData();
      form.append(
        'files',
        new Blob([new Uint8Array((await poresImage({ width: TW, height: TH, count: 20, r: 10, seed: 9000 + i })).png)]),
        `w${i}.png`,
      );
      warm.push((await u.client.request('POST', '/api/images', { form })).body[0].id);
    }
    const waitAll = async (jobIds: string[]) => {
      for (;;) {
        const rows = await t.db.select({ status: jobs.status }).from(jobs).where(inArray(jobs.id, jobIds));
        if (rows.every((r) => r.status === 'FINISHED' || r.status === 'FAILED')) return rows.filter((r) => r.status === 'FAILED').length;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    await waitAll((await u.client.post('/api/jobs', { imageIds: warm, modelIds: [model] })).body.map((j: { id: string }) => j.id));
    t0 = Date.now();
    const created = (await u.client.post('/api/jobs', { imageIds: ids, modelIds: [model] })).body.map((j: { id: string }) => j.id);
    failed = await waitAll(created);
    platformMs = Date.now() - t0;
  } finally {
    await t.close();
  }
  const perMin = (ms: number) => (IMAGES / ms) * 60_000;
  const r = perMin(platformMs) / perMin(bareMs);
  console.log(`\nThroughput on the same ${IMAGES} ${TW}×${TH} images, ${TP_MODEL}, ${LAUNCHERS} threads`);
  console.log(`bare model (analysis pool, ${LAUNCHERS} threads): ${perMin(bareMs).toFixed(1)} images/min (${(bareMs / 1000).toFixed(1)} s)`);
  console.log(
    `platform (${LAUNCHERS} launchers × 1 thread, jobs created → all FINISHED): ${perMin(platformMs).toFixed(1)} images/min (${(platformMs / 1000).toFixed(1)} s), ${failed} failed`,
  );
  console.log(`platform / bare: ${r.toFixed(2)}× (target ≥ 0.9×: ${r >= 0.9 ? 'PASS' : 'FAIL'})`);
}
if (process.env.BENCH_PIPELINE !== 'all') process.exit(0);

const rows = [];
for (const n of [1, 2, 4]) rows.push(await run(n));
console.log(`\nPipeline benchmark (${JOBS} porosity jobs on 1024×768 images per run; overhead over ${SERIAL} serial jobs)`);
console.log('launchers | jobs/min | queue overhead median (ms) | p95 (ms) | failed');
for (const r of rows)
  console.log(
    `${String(r.launchers).padStart(9)} | ${r.jobsPerMinute.toFixed(1).padStart(8)} | ${String(r.overheadMedian).padStart(26)} | ${String(r.overheadP95).padStart(8)} | ${r.failed}`,
  );
process.exit(0);
