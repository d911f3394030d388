import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { initCv } from '../cv.js';
import { rng } from '../synth/index.js';
import { tintGrainImage } from '../synth/tint.js';
import { runModel } from '../registry.js';
import { denoiseToFloor, noiseSigma } from './grainColour.js';

beforeAll(() => initCv());

const gauss = (r: () => number) => Math.sqrt(-2 * Math.log(r() + 1e-12)) * Math.cos(2 * Math.PI * r());

/** Two flat tints side by side (left half, right half) with Gaussian noise σ per channel. */
function twoTints(w: number, h: number, sigma: number, seed = 1): Uint8Array {
  const r = rng(seed);
  const out = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      for (let c = 0; c < 3; c++) {
        const base = x < w / 2 ? [90, 120, 200][c] : [190, 170, 90][c];
        out[3 * (y * w + x) + c] = Math.max(0, Math.min(255, Math.round(base + sigma * gauss(r))));
      }
  return out;
}

/** Standard deviation of channel 0 inside the left half, away from the step. */
function spreadLeft(rgb: Uint8Array, w: number, h: number): number {
  let s = 0,
    q = 0,
    n = 0;
  for (let y = 4; y < h - 4; y++)
    for (let x = 4; x < w / 2 - 6; x++) {
      const v = rgb[3 * (y * w + x)];
      s += v;
      q += v * v;
      n++;
    }
  return Math.sqrt(q / n - (s / n) ** 2);
}

describe('colour path noise (20261126)', () => {
  it('estimates the σ of pixel noise from the image', () => {
    for (const sigma of [3, 8, 14]) expect(Math.abs(noiseSigma(twoTints(200, 160, sigma), 200, 160) / sigma - 1)).toBeLessThan(0.15);
    expect(noiseSigma(twoTints(200, 160, 0), 200, 160)).toBeLessThan(0.5);
  });

  it('smooths an image noisier than the floor, keeps the tint step, leaves a quiet image as it is', () => {
    const w = 200,
      h = 160;
    const noisy = twoTints(w, h, 10);
    const out = denoiseToFloor(noisy, w, h);
    expect(spreadLeft(noisy, w, h)).toBeGreaterThan(8.5);
    expect(spreadLeft(out, w, h)).toBeLessThan(6);
    // the step between the tints stays a step: 2 px either side of it keep their tints
    const at = (img: Uint8Array, x: number) => {
      let s = 0;
      for (let y = 10; y < h - 10; y++) s += img[3 * (y * w + x)];
      return s / (h - 20);
    };
    expect(at(out, w / 2 - 2)).toBeLessThan(100);
    expect(at(out, w / 2 + 1)).toBeGreaterThan(180);
    const quiet = twoTints(w, h, 3);
    expect(denoiseToFloor(quiet, w, h)).toBe(quiet);
  });

  it('measures a noisy tint etch like the clean one', async () => {
    const s = await tintGrainImage({ width: 480, height: 360, grainPx: 30, seed: 5, mottle: 0.12, noise: 2 });
    const { data, info } = await sharp(s.png).raw().toBuffer({ resolveWithObject: true });
    const r = rng(42);
    const noisy = Buffer.from(data.map((v) => Math.max(0, Math.min(255, Math.round(v + 8 * gauss(r))))));
    const png = await sharp(noisy, { raw: { width: info.width, height: info.height, channels: 3 } })
      .png()
      .toBuffer();
    const g = async (p: Buffer) => (await runModel('grain-size', '20261126', p, {}, { pixelSizeUm: 1 })).measurements;
    const clean = await g(s.png),
      withNoise = await g(png);
    expect(clean.segmentation).toBe('colour');
    expect(Math.abs(Number(clean.astmGIntercept) - s.truth.astmGIntercept)).toBeLessThan(0.4);
    expect(Math.abs(Number(withNoise.astmGIntercept) - Number(clean.astmGIntercept))).toBeLessThan(0.3);
  }, 60_000);
});
