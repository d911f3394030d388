// npm run bench:accuracy -- <folder>   (folder of NAME.png|jpg|tif + NAME.json truth, like /work/shared/samples,
// or real micrographs with reference values and their own `tolerances`, like /work/shared/real)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runModel } from '../../packages/analysis/src/registry.js';
import { terminateOcr } from '../../packages/analysis/src/ocr.js';
import type { ModelVersion } from '../../packages/analysis/src/types.js';

const dir = process.argv[2] ?? '/work/shared/samples';
/** BENCH_VERSION=20250101 measures an older model version (default: each model's current one). */
const VERSION = process.env.BENCH_VERSION as ModelVersion | undefined;
/** BENCH_NETWORK=<absolute path of a .onnx>: a candidate grain-boundary network instead of the version's own (before shipping it). */
const NETWORK = process.env.BENCH_NETWORK || null;
const MODEL: Record<string, string> = { grain: 'grain-size', layer: 'layer-thickness', cracks: 'cracks', porosity: 'porosity' };
// tolerance: [key, kind, tol] — abs = absolute difference, rel = relative difference
const CHECKS: Record<string, [string, 'abs' | 'rel', number][]> = {
  grain: [
    ['astmGPlanimetric', 'abs', 0.3],
    ['astmGIntercept', 'abs', 0.3],
    ['grainsPerMm2', 'rel', 0.08],
    ['meanGrainAreaUm2', 'rel', 0.08],
    ['meanInterceptUm', 'rel', 0.1],
  ],
  layer: [
    ['meanThicknessUm', 'rel', 0.03],
    ['minThicknessUm', 'rel', 0.12],
    ['maxThicknessUm', 'rel', 0.12],
    ['stdThicknessUm', 'rel', 0.25],
  ],
  cracks: [
    ['crackCount', 'abs', 1],
    ['totalLengthUm', 'rel', 0.1],
    ['crackAreaFraction', 'rel', 0.1],
    ['meanWidthUm', 'rel', 0.1],
  ],
  porosity: [
    ['areaFractionPercent', 'abs', 0.5],
    ['poreCount', 'rel', 0.08],
  ],
};

const rows: string[][] = [['sample', 'quantity', 'measured', 'true', 'error', 'tolerance', 'ok']];
let failures = 0;
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();
for (const jf of files) {
  const truth = JSON.parse(readFileSync(path.join(dir, jf), 'utf8'));
  // cracks: the true mean width is the mean of the drawn cracks' widths (the samples list each crack)
  if (Array.isArray(truth.cracks) && truth.meanWidthUm === undefined) {
    const cracks = truth.cracks as { widthUm: number }[];
    truth.meanWidthUm = cracks.reduce((s, c) => s + c.widthUm, 0) / cracks.length;
  }
  const base = jf.replace(/\.json$/, '');
  const img = truth.file ? path.join(dir, truth.file) : ['.png', '.tif', '.tiff', '.jpg'].map((e) => path.join(dir, base + e)).find(existsSync);
  if (!img || !existsSync(img) || !MODEL[truth.kind]) continue;
  const settings = truth.scaleBar ? {} : { magnification: { unit: 'µm', number: Number((truth.pixelSizeUm * 1000).toFixed(6)), length: 1000 } };
  const t0 = performance.now();
  let m: Record<string, unknown>;
  try {
    m = (await runModel(MODEL[truth.kind], VERSION, readFileSync(img), settings, { network: NETWORK })).measurements;
  } catch (e) {
    rows.push([base, 'ERROR', String((e as Error).message), '', '', '', 'FAIL']);
    failures++;
    continue;
  }
  const ms = performance.now() - t0;
  const add = (q: string, meas: number | string, tru: number | string, err: string, tol: string, ok: boolean) => {
    rows.push([base, q, String(meas), String(tru), err, tol, ok ? 'ok' : 'FAIL']);
    if (!ok) failures++;
  };
  if (truth.scaleBar) {
    add(
      'scaleBar',
      `${m.scaleBarValue} ${m.scaleBarUnit}`,
      `${truth.scaleBar.value} ${truth.scaleBar.unit}`,
      '',
      'exact',
      m.scaleBarValue === truth.scaleBar.value && m.scaleBarUnit === truth.scaleBar.unit.replace('μ', 'µ'),
    );
  }
  const pe = Number(m.pixelSizeUm) / truth.pixelSizeUm - 1;
  add('pixelSizeUm', Number(m.pixelSizeUm).toFixed(5), truth.pixelSizeUm, `${(pe * 100).toFixed(2)} %`, '1 %', Math.abs(pe) <= 0.01);
  for (const [k, kind, specTol] of CHECKS[truth.kind]) {
    if (typeof truth[k] !== 'number') continue;
    // Reference files of real micrographs (../shared/real) carry their own tolerances: another tool's measurement,
    // not exact truth. Same units as ours: absolute for G and counts, relative (fraction) for the rest.
    const tol: number = typeof truth.tolerances?.[k] === 'number' ? truth.tolerances[k] : specTol;
    const v = Number(m[k]);
    const err = kind === 'abs' ? v - truth[k] : v / truth[k] - 1;
    const informative = k === 'stdThicknessUm' || k === 'meanGrainAreaUm2' || k === 'meanInterceptUm';
    add(
      k,
      v.toPrecision(6),
      Number(truth[k].toPrecision(6)),
      kind === 'abs' ? err.toFixed(3) : `${(err * 100).toFixed(2)} %`,
      kind === 'abs' ? `±${tol}` : `${tol * 100} %`,
      informative || Math.abs(err) <= tol,
    );
  }
  rows.push([base, 'time', `${ms.toFixed(0)} ms`, '', '', '', '']);
}
await terminateOcr();
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i])).join('  '));
console.log(failures ? `\n${failures} check(s) outside tolerance` : '\nall checks within tolerance');
process.exit(failures ? 1 : 0);
