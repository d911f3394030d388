// npx tsx bench/analysis/classes-default.ts [shared folder] [out.json]
// The product's current default segmentation (no recipe, no mask) on the annotated training images of the
// multi-class networks (issue 22 item 3): layer-thickness and cracks on ../shared/training/ebc, porosity (the dark
// phase) on ../shared/training/superalloy, each at 1 µm/px so lengths read as pixels. The figures are compared with
// the hand labels by `training/train_classes.py --default-from out.json` (cv-classes.json, "default").
// BENCH_VERSION=<version> measures that model version; BENCH_TASKS=phase runs only the dark phase. The dark phase is
// also scored here against its labels (every labelled class > 0 is dark phase, as train_classes.py counts it): the
// per-image |Δ area fraction| in points, their mean and max, and which segmentation measured the image (porosity
// 20261202 hands two-phase structures to the dark-phase network, which was trained on all 12 of these images: its
// figures here are NOT held out; the held-out ones are in training/cv-classes.json).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { runModel } from '../../packages/analysis/src/registry.js';
import { terminateOcr } from '../../packages/analysis/src/ocr.js';
import { decodeImage } from '../../packages/analysis/src/image.js';
import { flattenBackground } from '../../packages/analysis/src/models/porosity.js';
import { segmentDarkPhaseClassical } from '../../packages/analysis/src/models/darkPhase.js';
import type { ModelVersion } from '../../packages/analysis/src/types.js';

const shared = process.argv[2] ?? '/work/shared';
const outFile = process.argv[3] ?? 'training/cv-classes-default.json';
const VERSION = process.env.BENCH_VERSION as ModelVersion | undefined;
const TASKS = process.env.BENCH_TASKS?.split(',');

/** Dark-phase share (%) of a label image: every class above 0 (secondary and tertiary γ′) is dark phase. */
async function labelledPercent(file: string): Promise<number> {
  const lab = await sharp(file).extractChannel(0).raw().toBuffer();
  let dark = 0;
  for (let i = 0; i < lab.length; i++) if (lab[i] > 0) dark++;
  return (100 * dark) / lab.length;
}

const JOBS: { task: string; folder: string; runs: { model: string; keys: string[] }[] }[] = [
  {
    task: 'coating',
    folder: 'ebc',
    runs: [
      { model: 'layer-thickness', keys: ['meanThicknessUm'] },
      { model: 'cracks', keys: ['crackCount'] },
    ],
  },
  { task: 'phase', folder: 'superalloy', runs: [{ model: 'porosity', keys: ['areaFractionPercent'] }] },
];

async function main() {
  const out: Record<string, { version: string | null; images: Record<string, Record<string, number | string | null>> }> = {};
  for (const job of JOBS) {
    if (TASKS && !TASKS.includes(job.task)) continue;
    const dir = path.join(shared, 'training', job.folder);
    const images: Record<string, Record<string, number | string | null>> = {};
    let version: string | null = null;
    for (const f of readdirSync(dir).sort()) {
      if (!f.endsWith('.png') || f.endsWith('.labels.png')) continue;
      const name = f.slice(0, -4);
      const image = readFileSync(path.join(dir, f));
      const row: Record<string, number | string | null> = {};
      for (const r of job.runs)
        try {
          const res = await runModel(r.model, VERSION, image, {}, { pixelSizeUm: 1 });
          version = res.version;
          for (const k of r.keys) row[k] = typeof res.measurements[k] === 'number' ? (res.measurements[k] as number) : null;
          if (job.task === 'phase') {
            const ref = await labelledPercent(path.join(dir, `${name}.labels.png`));
            const got = row.areaFractionPercent;
            row.labelledPercent = ref;
            row.errorPoints = typeof got === 'number' ? Math.abs(got - ref) : null;
            row.segmentation = res.items.some((it) => it.type === 'message' && it.code === 'DARK_PHASE_NETWORK') ? 'network' : 'classical';
            // the classical step of 20261202 alone (what the image would read without the network), whole image
            const img = await decodeImage(image);
            const valid = new Uint8Array(img.width * img.height).fill(1);
            let dark = 0;
            for (const v of segmentDarkPhaseClassical(flattenBackground(img), valid).mask) dark += v;
            row.classicalStepPercent = (100 * dark) / valid.length;
            row.classicalStepErrorPoints = Math.abs(row.classicalStepPercent - ref);
          }
        } catch (e) {
          for (const k of r.keys) row[k] = null;
          row[`${r.model}Error`] = (e as { code?: string }).code ?? String(e);
        }
      images[name] = row;
      process.stdout.write(`${job.task} ${name} ${JSON.stringify(row)}\n`);
    }
    out[job.task] = { version, images };
    if (job.task === 'phase') {
      const errs = Object.values(images).map((r) => r.errorPoints);
      const ok = errs.filter((e): e is number => typeof e === 'number');
      const by = (m: string) => Object.values(images).filter((r) => r.segmentation === m).length;
      const step = Object.values(images)
        .map((r) => r.classicalStepErrorPoints)
        .filter((e): e is number => typeof e === 'number');
      process.stdout.write(
        `phase ${version}: |Δ area fraction| mean ${(ok.reduce((a, b) => a + b, 0) / Math.max(1, ok.length)).toFixed(2)} points, max ${Math.max(...ok).toFixed(2)}, ` +
          `within 2 points ${ok.filter((e) => e <= 2).length}/${errs.length}, failed ${errs.length - ok.length}; network ${by('network')}, classical ${by('classical')}; ` +
          `the classical step of 20261202 alone: mean ${(step.reduce((a, b) => a + b, 0) / Math.max(1, step.length)).toFixed(2)}, max ${Math.max(...step).toFixed(2)}\n`,
      );
    }
  }
  writeFileSync(outFile, JSON.stringify(out, null, 2) + '\n');
  process.stdout.write(`wrote ${outFile}\n`);
}

main()
  .then(() => terminateOcr())
  .then(() => process.exit(0))
  .catch((e) => {
    process.stderr.write(String(e?.stack ?? e) + '\n');
    process.exit(1);
  });
