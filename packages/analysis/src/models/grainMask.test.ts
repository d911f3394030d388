import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { initCv } from '../cv.js';
import { grainImage } from '../synth/index.js';
import { runModel } from '../registry.js';
import { fillToEdge } from './grainSize.js';

beforeAll(() => initCv());

const num = (v: unknown) => Number(v);

describe('border grains of a mask (20261125)', () => {
  it('fills the unlabelled outer ring from the first grain pixel inward, boundary lines stay', () => {
    // 8 × 6, ring of 0, grains 1 (left) and 2 (right) parted by a line at x = 4
    const w = 8,
      h = 6;
    const L = new Int32Array(w * h);
    for (let y = 1; y < h - 1; y++) for (let x = 1; x < w - 1; x++) L[y * w + x] = x < 4 ? 1 : x > 4 ? 2 : 0;
    const F = fillToEdge(L, w, h, new Uint8Array(w * h).fill(1));
    expect(F[0 * w + 2]).toBe(1); // top edge above grain 1
    expect(F[3 * w + 7]).toBe(2); // right edge beside grain 2
    expect(F[0 * w + 4]).toBe(0); // the line meets the edge
    expect(F[3 * w + 2]).toBe(1); // grains unchanged
  });

  it('does the same for a colour (tint) etched image, whose merged grains are one piece in the file', async () => {
    // Voronoi grains of random tints, no boundary lines, mild noise
    const w = 480,
      h = 360;
    let a = 12345;
    const rnd = () => (a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 4294967296;
    const seeds = Array.from({ length: 90 }, () => ({ x: rnd() * w, y: rnd() * h, c: [60 + 150 * rnd(), 60 + 150 * rnd(), 60 + 150 * rnd()] }));
    const rgb = Buffer.alloc(w * h * 3);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        let best = 0,
          bd = Infinity;
        seeds.forEach((s, k) => {
          const d = (s.x - x) ** 2 + (s.y - y) ** 2;
          if (d < bd) {
            bd = d;
            best = k;
          }
        });
        for (let ch = 0; ch < 3; ch++) rgb[3 * (y * w + x) + ch] = Math.round(seeds[best].c[ch] + 6 * (rnd() - 0.5));
      }
    const png = await sharp(rgb, { raw: { width: w, height: h, channels: 3 } })
      .png()
      .toBuffer();
    const own = await runModel('grain-size', '20261125', png, {}, { pixelSizeUm: 1 });
    expect(own.measurements.segmentation).toBe('colour');
    const file = own.files.find((f) => f.filename === 'segmentation.png')!;
    const again = await runModel('grain-size', '20261125', png, {}, { pixelSizeUm: 1, masks: file.data });
    expect(Math.abs(num(again.measurements.grainCount) - num(own.measurements.grainCount))).toBeLessThanOrEqual(2);
    expect(Math.abs(num(again.measurements.astmGPlanimetric) - num(own.measurements.astmGPlanimetric))).toBeLessThan(0.05);
  }, 60_000);

  for (const seed of [9, 17]) {
    it(`re-running with the model's own segmentation.png gives the model's own counts (seed ${seed})`, async () => {
      const s = await grainImage({ width: 640, height: 480, grainPx: 40, pixelSizeUm: 0.5, noise: 4, seed });
      const own = await runModel('grain-size', '20261125', s.png, {}, { pixelSizeUm: 0.5 });
      const file = own.files.find((f) => f.filename === 'segmentation.png');
      expect(file).toBeTruthy();
      // the file shows the grains cut by the field's edge: the outer ring is not all boundary
      const { data, info } = await sharp(file!.data).raw().toBuffer({ resolveWithObject: true });
      let ring = 0;
      for (let x = 0; x < info.width; x++) ring += data[x * info.channels] ? 1 : 0;
      expect(ring).toBeGreaterThan(info.width / 2);
      const again = await runModel('grain-size', '20261125', s.png, {}, { pixelSizeUm: 0.5, masks: file!.data });
      const a = own.measurements,
        b = again.measurements;
      expect(Math.abs(num(b.grainCount) - num(a.grainCount))).toBeLessThanOrEqual(2);
      expect(Math.abs(num(b.grainsOnBorder) - num(a.grainsOnBorder))).toBeLessThanOrEqual(2);
      expect(Math.abs(num(b.astmGPlanimetric) - num(a.astmGPlanimetric))).toBeLessThan(0.05);
      // the rule that grains stay apart widens touching boundaries by a pixel: the intercept moves a little more
      expect(Math.abs(num(b.astmGIntercept) - num(a.astmGIntercept))).toBeLessThan(0.15);
    }, 60_000);
  }
});
