// Synthetic bench micrographs shared by speed.ts (and ad-hoc profiling): ~1 MP synthetic image per model,
// scaled up (features scale too), with an SEM data strip (bar + label) at the bottom.
import sharp from 'sharp';
import { crackImage, grainImage, layerImage, poreImage } from '../../packages/analysis/src/synth/index.js';
import { tintGrainImage } from '../../packages/analysis/src/synth/tint.js';
import { lamellarImage } from '../../packages/analysis/src/synth/lamellar.js';

export const sizes = [
  { name: '4 MP', w: 2310, h: 1732 },
  { name: '12 MP', w: 4000, h: 3000 },
];

/** Base ~1 MP synthetic micrograph per model, scaled up (features scale too) and given a SEM strip. */
export async function makeImage(model: string, w: number, h: number): Promise<Buffer> {
  const bw = 1155,
    bh = 866;
  const base =
    model === 'grain-size'
      ? await grainImage({ width: bw, height: bh, grainPx: 30, noise: 6 })
      : model === 'porosity'
        ? await poreImage({ width: bw, height: bh, count: 150, noise: 5 })
        : model === 'layer-thickness'
          ? await layerImage({ width: bw, height: bh, noise: 5 })
          : await crackImage({ width: bw, height: bh, cracks: 10, noise: 5 });
  const raw = await sharp(base.png).resize(w, h, { kernel: 'lanczos3' }).greyscale().raw().toBuffer();
  // data strip with bar and label, as an SEM would write it
  const stripH = Math.round(h * 0.08),
    font = Math.round(stripH * 0.3);
  const svg = `<svg width="${w}" height="${stripH}" xmlns="http://www.w3.org/2000/svg"><rect width="100%" height="100%" fill="black"/>
    <text x="${Math.round(w * 0.04)}" y="${Math.round(font * 1.3)}" font-family="DejaVu Sans" font-size="${font}" fill="white">100 µm</text>
    <rect x="${Math.round(w * 0.04)}" y="${Math.round(font * 1.8)}" width="${Math.round(w * 0.15)}" height="${Math.round(font * 0.35)}" fill="white"/>
    <text x="${Math.round(w * 0.5)}" y="${Math.round(font * 1.3)}" font-family="DejaVu Sans" font-size="${font}" fill="white">EHT = 15.00 kV   Mag = 500 X</text></svg>`;
  const strip = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer();
  const all = Buffer.alloc(w * (h + stripH));
  raw.copy(all, 0, 0, w * h);
  const ch = strip.length / (w * stripH);
  for (let i = 0; i < w * stripH; i++) all[w * h + i] = strip[i * ch];
  return sharp(all, { raw: { width: w, height: h + stripH, channels: 1 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/** A colour (tint) etched micrograph for the grain model's colour path: ~1 MP synthetic tint etch scaled up, RGB, no strip. */
export async function makeTintImage(w: number, h: number): Promise<Buffer> {
  const base = await tintGrainImage({ width: 1155, height: 866, grainPx: 30, mottle: 0.15, noise: 2 });
  return sharp(base.png).resize(w, h, { kernel: 'lanczos3' }).png({ compressionLevel: 1 }).toBuffer();
}

/** A lamellar (pearlite-like) micrograph for the grain model's colony path: ~1 MP synthetic colonies scaled up, no strip. */
export async function makeLamellarImage(w: number, h: number): Promise<Buffer> {
  const base = await lamellarImage({ width: 1155, height: 866, colonyPx: 150, spacingPx: 6, noise: 5, ferrite: 0.2 });
  return sharp(base.png).resize(w, h, { kernel: 'lanczos3' }).png({ compressionLevel: 1 }).toBuffer();
}
