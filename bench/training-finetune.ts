// npm run bench:training — fine-tuning the grain-boundary network (issue 25, item 6).
//
// 1. One material the shipped network never saw: the Ni-base superalloy SEM images in ../shared/training/superalloy
//    (the shipped network was trained on synthetic images and the TBM steel only, training/README.md). Its hand
//    annotations label secondary γ′ precipitates, tertiary γ′ and matrix; the "corrected masks" are the secondary γ′
//    particles as the grains (255) and everything else as boundary/outside (0), i.e. what a user measuring γ′ size
//    with the grain model would submit. Held out by image (seeded), never trained on. Prints the time, the steps and
//    the held-out validation of the shipped network against the candidate (boundary F-score, |ΔG|).
// 2. The effort of item 6: 20 synthetic 1 MP images (tint-etched grains with exact masks, 4 held out) at the default
//    step count, timed from start to validated candidate.
//
// Options: --steps N (default DEFAULT_FINETUNE_STEPS), --only material|twenty, --seed N. ../shared is
// LAMELLA_SHARED or the folder beside the repository. The machine is shared: say how loaded it was with the figures.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { initCv } from '../packages/analysis/src/cv.js';
import { terminateOcr } from '../packages/analysis/src/ocr.js';
import { rng } from '../packages/analysis/src/random.js';
import { tintGrainImage } from '../packages/analysis/src/synth/tint.js';
import { DEFAULT_FINETUNE_STEPS, fineTune, trainingAvailable, type FineTuneImage } from '../packages/analysis/src/training/finetune.js';
import type { TrainingValidation } from '../packages/analysis/src/training/validation.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const steps = Number(arg('steps') ?? DEFAULT_FINETUNE_STEPS);
const seed = Number(arg('seed') ?? 20261201);
const only = arg('only');
const here = path.dirname(new URL(import.meta.url).pathname);
const shared = process.env.LAMELLA_SHARED || path.resolve(here, '../../shared');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'lamella-bench-training-'));

function shuffle<T>(a: T[], s: number): T[] {
  const r = rng(s);
  const out = [...a];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function printValidation(v: TrainingValidation) {
  const f = (x: number | null | undefined, d = 3) => (x === null || x === undefined ? '–' : x.toFixed(d));
  const rows = [['image', 'G mask', 'G base', 'G candidate', 'F base', 'F candidate', '|ΔG| base', '|ΔG| candidate']];
  for (const i of v.images)
    rows.push([
      i.id + (i.base.error ? ` (base: ${i.base.error})` : '') + (i.candidate.error ? ` (candidate: ${i.candidate.error})` : ''),
      f(i.gMask, 2),
      f(i.base.g, 2),
      f(i.candidate.g, 2),
      f(i.base.fScore),
      f(i.candidate.fScore),
      f(i.base.deltaG, 2),
      f(i.candidate.deltaG, 2),
    ]);
  rows.push(['mean', '', '', '', f(v.total.base.fScore), f(v.total.candidate.fScore), f(v.total.base.deltaG, 2), f(v.total.candidate.deltaG, 2)]);
  const wd = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const r of rows) console.log('  ' + r.map((c, k) => c.padEnd(wd[k])).join('  '));
}

async function run(label: string, images: FineTuneImage[], candidateVersion: string) {
  const t0 = performance.now();
  let trainS = 0;
  let lastPrint = 0;
  const r = await fineTune({
    model: 'grain-size',
    baseVersion: '20261201',
    candidateVersion,
    steps,
    seed,
    workDir: mkdtempSync(path.join(tmp, 'run-')),
    images,
    onProgress: (p) => {
      trainS = p.elapsedS;
      if (p.step === p.steps || p.elapsedS - lastPrint >= 60) {
        lastPrint = p.elapsedS;
        process.stderr.write(
          `  ${label}: step ${p.step}/${p.steps} loss ${p.loss.toFixed(4)} elapsed ${p.elapsedS.toFixed(0)} s eta ${p.etaS.toFixed(0)} s\n`,
        );
      }
    },
  });
  const totalS = (performance.now() - t0) / 1000;
  const n = images.filter((i) => !i.holdout).length;
  console.log(
    `${label}: ${n} training + ${images.length - n} held-out images, ${steps} steps: total ${(totalS / 60).toFixed(1)} min ` +
      `(training loop ${(trainS / 60).toFixed(1)} min, start-up + export + validation ${((totalS - trainS) / 60).toFixed(1)} min); card: ${String(r.card.device)}`,
  );
  printValidation(r.validation);
  return totalS;
}

async function material() {
  const dir = path.join(shared, 'training', 'superalloy');
  const names = readdirSync(dir)
    .filter((f) => f.endsWith('.labels.png'))
    .map((f) => f.replace(/\.labels\.png$/, ''))
    .sort();
  const held = new Set(shuffle(names, seed).slice(0, Math.round(names.length / 3)));
  const images: FineTuneImage[] = [];
  for (const [k, n] of names.entries()) {
    // secondary γ′ (label 1) are the grains; matrix and tertiary γ′ are boundary/outside
    const { data, info } = await sharp(path.join(dir, `${n}.labels.png`))
      .extractChannel(0)
      .raw()
      .toBuffer({ resolveWithObject: true });
    const mask = Buffer.alloc(info.width * info.height);
    for (let i = 0; i < mask.length; i++) mask[i] = data[i] === 1 ? 255 : 0;
    const maskPath = path.join(tmp, `superalloy-${k}.mask.png`);
    await sharp(mask, { raw: { width: info.width, height: info.height, channels: 1 } })
      .png()
      .toFile(maskPath);
    images.push({ id: n, imagePath: path.join(dir, `${n}.png`), maskPath, holdout: held.has(n) });
  }
  console.log(`\nMaterial: Ni-base superalloy (SEM, ${names.length} images 512×512; held out: ${[...held].join(', ')})`);
  await run('superalloy', images, '20261201-ft-superalloy');
}

async function twenty() {
  const images: FineTuneImage[] = [];
  const r = rng(seed);
  for (let k = 0; k < 20; k++) {
    const W = 1024,
      H = 1024;
    const s = await tintGrainImage({ width: W, height: H, grainPx: 25 + 45 * r(), seed: seed + k, noise: 5, mottle: 0.1, line: 0.3 });
    const mask = Buffer.alloc(W * H);
    const L = s.labels;
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        const i = y * W + x;
        const apart = (j: number) => j >= 0 && j < L.length && L[j] !== L[i];
        mask[i] = (x > 0 && apart(i - 1)) || (x < W - 1 && apart(i + 1)) || apart(i - W) || apart(i + W) ? 0 : 255;
      }
    const imagePath = path.join(tmp, `synth-${k}.png`),
      maskPath = path.join(tmp, `synth-${k}.mask.png`);
    writeFileSync(imagePath, s.png);
    await sharp(mask, { raw: { width: W, height: H, channels: 1 } })
      .png()
      .toFile(maskPath);
    images.push({ id: `synth-${k}`, imagePath, maskPath, holdout: k % 5 === 4 });
  }
  console.log('\n20 corrected 1 MP images (synthetic tint-etched grains, exact masks; 4 held out)');
  const s = await run('20 × 1 MP', images, '20261201-ft-20mp');
  console.log(`  target ≤ 30 min on 2 cores: ${s <= 1800 ? 'met' : 'NOT met'} (${(s / 60).toFixed(1)} min)`);
}

async function main() {
  if (!(await trainingAvailable())) {
    console.log('bench:training: /usr/bin/python3 cannot import torch and onnx (bash training/setup.sh): nothing measured');
    return;
  }
  await initCv();
  console.log(
    `bench:training — ${steps} steps, seed ${seed}; ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} at start`,
  );
  try {
    if (only !== 'twenty') await material();
    if (only !== 'material') await twenty();
    console.log(
      `load average at the end: ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    await terminateOcr();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
