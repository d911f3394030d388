import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { initCv } from '../cv.js';
import { terminateOcr } from '../ocr.js';
import { grainImage } from '../synth/index.js';
import { segmentGrainsLearned } from './grains.js';
import { networkSession, runTiled } from './network.js';
import { GROUPS, orientationsFor, runOriented, sourceIndex } from './orient.js';
import { grainNetworkFile, NETWORK, ORIENTATIONS } from './tunables.js';

beforeAll(() => initCv());
afterAll(() => terminateOcr());

/** The image in orientation t (the same gather the runs use), as a plain array of w×h values. */
const oriented = (plane: ArrayLike<number>, t: number, w: number, h: number) => {
  const { W, H, src } = sourceIndex(t, w, h);
  return { W, H, data: Array.from(src, (s) => plane[s]) };
};

describe('orientations of the pixel grid', () => {
  // a 3×2 image whose pixels are numbered 0..5 in raster order:  0 1 2 / 3 4 5
  const img = [0, 1, 2, 3, 4, 5];

  it('mirrors, turns and transposes as named', () => {
    expect(oriented(img, 0, 3, 2)).toEqual({ W: 3, H: 2, data: [0, 1, 2, 3, 4, 5] });
    expect(oriented(img, 1, 3, 2).data).toEqual([2, 1, 0, 5, 4, 3]); // mirrored in x
    expect(oriented(img, 2, 3, 2).data).toEqual([3, 4, 5, 0, 1, 2]); // mirrored in y
    expect(oriented(img, 3, 3, 2).data).toEqual([5, 4, 3, 2, 1, 0]); // half turn
    expect(oriented(img, 4, 3, 2)).toEqual({ W: 2, H: 3, data: [0, 3, 1, 4, 2, 5] }); // transposed
  });

  it('each of the eight is a one-to-one map; the quarter turn four times and the groups are closed', () => {
    for (let t = 0; t < 8; t++) expect(new Set(sourceIndex(t, 3, 2).src).size).toBe(6);
    // turning four times by the same quarter turn gives the image back
    let q = { W: 3, H: 2, data: img };
    for (let k = 0; k < 4; k++) q = oriented(q.data, 5, q.W, q.H);
    expect(q.data).toEqual(img);
    // composing two orientations of a group gives one of the group (on a non-square image the sizes follow)
    const key = (d: number[]) => d.join(',');
    const sq = Array.from({ length: 16 }, (_, i) => i);
    for (const g of GROUPS) {
      const inGroup = new Set(g.map((t) => key(oriented(sq, t, 4, 4).data)));
      for (const a of g) for (const b of g) expect(inGroup.has(key(oriented(oriented(sq, a, 4, 4).data, b, 4, 4).data))).toBe(true);
    }
  });

  it('chooses the largest group whose network pixels fit the budget', () => {
    const B = ORIENTATIONS.budgetPixels;
    expect(orientationsFor(B / 8)).toHaveLength(8);
    expect(orientationsFor(B / 8 + 1)).toEqual([0, 3, 5, 6]);
    expect(orientationsFor(B / 2)).toEqual([0, 3]);
    expect(orientationsFor(B)).toEqual([0]);
    expect(orientationsFor(4 * B)).toEqual([0]);
  });
});

describe('the network averaged over orientations', () => {
  it('gives a rotated image the rotated answer; one orientation does not', async () => {
    const s = await grainImage({ width: 160, height: 96, grainPx: 24, seed: 9, noise: 6 });
    const { data, info } = await sharp(s.png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const w = info.width,
      h = info.height;
    const rgb = new Uint8Array(w * h * 3).map((_, i) => data[Math.floor(i / 3) * info.channels + (info.channels === 3 ? i % 3 : 0)]);
    const valid = new Uint8Array(w * h).fill(1);
    // the image turned a quarter (orientation 5), as RGB
    const { W, H, src } = sourceIndex(5, w, h);
    const turned = new Uint8Array(3 * W * H);
    src.forEach((p, k) => turned.set(rgb.subarray(3 * p, 3 * p + 3), 3 * k));
    const session = await networkSession(grainNetworkFile('20261208'));
    const all = GROUPS[0];
    const [a] = await runOriented(session, rgb, w, h, valid, NETWORK.balancedTile, NETWORK.overlap, true, all);
    const [b] = await runOriented(session, turned, W, H, new Uint8Array(W * H).fill(1), NETWORK.balancedTile, NETWORK.overlap, true, all);
    const [a1] = await runTiled(session, rgb, w, h, valid, NETWORK.balancedTile, NETWORK.overlap, true);
    const [b1] = await runTiled(session, turned, W, H, null, NETWORK.balancedTile, NETWORK.overlap, true);
    // the turned image's answer, turned back, against the image's own
    const gap = (p: Float32Array, q: Float32Array) => {
      let m = 0;
      src.forEach((s0, k) => (m = Math.max(m, Math.abs(q[k] - p[s0]))));
      return m;
    };
    expect(gap(a, b)).toBeLessThan(1e-4);
    expect(gap(a1, b1)).toBeGreaterThan(0.05);
  });

  it('20261208 averages every pass over all eight where the grains are few, and leaves a field of many grains as 20261207 read it', async () => {
    const rgbOf = async (png: Buffer) => {
      const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const rgb = new Uint8Array(info.width * info.height * 3).map(
        (_, i) => data[Math.floor(i / 3) * info.channels + (info.channels === 3 ? i % 3 : 0)],
      );
      return { rgb, w: info.width, h: info.height, valid: new Uint8Array(info.width * info.height).fill(1) };
    };
    const few = await rgbOf((await grainImage({ width: 320, height: 200, grainPx: 26, seed: 12, noise: 8, scaleBar: null })).png);
    const a = await segmentGrainsLearned(few.rgb, few.w, few.h, few.valid, { version: '20261208' });
    const a0 = await segmentGrainsLearned(few.rgb, few.w, few.h, few.valid, { version: '20261207' });
    // the first pass once alone (to foresee the working image), then every pass in eight orientations
    expect((a.passes - 1) % 8).toBe(0);
    expect((a.passes - 1) / 8).toBe(a0.passes);
    expect(Math.abs(a.count - a0.count) / a0.count).toBeLessThan(0.1);
    // many grains: a working image over the budget runs one orientation, and the grains are 20261207's
    const many = await rgbOf((await grainImage({ width: 1400, height: 1000, grainPx: 26, seed: 3, noise: 8, scaleBar: null })).png);
    const b = await segmentGrainsLearned(many.rgb, many.w, many.h, many.valid, { version: '20261208' });
    const b0 = await segmentGrainsLearned(many.rgb, many.w, many.h, many.valid, { version: '20261207' });
    expect(b.scale ** 2 * many.w * many.h).toBeGreaterThan(ORIENTATIONS.budgetPixels / 2);
    expect(b.passes).toBe(b0.passes);
    expect(b.count).toBe(b0.count);
    expect(Buffer.from(b.labels.buffer).equals(Buffer.from(b0.labels.buffer))).toBe(true);
  }, 60_000);
});
