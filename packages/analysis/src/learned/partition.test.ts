import { beforeAll, describe, expect, it } from 'vitest';
import { initCv } from '../cv.js';
import { coreSeeds, flood, meanInterceptOf, mergeWeakBorders } from './partition.js';
import { workingScale } from './grains.js';
import { WORKING_SCALE } from './tunables.js';

beforeAll(() => initCv());

/** A probability map with boundary ridges (1.0) at the given columns and rows, 0.05 elsewhere. */
function ridges(w: number, h: number, cols: number[], rows: number[], value = 1): Float32Array {
  const p = new Float32Array(w * h).fill(0.05);
  for (let y = 0; y < h; y++) for (const x of cols) p[y * w + x] = value;
  for (const y of rows) for (let x = 0; x < w; x++) p[y * w + x] = value;
  return p;
}

describe('learned partition', () => {
  it('floods every valid pixel from the basins: a zero-width partition', () => {
    const w = 60,
      h = 40;
    const p = ridges(w, h, [20, 40], [20]);
    const s = coreSeeds(p, w, h, null, 0.5);
    expect(s.count).toBe(6);
    flood(p, w, h, null, s.labels);
    expect([...s.labels].every((l) => l > 0)).toBe(true);
    // the ridge pixels went to one side or the other; each column left of the ridge keeps its grain
    expect(s.labels[5 * w + 5]).not.toBe(s.labels[5 * w + 30]);
    expect(s.labels[5 * w + 5]).toBe(s.labels[15 * w + 15]);
    // mean intercept: 2 column changes per row over 59 steps, 1 row change per column over 39 steps
    const L = meanInterceptOf(s.labels, w, h, null);
    expect(L).toBeCloseTo((h * (w - 1) + w * (h - 1)) / (h * 2 + w * 1), 5);
  });

  it('leaves pixels outside the analysed area unlabelled and never floods across them', () => {
    const w = 30,
      h = 10;
    const p = new Float32Array(w * h).fill(0.1);
    const valid = new Uint8Array(w * h).fill(1);
    for (let y = 0; y < h; y++) valid[y * w + 15] = 0;
    const s = coreSeeds(p, w, h, valid, 0.5);
    expect(s.count).toBe(2);
    flood(p, w, h, valid, s.labels);
    for (let y = 0; y < h; y++) expect(s.labels[y * w + 15]).toBe(0);
  });

  it('gives each side of a boundary with a gap its own seed, and joins a grain parted only at a neck', () => {
    const w = 80,
      h = 40;
    // a boundary at x = 40 with a 6 px gap in the middle: the interior is one piece, but two cores
    const p = ridges(w, h, [40], []);
    for (let y = 17; y < 23; y++) p[y * w + 40] = 0.05;
    const s = coreSeeds(p, w, h, null, 0.5);
    expect(s.count).toBe(2);
    flood(p, w, h, null, s.labels);
    const m = mergeWeakBorders(s, p, w, h, 0.4);
    expect(m.count).toBe(2);
    expect(m.labels[5 * w + 10]).not.toBe(m.labels[5 * w + 70]);
    // the same interior without the boundary: the neck-free field is one grain after the merge
    const q = new Float32Array(w * h).fill(0.05);
    const t = coreSeeds(q, w, h, null, 0.5);
    flood(q, w, h, null, t.labels);
    expect(mergeWeakBorders(t, q, w, h, 0.4).count).toBe(1);
  });

  it('merges grains parted by a weak border and keeps those parted by a strong one', () => {
    const w = 60,
      h = 20;
    const p = ridges(w, h, [20], []);
    for (let y = 0; y < h; y++) p[y * w + 40] = 0.52; // barely a boundary
    const s = coreSeeds(p, w, h, null, 0.5);
    flood(p, w, h, null, s.labels);
    expect(s.count).toBe(3);
    const m = mergeWeakBorders(s, p, w, h, 0.6);
    expect(m.count).toBe(2);
    expect(m.labels[5 * w + 30]).toBe(m.labels[5 * w + 50]);
    expect(m.labels[5 * w + 5]).not.toBe(m.labels[5 * w + 50]);
  });

  it('merges on the median of the border: more than half of its values below the threshold, the upper median of an even count', () => {
    // two grains side by side (columns 0–1 and 2–3), their border 4 pixel pairs long (one per row)
    const w = 4,
      h = 4;
    const labels = () => Int32Array.from({ length: w * h }, (_, i) => (i % w < 2 ? 1 : 2));
    const border = (values: number[]) => {
      const p = new Float32Array(w * h);
      values.forEach((v, y) => (p[y * w + 1] = v));
      return p;
    };
    // sorted 0.1 0.2 0.7 0.8: the median taken is 0.7, not below 0.5 → kept apart
    expect(mergeWeakBorders({ labels: labels(), count: 2 }, border([0.8, 0.1, 0.7, 0.2]), w, h, 0.5).count).toBe(2);
    // 0.1 0.2 0.3 0.8: three of four below → merged
    expect(mergeWeakBorders({ labels: labels(), count: 2 }, border([0.8, 0.1, 0.3, 0.2]), w, h, 0.5).count).toBe(1);
    // a value equal to the threshold is not below it
    expect(mergeWeakBorders({ labels: labels(), count: 2 }, border([0.5, 0.5, 0.5, 0.1]), w, h, 0.5).count).toBe(2);
  });

  it('floods from a seed the caller placed outside the analysed area, and leaves the other outside pixels 0', () => {
    const w = 10,
      h = 3;
    const p = new Float32Array(w * h).fill(0.1);
    const valid = new Uint8Array(w * h).fill(1);
    valid[0] = valid[w - 1] = 0;
    const labels = new Int32Array(w * h);
    labels[0] = 7; // a seed on an invalid pixel still floods its valid neighbours
    flood(p, w, h, valid, labels);
    expect(labels[0]).toBe(7);
    expect(labels[w - 1]).toBe(0);
    expect([...labels].filter((l, i) => valid[i]).every((l) => l === 7)).toBe(true);
  });

  it('picks the working scale that puts the mean intercept at the target, within bounds', () => {
    const T = WORKING_SCALE.targetInterceptPx;
    expect(workingScale(2 * T, 2000, 2000)).toBeCloseTo(0.5, 5);
    expect(workingScale(T / 1.5, 1000, 1000)).toBeCloseTo(1.5, 5);
    expect(workingScale(T / 10, 1000, 1000)).toBe(WORKING_SCALE.maxUpscale);
    // never below the short-side floor
    expect(workingScale(100 * T, 1000, 800)).toBeCloseTo(WORKING_SCALE.minShortSidePx / 800, 5);
    // a 24 MP image is not enlarged past the working-pixel bound
    expect(workingScale(T / 2, 6000, 4000)).toBeCloseTo(Math.sqrt(WORKING_SCALE.maxWorkingPixels / 24e6), 5);
    // no boundaries at all: the smallest scale
    expect(workingScale(Infinity, 1000, 1000)).toBeCloseTo(WORKING_SCALE.minShortSidePx / 1000, 5);
  });
});
