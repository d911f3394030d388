// Annealing twins (grain size 20261201). ASTM E112 does not count twin boundaries. A twin band is recognised by its
// geometry: a region bounded on most of its border by two straight, parallel lines, with the same parent grain on
// both sides (the one grain it lies in, or two pieces of the parent it cuts apart, which look alike). Such a band is
// merged with the grain(s) across those lines. Lath structures (parallel laths of different orientation) are not
// merged: neighbouring laths do not look alike.
import type { Partition } from './partition.js';
import { unionFind } from './partition.js';
import { TWINS } from './tunables.js';

interface Segment {
  /** The neighbour across this straight piece of border. */
  other: number;
  /** Direction of the line (radians, 0..π) and its offset along the normal (px). */
  theta: number;
  nx: number;
  ny: number;
  offset: number;
  /** Border pixels on it, and its length along the line (px). */
  n: number;
  length: number;
}

/** A straight line through points (PCA): direction, normal, offset, residual rms, extent along it. */
function fitLine(xs: number[], ys: number[]) {
  const n = xs.length;
  let mx = 0,
    my = 0;
  for (let i = 0; i < n; i++) {
    mx += xs[i];
    my += ys[i];
  }
  mx /= n;
  my /= n;
  let sxx = 0,
    syy = 0,
    sxy = 0;
  for (let i = 0; i < n; i++) {
    const dx = xs[i] - mx,
      dy = ys[i] - my;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  const theta = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  const ux = Math.cos(theta),
    uy = Math.sin(theta);
  const nx = -uy,
    ny = ux;
  let r2 = 0,
    lo = Infinity,
    hi = -Infinity;
  for (let i = 0; i < n; i++) {
    const dx = xs[i] - mx,
      dy = ys[i] - my;
    const d = dx * nx + dy * ny;
    r2 += d * d;
    const t = dx * ux + dy * uy;
    if (t < lo) lo = t;
    if (t > hi) hi = t;
  }
  return { theta: (theta + Math.PI) % Math.PI, nx, ny, offset: mx * nx + my * ny, rms: Math.sqrt(r2 / n), length: hi - lo };
}

/** The straight pieces of one pair's border: none, one line, or two parallel lines (a band's two sides). */
function straightPieces(other: number, xs: number[], ys: number[]): Segment[] {
  if (xs.length < TWINS.minLinePx) return [];
  const f = fitLine(xs, ys);
  if (f.rms <= TWINS.maxLineRms && f.length >= TWINS.minLinePx) return [{ other, ...f, n: xs.length }];
  // two parallel lines: split by the side of the mean along the normal, then fit each
  const a: [number[], number[]] = [[], []],
    b: [number[], number[]] = [[], []];
  for (let i = 0; i < xs.length; i++) {
    const side = xs[i] * f.nx + ys[i] * f.ny < f.offset ? a : b;
    side[0].push(xs[i]);
    side[1].push(ys[i]);
  }
  const out: Segment[] = [];
  for (const [px, py] of [a, b]) {
    if (px.length < TWINS.minLinePx) return [];
    const g = fitLine(px, py);
    if (g.rms > TWINS.maxLineRms || g.length < TWINS.minLinePx) return [];
    out.push({ other, ...g, n: px.length });
  }
  return out;
}

/**
 * Merges twin bands into their parent grain (see the file's head). `rgb` (interleaved, same size) tells whether the
 * grains on both sides of a band look alike. Returns the relabelled partition and how many bands were merged.
 */
export function mergeTwinBands(p: Partition, rgb: Uint8Array, w: number, h: number): Partition & { twins: number } {
  const { labels, count } = p;
  // border points per ordered region pair (the point between the two pixels), total border per region
  const pts = new Map<number, { xs: number[]; ys: number[] }>();
  const border = new Float64Array(count + 1);
  const colour = new Float64Array(3 * (count + 1));
  const area = new Float64Array(count + 1);
  // along a border the same pair comes again and again: its two lists are kept at hand
  let lastA = -1,
    lastB = -1,
    eAB: { xs: number[]; ys: number[] } = { xs: [], ys: [] },
    eBA = eAB;
  const list = (r: number, o: number) => {
    const k = r * (count + 1) + o;
    let e = pts.get(k);
    if (!e) pts.set(k, (e = { xs: [], ys: [] }));
    return e;
  };
  const add = (a: number, b: number, x: number, y: number) => {
    if (a !== lastA || b !== lastB) {
      eAB = list(a, b);
      eBA = list(b, a);
      lastA = a;
      lastB = b;
    }
    eAB.xs.push(x);
    eAB.ys.push(y);
    border[a]++;
    eBA.xs.push(x);
    eBA.ys.push(y);
    border[b]++;
  };
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const l = labels[i];
      if (l <= 0) continue;
      area[l]++;
      for (let c = 0; c < 3; c++) colour[3 * l + c] += rgb[3 * i + c];
      if (x + 1 < w && labels[i + 1] > 0 && labels[i + 1] !== l) add(l, labels[i + 1], x + 0.5, y);
      if (y + 1 < h && labels[i + w] > 0 && labels[i + w] !== l) add(l, labels[i + w], x, y + 0.5);
    }
  for (let l = 1; l <= count; l++) for (let c = 0; c < 3; c++) colour[3 * l + c] /= Math.max(area[l], 1);
  const dist = (a: number, b: number) =>
    Math.hypot(colour[3 * a] - colour[3 * b], colour[3 * a + 1] - colour[3 * b + 1], colour[3 * a + 2] - colour[3 * b + 2]);
  // straight pieces of each region's borders
  const segs = new Map<number, Segment[]>();
  for (const [k, e] of pts) {
    const r = Math.floor(k / (count + 1)),
      o = k % (count + 1);
    const s = straightPieces(o, e.xs, e.ys);
    if (!s.length) continue;
    let list = segs.get(r);
    if (!list) segs.set(r, (list = []));
    list.push(...s);
  }
  const uf = unionFind(count);
  let twins = 0;
  for (const [r, list] of segs) {
    let best: [Segment, Segment] | null = null,
      bestN = 0;
    for (let i = 0; i < list.length; i++)
      for (let j = i + 1; j < list.length; j++) {
        const s1 = list[i],
          s2 = list[j];
        let dTheta = Math.abs(s1.theta - s2.theta);
        dTheta = Math.min(dTheta, Math.PI - dTheta);
        if (dTheta > TWINS.maxAngleRad) continue;
        // the band's width: the distance between the two lines along s1's normal
        const sign = s1.nx * s2.nx + s1.ny * s2.ny < 0 ? -1 : 1;
        const width = Math.abs(s1.offset - sign * s2.offset);
        const length = Math.min(s1.length, s2.length);
        if (width < TWINS.minWidthPx || width > TWINS.maxWidthToLength * length) continue;
        if (s1.n + s2.n > bestN) {
          best = [s1, s2];
          bestN = s1.n + s2.n;
        }
      }
    if (!best || bestN < TWINS.minBorderShare * border[r]) continue;
    const [s1, s2] = best;
    // the parent on both sides: one grain, or two pieces that look alike (a lath beside other laths does not)
    if (s1.other !== s2.other && dist(s1.other, s2.other) > Math.max(TWINS.sameColour, TWINS.sameColourShare * dist(r, s1.other))) continue;
    uf.union(r, s1.other);
    uf.union(r, s2.other);
    twins++;
  }
  return { ...uf.relabel(labels), twins };
}
