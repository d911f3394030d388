// Regenerates the README overlay images: npx tsx packages/analysis/src/synth/make-docs.ts
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { runModel } from '../registry.js';
import { terminateOcr } from '../ocr.js';
import { crackImage, grainImage, layerImage, poreImage } from './index.js';

const out = path.join(path.dirname(new URL(import.meta.url).pathname), '../../docs');
const cases = [
  [
    'grain-size',
    await grainImage({
      width: 640,
      height: 480,
      grainPx: 48,
      pixelSizeUm: 0.5,
      noise: 6,
      illumination: 0.3,
      twins: true,
      seed: 21,
      scaleBar: { value: 50, unit: 'µm', lengthPx: 100, style: 'sem' },
    }),
  ],
  [
    'layer-thickness',
    await layerImage({
      width: 640,
      height: 480,
      tiltDeg: 2,
      noise: 5,
      pixelSizeUm: 0.5,
      seed: 22,
      scaleBar: { value: 50, unit: 'µm', lengthPx: 100, style: 'overlay' },
    }),
  ],
  [
    'cracks',
    await crackImage({
      width: 640,
      height: 480,
      cracks: 6,
      noise: 4,
      pixelSizeUm: 1,
      seed: 23,
      scaleBar: { value: 100, unit: 'µm', lengthPx: 100, style: 'sem' },
    }),
  ],
  [
    'porosity',
    await poreImage({
      width: 640,
      height: 480,
      count: 60,
      noise: 5,
      pixelSizeUm: 1,
      seed: 24,
      scaleBar: { value: 100, unit: 'µm', lengthPx: 100, style: 'overlay' },
    }),
  ],
] as const;
for (const [model, s] of cases) {
  const r = await runModel(model, undefined, s.png, {});
  writeFileSync(path.join(out, `${model}-overlay.png`), await sharp(r.files[0].data).png({ compressionLevel: 9, palette: true }).toBuffer());
  console.log(model, JSON.stringify(s.truth), JSON.stringify(r.measurements));
}
await terminateOcr();
