import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { grainImage } from '../synth/index.js';
import { correctShading } from './shading.js';
import { SHADING } from './tunables.js';

/** A synthetic grain image as interleaved RGB. */
async function grains(seed: number, width = 240, height = 180) {
  const s = await grainImage({ width, height, grainPx: 30, seed, noise: 3, scaleBar: null });
  const { data, info } = await sharp(s.png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const rgb = new Uint8Array(info.width * info.height * 3).map((_, i) => data[Math.floor(i / 3) * info.channels + (info.channels === 3 ? i % 3 : 0)]);
  return { rgb, w: info.width, h: info.height };
}

/** The image multiplied by a light falling from `lo` (left) to 1 (right), as a lamp off the axis gives. */
function shaded(rgb: Uint8Array, w: number, lo: number, gain = (x: number) => lo + (1 - lo) * (x / (w - 1))): Uint8Array {
  return rgb.map((v, i) => Math.round(v * gain(Math.floor(i / 3) % w)));
}

const meanAbs = (a: Uint8Array, b: Uint8Array) => a.reduce((s, v, i) => s + Math.abs(v - b[i]), 0) / a.length;
const mean = (a: Uint8Array) => a.reduce((s, v) => s + v, 0) / a.length;

describe('shading correction (grain size 20261203)', () => {
  it('takes a light falling off across the field out again, and keeps the mean', async () => {
    const { rgb, w, h } = await grains(3);
    const valid = new Uint8Array(w * h).fill(1);
    const dim = shaded(rgb, w, 0.55);
    const out = correctShading(dim, w, h, valid);
    // the left half was 55–77 % as bright as the right; corrected, the two halves agree as in the original
    const half = (a: Uint8Array, left: boolean) => mean(a.filter((_, i) => Math.floor(i / 3) % w < w / 2 === left));
    const ratio = (a: Uint8Array) => half(a, true) / half(a, false);
    expect(ratio(dim) / ratio(rgb)).toBeLessThan(0.8);
    expect(Math.abs(ratio(out) / ratio(rgb) - 1)).toBeLessThan(0.03);
    expect(Math.abs(mean(out) - mean(dim))).toBeLessThan(1.5);
    // the grains' own contrast is back: the corrected image lies close to the original scaled to the same mean
    const k = mean(dim) / mean(rgb);
    expect(
      meanAbs(
        out,
        rgb.map((v) => Math.round(v * k)),
      ),
    ).toBeLessThan(3);
  });

  it('leaves an evenly lit field almost as it is', async () => {
    // grains of random tone (120–210) tilt a fitted plane by chance a little (1–2 % here, ~190 grains), less the more
    // grains the field holds; the light of the test above changed the image by 20 %
    for (const seed of [1, 2, 5]) {
      const { rgb, w, h } = await grains(seed, 480, 360);
      const out = correctShading(rgb, w, h, new Uint8Array(w * h).fill(1));
      expect(meanAbs(out, rgb) / mean(rgb)).toBeLessThan(0.025);
    }
  });

  it('fits the light on the analysed pixels only, and corrects every pixel', async () => {
    const { rgb, w, h } = await grains(4);
    const dim = shaded(rgb, w, 0.6);
    // a black strip (a scale-bar band outside the analysis) at the bottom would tilt the fit if it were used
    const valid = new Uint8Array(w * h).fill(1);
    for (let i = (h - 40) * w; i < w * h; i++) {
      valid[i] = 0;
      dim.fill(0, 3 * i, 3 * i + 3);
    }
    const withMask = correctShading(dim, w, h, valid);
    const inside = (a: Uint8Array) => a.subarray(0, 3 * (h - 40) * w);
    // the same as correcting the analysed part on its own (a plane fitted there is the same plane)
    const alone = correctShading(inside(dim).slice(), w, h - 40, new Uint8Array(w * (h - 40)).fill(1));
    expect(inside(withMask).every((v, i) => Math.abs(v - alone[i]) <= 1)).toBe(true);
    // with the strip in the fit the light would come out differently
    expect(meanAbs(inside(correctShading(dim, w, h, new Uint8Array(w * h).fill(1))), alone)).toBeGreaterThan(3);
    // the strip outside is corrected too (still black: 0 times any gain)
    expect(withMask.subarray(3 * (h - 40) * w).every((v) => v === 0)).toBe(true);
  });

  it('holds the gain within its bound where the light almost fails, and passes a blank or one-line image through', () => {
    const w = 100,
      h = 10;
    // the light falls from 100 % to nothing: the plane reaches 0 at the right edge
    const rgb = new Uint8Array(w * h * 3).map((_, i) => Math.round(200 * (1 - (Math.floor(i / 3) % w) / w)));
    const out = correctShading(rgb, w, h, new Uint8Array(w * h).fill(1));
    for (let i = 0; i < out.length; i++) expect(out[i]).toBeLessThanOrEqual(Math.min(255, Math.round(rgb[i] * SHADING.maxGain)));
    const blank = new Uint8Array(w * h * 3).fill(90);
    expect(correctShading(blank, w, h, new Uint8Array(w * h).fill(1))).toEqual(blank);
    const line = new Uint8Array(w * 3).map((_, i) => i % 200);
    expect(correctShading(line, w, 1, new Uint8Array(w).fill(1))).toEqual(line);
  });
});
