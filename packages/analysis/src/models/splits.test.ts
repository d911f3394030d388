import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initCv } from '../cv.js';
import { terminateOcr } from '../ocr.js';
import { runModel } from '../registry.js';
import { grainImage } from '../synth/index.js';
import { mergeUnmarkedSplits } from './grainSize.js';

beforeAll(() => initCv());
afterAll(() => terminateOcr());

/** 20 × 10 labels: grain 1 left of the dividing columns, grain 2 right of them; `line` marks the boundary-line mask. */
function twoGrains(divide: number[], lineRows: (y: number) => boolean) {
  const w = 20,
    h = 10;
  const ws = new Int32Array(w * h),
    line = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (divide.includes(x)) line[i] = lineRows(y) ? 1 : 0;
      else ws[i] = x < divide[0] ? 1 : 2;
    }
  return { ws, line, w, h, valid: new Uint8Array(w * h).fill(1) };
}

describe('grains parted where there is no boundary line (20261127)', () => {
  it('merges two grains whose 1 px dividing line has no boundary-line pixel, and fills the line', () => {
    const t = twoGrains([10], () => false);
    mergeUnmarkedSplits(t.ws, t.w, t.h, t.valid, t.line, 5);
    expect(new Set(t.ws)).toEqual(new Set([t.ws[0]]));
    expect(t.ws[0]).toBeGreaterThan(0);
  });

  it('keeps them apart when the dividing pixels are boundary line', () => {
    const t = twoGrains([10], () => true);
    mergeUnmarkedSplits(t.ws, t.w, t.h, t.valid, t.line, 5);
    expect(t.ws[0]).toBe(1);
    expect(t.ws[19]).toBe(2);
    expect(t.ws[10]).toBe(0);
  });

  it('keeps them apart across a 3 px boundary band with a gap of two rows (the gap is probed across the band)', () => {
    const t = twoGrains([9, 10, 11], (y) => y !== 4 && y !== 5);
    mergeUnmarkedSplits(t.ws, t.w, t.h, t.valid, t.line, 5);
    expect(t.ws[0]).toBe(1);
    expect(t.ws[19]).toBe(2);
  });

  it('keeps them apart when only a few dividing pixels (3 % or more) are line: a faint boundary', () => {
    const t = twoGrains([10], (y) => y === 3);
    mergeUnmarkedSplits(t.ws, t.w, t.h, t.valid, t.line, 5);
    expect(t.ws[0]).toBe(1);
    expect(t.ws[19]).toBe(2);
  });

  it('measures coarse grains with faint lines in noise (specks split grains before)', async () => {
    const s = await grainImage({ width: 720, height: 540, grainPx: 90, lineWidth: 1, contrast: 0.4, noise: 8, seed: 7 });
    const now = (await runModel('grain-size', '20261127', s.png, {}, { pixelSizeUm: s.pixelSizeUm })).measurements;
    expect(Math.abs(Number(now.astmGIntercept) - s.truth.astmGIntercept)).toBeLessThan(0.3);
    const before = (await runModel('grain-size', '20261126', s.png, {}, { pixelSizeUm: s.pixelSizeUm })).measurements;
    expect(Number(before.astmGIntercept) - s.truth.astmGIntercept).toBeGreaterThan(0.8);
  }, 60_000);
});
