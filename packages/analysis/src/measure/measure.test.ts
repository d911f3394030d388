import { describe, expect, it } from 'vitest';
import { astmGFromIntercept, astmGFromNA, jeffriesCount, meanIntercept } from './astm.js';
import { skeletonize, skeletonLength } from './skeleton.js';
import { crossing, fitLine, perpendicularThickness } from './thickness.js';

/** Label image of a regular grid of square grains (cell px), no boundary pixels. */
function squareGrains(w: number, h: number, cell: number) {
  const labels = new Int32Array(w * h);
  const cols = Math.ceil(w / cell);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) labels[y * w + x] = Math.floor(y / cell) * cols + Math.floor(x / cell) + 1;
  return { labels, n: cols * Math.ceil(h / cell) };
}

describe('ASTM E112 formulas', () => {
  it('match the E112 table anchors', () => {
    // G = 1 ↔ 15.50 grains/mm² at 1×; G = 0 ↔ mean intercept 0.320 mm
    expect(astmGFromNA(15.5)).toBeCloseTo(1, 2);
    expect(astmGFromNA(15.5 * 2 ** 7)).toBeCloseTo(8, 2);
    expect(astmGFromIntercept(0.32)).toBeCloseTo(0, 2);
    expect(astmGFromIntercept(0.32 / 2 ** 4)).toBeCloseTo(8, 2);
  });
});

describe('Jeffries planimetric count', () => {
  it('counts inside grains 1 and border grains ½ on a grid of squares', () => {
    // 100×80 with 20 px cells offset so that the outer ring is cut: 5×4 cells, 6 inside (3×2), 14 border
    const { labels, n } = squareGrains(100, 80, 20);
    const r = jeffriesCount(labels, 100, 80, null, n);
    expect(r.inside).toBe(6);
    expect(r.border).toBe(14);
    expect(r.jeffries).toBe(13);
  });
  it('treats grains next to an excluded region as border grains', () => {
    const { labels, n } = squareGrains(100, 80, 20);
    const valid = new Uint8Array(100 * 80).fill(1);
    for (let y = 40; y < 60; y++) for (let x = 40; x < 60; x++) valid[y * 100 + x] = 0; // one inside cell excluded
    const r = jeffriesCount(labels, 100, 80, valid, n);
    // the excluded cell vanishes, its 4-neighbours inside become border grains
    expect(r.inside + r.border).toBe(19);
    expect(r.inside).toBe(2);
  });
});

describe('mean lineal intercept', () => {
  it('equals the cell size on square grains', () => {
    const { labels } = squareGrains(200, 200, 25);
    const r = meanIntercept(labels, 200, 200, null, 5);
    // each line of 200 px crosses 7 boundaries: L̄ = 200/7
    expect(r.meanInterceptPx).toBeCloseTo(200 / 7, 6);
  });
  it('ignores 1-px label flicker along a boundary', () => {
    const w = 60,
      h = 1;
    const labels = new Int32Array(w);
    for (let x = 0; x < w; x++) labels[x] = x < 30 ? 1 : 2;
    labels[10] = 2; // flicker
    expect(meanIntercept(labels, w, h, null, 1, 3).intersections).toBe(1);
  });
});

describe('skeleton length', () => {
  it('thins a thick disc ring to a 1-px curve of length 2πR (±3 %)', () => {
    const w = 240,
      h = 240,
      R = 90;
    const m = new Uint8Array(w * h);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const d = Math.hypot(x - 120, y - 120);
        if (Math.abs(d - R) <= 2.5) m[y * w + x] = 1;
      }
    const s = skeletonize(m, w, h);
    let n = 0;
    for (let i = 0; i < s.length; i++) n += s[i];
    expect(n).toBeLessThan(2 * Math.PI * R * 1.2);
    expect(skeletonLength(s, w, h).total).toBeGreaterThan(2 * Math.PI * R * 0.97);
    expect(skeletonLength(s, w, h).total).toBeLessThan(2 * Math.PI * R * 1.03);
  });
  it('measures straight lines of random orientation without bias (±3 % on average)', () => {
    let ratio = 0;
    const K = 12;
    for (let k = 0; k < K; k++) {
      const a = (k / K) * Math.PI,
        L = 150,
        w = 220,
        h = 220;
      const m = new Uint8Array(w * h);
      for (let t = 0; t <= L; t += 0.2) {
        const x = Math.round(110 + (t - L / 2) * Math.cos(a)),
          y = Math.round(110 + (t - L / 2) * Math.sin(a));
        m[y * w + x] = 1;
      }
      ratio += skeletonLength(skeletonize(m, w, h), w, h).total / L;
    }
    expect(ratio / K).toBeGreaterThan(0.97);
    expect(ratio / K).toBeLessThan(1.03);
  });
});

describe('thickness profile', () => {
  it('gives the perpendicular thickness of a tilted band', () => {
    const t = 50,
      tilt = (5 * Math.PI) / 180;
    const xs: number[] = [],
      top: number[] = [],
      bottom: number[] = [];
    for (let x = 0; x < 400; x++) {
      xs.push(x);
      top.push(100 + x * Math.tan(tilt));
      bottom.push(100 + x * Math.tan(tilt) + t / Math.cos(tilt));
    }
    const r = perpendicularThickness(xs, top, bottom);
    expect(r.tiltDeg).toBeCloseTo(5, 6);
    for (const v of r.thickness) expect(v).toBeCloseTo(t, 6);
  });
  it('fits lines and finds sub-pixel crossings', () => {
    const f = fitLine([0, 1, 2, 3], [1, 3, 5, 7]);
    expect(f.a).toBeCloseTo(1);
    expect(f.b).toBeCloseTo(2);
    expect(crossing(20, 220, 120)).toBeCloseTo(0.5);
  });
});

/** The original per-pixel Jeffries classification: the reference for the faster edge/exclusion walk. */
function jeffriesReference(
  labels: Int32Array,
  w: number,
  h: number,
  valid: Uint8Array | null,
  nLabels: number,
  margin = 0,
): { inside: number; border: number; kind: Uint8Array; area: Float64Array } {
  const kind = new Uint8Array(nLabels + 1);
  const area = new Float64Array(nLabels + 1);
  const isValid = (i: number) => !valid || valid[i] === 1;
  const m = margin;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const l = labels[i];
      if (l <= 0 || !isValid(i)) continue;
      area[l]++;
      if (kind[l] === 2) continue;
      kind[l] = 1;
      if (x <= m || y <= m || x >= w - 1 - m || y >= h - 1 - m) {
        kind[l] = 2;
        continue;
      }
      if (valid) {
        for (let d = 1; d <= m + 1; d++)
          if (!valid[i - d] || !valid[i + d] || !valid[i - d * w] || !valid[i + d * w]) {
            kind[l] = 2;
            break;
          }
      }
    }
  }
  let inside = 0,
    border = 0;
  for (let l = 1; l <= nLabels; l++) {
    if (kind[l] === 1) inside++;
    else if (kind[l] === 2) border++;
  }
  return { inside, border, kind, area };
}

describe('jeffriesCount equals the per-pixel reference', () => {
  it('on random labels with excluded blocks and margins', () => {
    let seed = 5;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let t = 0; t < 6; t++) {
      const w = 60 + t * 7,
        h = 40 + t * 5,
        n = 30;
      const labels = new Int32Array(w * h);
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) labels[y * w + x] = rnd() < 0.1 ? 0 : 1 + ((Math.floor(x / 9) + Math.floor(y / 7) * 7) % n);
      const valid = new Uint8Array(w * h).fill(1);
      for (let b = 0; b < t; b++) {
        const x0 = Math.floor(rnd() * w),
          y0 = Math.floor(rnd() * h);
        for (let y = y0; y < Math.min(h, y0 + 6); y++) for (let x = x0; x < Math.min(w, x0 + 8); x++) valid[y * w + x] = 0;
      }
      for (const m of [0, 2])
        for (const v of [valid, null]) {
          const a = jeffriesCount(labels, w, h, v, n, m),
            r = jeffriesReference(labels, w, h, v, n, m);
          expect([a.inside, a.border, Array.from(a.kind), Array.from(a.area)]).toEqual([r.inside, r.border, Array.from(r.kind), Array.from(r.area)]);
        }
    }
  });
});
