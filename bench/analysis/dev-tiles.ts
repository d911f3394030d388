// npm run bench:dev-tiles [-- <out folder>]   (default /tmp/lamella-tbm-dev)
//
// A development set for the grain model's robustness that is not ../shared/real: 16 tiles cut at fixed places
// (not chosen by any result) from the eight TBM training images of ../shared/training/tbm, two per image, 256×512
// and 512×256 px as the development crops are, each with the JSON bench:robustness reads (kind grain, pixel size
// 1 µm assumed, no reference: only shifts are measured on them). Then, e.g.:
//   ROBUST_TRANSFORMS=crop npm run bench:robustness -- /tmp/lamella-tbm-dev
// The network saw these images' annotated tiles in training, so the set says how the method behaves under a
// transform (a crop, a rotation), not how accurate it is.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const SHARED = process.env.SHARED_DIR ?? path.resolve(import.meta.dirname, '../../../shared');
const out = process.argv[2] ?? '/tmp/lamella-tbm-dev';
const IMAGES = [15, 16, 17, 18, 20, 24, 30, 31];
/** [left, top, width, height]: a tall tile and a wide one per image (the images are 1320×904). */
const TILES = [
  [256, 256, 256, 512],
  [640, 128, 512, 256],
] as const;

mkdirSync(out, { recursive: true });
let n = 0;
for (const id of IMAGES) {
  const file = path.join(SHARED, 'training/tbm', `${id}.png`);
  if (!existsSync(file)) throw new Error(`${file} is missing: the TBM training images are in ../shared/training/tbm`);
  for (const [left, top, width, height] of TILES) {
    const name = `dev-${id}-x${left}-y${top}`;
    await sharp(file)
      .removeAlpha()
      .extract({ left, top, width, height })
      .png()
      .toFile(path.join(out, `${name}.png`));
    writeFileSync(path.join(out, `${name}.json`), JSON.stringify({ file: `${name}.png`, kind: 'grain', pixelSizeUm: 1.0 }, null, 2) + '\n');
    n++;
  }
}
console.log(`${n} tiles in ${out}`);
