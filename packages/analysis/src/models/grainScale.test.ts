import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { initCv } from '../cv.js';
import { decodeImage } from '../image.js';
import { grainImage } from '../synth/index.js';
import { runModel } from '../registry.js';
import { boundaryWidth, GREY_TARGET_RUN_PX, kernelFor, segmentGrainsAtOwnScale } from './grainSize.js';
import { meanLabelRun } from './grainColour.js';

beforeAll(() => initCv());

/** Square grains `cell` px apart with a boundary band `band` px wide between them (label 0). */
function squareGrains(w: number, h: number, cell: number, band: number) {
  const labels = new Int32Array(w * h);
  const boundary = new Uint8Array(w * h);
  const perRow = Math.ceil(w / cell);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const onBand = x % cell < band || y % cell < band;
      boundary[y * w + x] = onBand ? 1 : 0;
      labels[y * w + x] = onBand ? 0 : 1 + Math.floor(y / cell) * perRow + Math.floor(x / cell);
    }
  return { labels, boundary };
}

async function grey(png: Buffer) {
  const img = await decodeImage(png);
  return { img, valid: new Uint8Array(img.width * img.height).fill(1) };
}

describe('grain scale estimation (20261125)', () => {
  it('measures the width of a boundary band', () => {
    for (const band of [2, 4, 6, 9]) {
      const { boundary } = squareGrains(400, 300, 50, band);
      // crossings of the bands (squares of band²) count with their larger distances: within 25 %
      expect(Math.abs(boundaryWidth(boundary, 400, 300) / band - 1)).toBeLessThan(0.25);
    }
    expect(boundaryWidth(new Uint8Array(100), 10, 10)).toBeNaN();
  });

  it('measures the mean grain run between bands', () => {
    for (const [cell, band] of [
      [20, 2],
      [40, 3],
      [80, 5],
    ]) {
      // runs that reach the image edge end without a change: a field of 16 × 12 grains keeps that under 10 %
      const { labels } = squareGrains(16 * cell, 12 * cell, cell, band);
      expect(Math.abs(meanLabelRun(labels, 16 * cell, 12 * cell) / (cell - band) - 1)).toBeLessThan(0.1);
    }
  });

  it('chooses a black-hat kernel wider than the band and narrower than the grains', () => {
    expect(kernelFor(3, 30)).toBe(11);
    expect(kernelFor(6, 40)).toBe(19);
    expect(kernelFor(10, 20)).toBe(13); // capped at 60 % of the grain run
    expect(kernelFor(1, 30)).toBe(7);
    expect(kernelFor(NaN, NaN)).toBe(11);
    for (const k of [kernelFor(2.2, 25), kernelFor(4.7, 33), kernelFor(8, 100)]) expect(k % 2).toBe(1);
  });

  it('works where the grains span the target run, whatever their size in pixels', async () => {
    const scales: number[] = [];
    for (const grainPx of [22, 44, 88]) {
      const s = await grainImage({ width: 2 * grainPx * 8, height: 2 * grainPx * 6, grainPx, noise: 4, seed: 3, lineWidth: grainPx / 18 });
      const { img, valid } = await grey(s.png);
      const { scale } = await segmentGrainsAtOwnScale(img, valid, '20261125');
      expect(Math.abs(scale.interceptPx / GREY_TARGET_RUN_PX - 1)).toBeLessThan(0.2);
      expect(scale.kernel).toBeGreaterThan(scale.boundaryWidthPx);
      scales.push(scale.factor);
    }
    // grains twice as large in pixels → a working resolution about half as fine
    expect(scales[1] / scales[0]).toBeGreaterThan(1.6);
    expect(scales[1] / scales[0]).toBeLessThan(2.5);
    expect(scales[2] / scales[1]).toBeGreaterThan(1.6);
    expect(scales[2] / scales[1]).toBeLessThan(2.5);
  }, 60_000);

  it('derives a wider kernel for wider boundary lines at the same grain size', async () => {
    const thin = await grainImage({ width: 640, height: 480, grainPx: 60, noise: 4, seed: 5, lineWidth: 1.5 });
    const wide = await grainImage({ width: 640, height: 480, grainPx: 60, noise: 4, seed: 5, lineWidth: 7 });
    const scaleOf = async (png: Buffer) => {
      const { img, valid } = await grey(png);
      return (await segmentGrainsAtOwnScale(img, valid, '20261125')).scale;
    };
    const a = await scaleOf(thin.png),
      b = await scaleOf(wide.png);
    expect(b.boundaryWidthPx).toBeGreaterThan(a.boundaryWidthPx + 1);
    expect(b.kernel).toBeGreaterThan(a.kernel);
  }, 60_000);

  it('gives the same G for the image at half and at twice the resolution (pixel size scaled with it)', async () => {
    const s = await grainImage({ width: 640, height: 480, grainPx: 36, noise: 6, seed: 21 });
    const at = async (f: number) => {
      const png = await sharp(s.png)
        .resize(Math.round(640 * f), Math.round(480 * f), { kernel: f < 1 ? 'lanczos3' : 'cubic' })
        .png()
        .toBuffer();
      return Number((await runModel('grain-size', '20261125', png, {}, { pixelSizeUm: s.pixelSizeUm / f })).measurements.astmGIntercept);
    };
    const g1 = await at(1);
    expect(Math.abs(g1 - s.truth.astmGIntercept)).toBeLessThan(0.3);
    expect(Math.abs((await at(0.5)) - g1)).toBeLessThan(0.3);
    expect(Math.abs((await at(2)) - g1)).toBeLessThan(0.3);
  }, 120_000);
});
