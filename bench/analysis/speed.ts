// npm run bench:analysis — median wall time per model at 4 MP and 12 MP, on one core, versus the same
// pipeline in native OpenCV (python3-opencv, bench/analysis/opencv_pipeline.py), plus peak RSS.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { runModel } from '../../packages/analysis/src/registry.js';
import { ocrStats, terminateOcr } from '../../packages/analysis/src/ocr.js';
import { makeImage, makeLamellarImage, makeTintImage, sizes } from './images.js';
import type { ModelVersion } from '../../packages/analysis/src/types.js';

sharp.concurrency(1); // one core
const REPS = Number(process.env.BENCH_REPS ?? 3);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'lamella-bench-'));
const here = path.dirname(new URL(import.meta.url).pathname);

const median = (a: number[]) => [...a].sort((p, q) => p - q)[a.length >> 1];
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const rows: string[][] = [
  [
    'model',
    'size',
    'node+wasm median',
    '(of which OCR)',
    'native OpenCV median',
    'ratio',
    'target <1.5 s @4MP, ≤2×',
    'CPU node',
    'CPU native',
    'CPU ratio',
  ],
];
// `grain-size (tint)`: the grain model's colour path on a tint etch, `grain-size (lamellar)` its colony path on
// pearlite-like colonies with 20 % ferrite (no native counterpart: their columns read n/a)
// BENCH_ONLY=grain-size,cracks limits the rows (labels as printed); ONNX_THREADS sets the network's threads (default 2)
const ONLY = process.env.BENCH_ONLY?.split(',');
/** BENCH_SIZES=4 limits the sizes (by their megapixels: "4" or "4,12"), so that the peak RSS is that size's own. */
const SIZES = process.env.BENCH_SIZES?.split(',').map((v) => `${v.trim()} MP`);
/** BENCH_VERSION=20261127 times another model version (default: each model's current one). */
const VERSION = process.env.BENCH_VERSION as ModelVersion | undefined;
for (const label of ['grain-size', 'grain-size (tint)', 'grain-size (lamellar)', 'layer-thickness', 'cracks', 'porosity'].filter(
  (l) => !ONLY || ONLY.includes(l),
)) {
  const model = label.replace(/ \((tint|lamellar)\)/, '');
  for (const s of sizes.filter((z) => !SIZES || SIZES.includes(z.name))) {
    const png =
      label === model ? await makeImage(model, s.w, s.h) : label.includes('tint') ? await makeTintImage(s.w, s.h) : await makeLamellarImage(s.w, s.h);
    const file = path.join(tmp, `${label.replace(/\W+/g, '-')}-${s.w}.png`);
    writeFileSync(file, png);
    await runModel(model, VERSION, png, {}); // warm-up (wasm + OCR init)
    const times: number[] = [],
      cpus: number[] = [],
      ocr: number[] = [];
    for (let i = 0; i < REPS; i++) {
      const o0 = ocrStats.ms,
        c0 = cpuMs(),
        t0 = performance.now();
      await runModel(model, VERSION, png, {});
      times.push(performance.now() - t0);
      cpus.push(cpuMs() - c0); // whole process: main thread, OCR worker, libvips, GC
      ocr.push(ocrStats.ms - o0);
    }
    let native = NaN,
      nativeCpu = NaN;
    try {
      if (label !== model) throw new Error(`no native pipeline for ${label}`);
      const out = execFileSync('/usr/bin/python3', [path.join(here, 'opencv_pipeline.py'), model, file, String(REPS)], {
        encoding: 'utf8',
        env: { ...process.env, OMP_NUM_THREADS: '1' },
      });
      const r = JSON.parse(out);
      native = r.medianMs;
      nativeCpu = r.medianCpuMs;
    } catch (e) {
      process.stderr.write(`native OpenCV run failed (python3-opencv installed? apt-get install python3-opencv): ${(e as Error).message}\n`);
    }
    const med = median(times),
      medCpu = median(cpus);
    const ratio = med / native;
    // without the native run (python3-opencv not installed) only the time target is judged
    const ok = (s.name !== '4 MP' || med < 1500) && (Number.isNaN(ratio) || ratio <= 2);
    rows.push([
      label,
      s.name,
      `${med.toFixed(0)} ms`,
      `${median(ocr).toFixed(0)} ms`,
      Number.isNaN(native) ? 'n/a' : `${native.toFixed(0)} ms`,
      Number.isNaN(ratio) ? 'n/a' : `${ratio.toFixed(2)}×`,
      ok ? 'ok' : 'MISSED',
      `${medCpu.toFixed(0)} ms`,
      Number.isNaN(nativeCpu) ? 'n/a' : `${nativeCpu.toFixed(0)} ms`,
      Number.isNaN(nativeCpu) ? 'n/a' : `${(medCpu / nativeCpu).toFixed(2)}×`,
    ]);
    process.stderr.write(
      `${label} ${s.name}: ${med.toFixed(0)} ms vs ${native.toFixed(0)} ms (CPU ${medCpu.toFixed(0)} vs ${nativeCpu.toFixed(0)} ms)\n`,
    );
  }
}
await terminateOcr();
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i])).join('  '));
const rssMb = process.resourceUsage().maxRSS / 1024;
console.log(
  `\npeak RSS of this process (sizes ${SIZES ? SIZES.join(', ') : sizes.map((z) => z.name).join(', ')}): ${rssMb.toFixed(0)} MB (target < 1536 MB)`,
);
console.log(
  `load average during the run: ${os
    .loadavg()
    .map((v) => v.toFixed(1))
    .join(' ')} (other jobs on this machine inflate both wall columns)`,
);
console.log('Both sides decode the PNG, find the data strip and bar, segment, measure and encode the overlay PNG; the native side has');
console.log('no OCR (shown apart). CPU = process CPU time per run (user+sys, all threads), less sensitive to load than wall time.');
