// npx tsx bench/analysis/classes-default.ts [shared folder] [out.json]
// The product's current default segmentation (no recipe, no mask) on the annotated training images of the
// multi-class networks (issue 22 item 3): layer-thickness and cracks on ../shared/training/ebc, porosity (the dark
// phase) on ../shared/training/superalloy, each at 1 µm/px so lengths read as pixels. The figures are compared with
// the hand labels by `training/train_classes.py --default-from out.json` (cv-classes.json, "default").
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runModel } from '../../packages/analysis/src/registry.js';
import { terminateOcr } from '../../packages/analysis/src/ocr.js';
import type { ModelVersion } from '../../packages/analysis/src/types.js';

const shared = process.argv[2] ?? '/work/shared';
const outFile = process.argv[3] ?? 'training/cv-classes-default.json';
const VERSION = process.env.BENCH_VERSION as ModelVersion | undefined;

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
        } catch (e) {
          for (const k of r.keys) row[k] = null;
          row[`${r.model}Error`] = (e as { code?: string }).code ?? String(e);
        }
      images[name] = row;
      process.stdout.write(`${job.task} ${name} ${JSON.stringify(row)}\n`);
    }
    out[job.task] = { version, images };
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
