// Region merging on a region adjacency graph with a boundary-contrast test (colour path of the grain-size model):
// an over-segmentation into small regions is merged, weakest border first, while the colour step across the border
// (colours sampled a few pixels either side of it, averaged along the whole shared border) is below the contrast the
// image's grain boundaries have.

import { cv } from '../cv.js';
import { watershed } from '../cvops.js';
import type { Gray } from '../image.js';
import { quantile } from './common.js';

/** A binary min-heap of (key, a, b, id) entries. */
class Heap {
  private k: number[] = [];
  private v: [number, number, number][] = [];
  get size() {
    return this.k.length;
  }
  push(key: number, a: number, b: number, id: number) {
    const { k, v } = this;
    let i = k.length;
    k.push(key);
    v.push([a, b, id]);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (k[p] <= k[i]) break;
      this.swap(i, p);
      i = p;
    }
  }
  pop(): [number, number, number, number] {
    const { k, v } = this;
    const top: [number, number, number, number] = [k[0], ...v[0]];
    const lk = k.pop()!,
      lv = v.pop()!;
    if (k.length) {
      k[0] = lk;
      v[0] = lv;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1,
          r = l + 1;
        let m = i;
        if (l < k.length && k[l] < k[m]) m = l;
        if (r < k.length && k[r] < k[m]) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return top;
  }
  private swap(i: number, j: number) {
    const { k, v } = this;
    [k[i], k[j]] = [k[j], k[i]];
    [v[i], v[j]] = [v[j], v[i]];
  }
}

/** A border between regions a and b: line pixels and the colour samples on either side (sums and counts). */
interface Border {
  a: number;
  b: number;
  px: number;
  sa: Float64Array;
  sb: Float64Array;
}

export interface MergeOptions {
  /** Colour step (feature units) across a border below which it is no grain boundary. */
  contrast: number;
  /** Mean colours further apart than this never merge (step 1). */
  meanContrast?: number;
  /** Distance (px) from the dividing line at which the two sides' colours are sampled. */
  reach: number;
  /** Regions under this fraction of the area-weighted mean region area join the neighbour across their weakest border. */
  minAreaFraction?: number;
  /** Regions narrower (2·area / border length) than this fraction of the area-weighted mean width join a neighbour. */
  thinFraction?: number;
  /** Per pixel, the image's local colour contrast: contrast and meanContrast are then multiples of its mean over the two regions. */
  localScale?: Float32Array;
}

/**
 * Merges the regions of `ws` (labels 1..n, 0 for the dividing line pixels, as a marker watershed leaves them; `feat`
 * 3 values per pixel) and returns labels where every merged grain carries the label of one of its regions (lines
 * stay 0).
 */
export function mergeRegionGraph(ws: Int32Array, n: number, feat: ArrayLike<number>, w: number, h: number, o: MergeOptions): Int32Array {
  const N = w * h;
  const area = new Float64Array(n + 1);
  const mean = new Float64Array(3 * (n + 1));
  const scale = new Float64Array(n + 1);
  for (let i = 0; i < N; i++) {
    const l = ws[i];
    if (l <= 0) continue;
    area[l]++;
    scale[l] += o.localScale ? o.localScale[i] : 1;
    for (let c = 0; c < 3; c++) mean[3 * l + c] += feat[3 * i + c];
  }
  const adj: Map<number, Border>[] = Array.from({ length: n + 1 }, () => new Map());
  const border = (u: number, v: number): Border => {
    let e = adj[u].get(v);
    if (!e) {
      e = { a: u, b: v, px: 0, sa: new Float64Array(4), sb: new Float64Array(4) };
      adj[u].set(v, e);
      adj[v].set(u, e);
    }
    return e;
  };
  const side = (e: Border, R: number) => (e.a === R ? e.sa : e.sb);
  const nb = [0, 0, 0, 0];
  const r = Math.max(1, Math.round(o.reach));
  const sample = (e: Border, R: number, i: number) => {
    const s = side(e, R);
    for (let c = 0; c < 3; c++) s[c] += feat[3 * i + c];
    s[3]++;
  };
  for (let y = 1; y < h - 1; y++)
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      if (ws[i] !== 0) continue;
      let m = 0;
      nb.fill(0);
      for (const v of [ws[i - 1], ws[i + 1], ws[i - w], ws[i + w]]) if (v > 0 && nb.indexOf(v) < 0) nb[m++] = v;
      for (let p = 0; p < m; p++) for (let q = p + 1; q < m; q++) border(nb[p], nb[q]).px++;
      // the colours r px either side of the line, across it
      if (x >= r && x + r < w) {
        const u = ws[i - r],
          v = ws[i + r];
        if (u > 0 && v > 0 && u !== v && adj[u].has(v)) {
          const e = adj[u].get(v)!;
          sample(e, u, i - r);
          sample(e, v, i + r);
        }
      }
      if (y >= r && y + r < h) {
        const u = ws[i - r * w],
          v = ws[i + r * w];
        if (u > 0 && v > 0 && u !== v && adj[u].has(v)) {
          const e = adj[u].get(v)!;
          sample(e, u, i - r * w);
          sample(e, v, i + r * w);
        }
      }
    }
  const parent = new Int32Array(n + 1);
  for (let i = 0; i <= n; i++) parent[i] = i;
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  };
  /** Colour step across a border: its side samples when it has some, else the regions' mean colours. */
  const step = (e: Border) => {
    let d = 0;
    if (e.sa[3] > 0 && e.sb[3] > 0) for (let c = 0; c < 3; c++) d += (e.sa[c] / e.sa[3] - e.sb[c] / e.sb[3]) ** 2;
    else for (let c = 0; c < 3; c++) d += (mean[3 * e.a + c] / area[e.a] - mean[3 * e.b + c] / area[e.b]) ** 2;
    return Math.sqrt(d);
  };
  const meanDiff = (A: number, B: number) => {
    let d = 0;
    for (let c = 0; c < 3; c++) d += (mean[3 * A + c] / area[A] - mean[3 * B + c] / area[B]) ** 2;
    return Math.sqrt(d);
  };
  const stamp = new Int32Array(n + 1);
  const heap = new Heap();
  const sA: number[] = [],
    sB: number[] = [];
  const push = (A: number) => {
    for (const [B, e] of adj[A]) {
      const u = (scale[A] + scale[B]) / (area[A] + area[B]);
      if (o.meanContrast !== undefined && meanDiff(A, B) > u * o.meanContrast) continue;
      heap.push(step(e) / u - o.contrast, A, B, sA.length);
      sA.push(stamp[A]);
      sB.push(stamp[B]);
    }
  };
  const merge = (A: number, B: number) => {
    parent[B] = A;
    area[A] += area[B];
    scale[A] += scale[B];
    for (let c = 0; c < 3; c++) mean[3 * A + c] += mean[3 * B + c];
    adj[A].delete(B);
    for (const [C, e] of adj[B]) {
      if (C === A) continue;
      adj[C].delete(B);
      const f = adj[A].get(C);
      if (f) {
        f.px += e.px;
        const fa = side(f, A),
          fc = side(f, C),
          eb = side(e, B),
          ec = side(e, C);
        for (let k = 0; k < 4; k++) {
          fa[k] += eb[k];
          fc[k] += ec[k];
        }
      } else {
        if (e.a === B) e.a = A;
        else e.b = A;
        adj[A].set(C, e);
        adj[C].set(A, e);
      }
    }
    adj[B].clear();
    stamp[A]++;
    stamp[B]++;
  };
  for (let A = 1; A <= n; A++) if (area[A] > 0) push(A);
  while (heap.size) {
    const [key, A, B, id] = heap.pop();
    if (key > 0) break;
    if (sA[id] !== stamp[A] || sB[id] !== stamp[B] || parent[A] !== A || parent[B] !== B) continue;
    merge(A, B);
    push(A);
  }
  // small leftovers (specks, texture cells) join the neighbour across their weakest border
  let s1 = 0,
    s2 = 0;
  for (let A = 1; A <= n; A++)
    if (parent[A] === A && area[A] > 0) {
      s1 += area[A];
      s2 += area[A] ** 2;
    }
  const minArea = s1 ? ((o.minAreaFraction ?? 0.15) * s2) / s1 : 0;
  // thin regions (mean width 2·area / border length) — bands along a boundary, as ringing or a mixed colour leaves
  // them — join a neighbour too
  const perimeter = (A: number) => {
    let p = 0;
    for (const e of adj[A].values()) p += e.px;
    return Math.max(1, p);
  };
  let t1 = 0;
  for (let A = 1; A <= n; A++) if (parent[A] === A && area[A] > 0) t1 += area[A] * ((2 * area[A]) / perimeter(A));
  const minWidth = s1 ? ((o.thinFraction ?? 0) * t1) / s1 : 0;
  const small = (A: number) => area[A] < minArea || (2 * area[A]) / perimeter(A) < minWidth;
  for (let pass = 0; pass < 4; pass++) {
    const list: number[] = [];
    for (let A = 1; A <= n; A++) if (parent[A] === A && area[A] > 0 && small(A)) list.push(A);
    if (!list.length) break;
    list.sort((x, y) => area[x] - area[y]);
    let merges = 0;
    for (const A0 of list) {
      const A = find(A0);
      if (!small(A)) continue;
      let best = -1,
        bd = Infinity;
      for (const [B, e] of adj[A]) {
        const d = step(e);
        if (d < bd) {
          bd = d;
          best = B;
        }
      }
      if (best < 0) continue;
      if (area[best] >= area[A]) merge(best, A);
      else merge(A, best);
      merges++;
    }
    if (!merges) break;
  }
  const out = new Int32Array(N);
  for (let i = 0; i < N; i++) out[i] = ws[i] > 0 ? find(ws[i]) : 0;
  return out;
}

/**
 * Over-segmentation of a 3-feature image (colour, or the lamella direction) into cells `cell` px apart: the relief is
 * the features' gradient (Sobel, scaled by its 98th percentile); one marker per cell of a grid centred on the field
 * (the same cells after a mirror or a quarter turn) at the cell's lowest relief; marker watershed. Labels 1..count,
 * 0 on the dividing lines and outside `valid`.
 */
export function cellWatershed(feat: Float32Array, w: number, h: number, valid: Uint8Array, cell: number): { labels: Int32Array; count: number } {
  const N = w * h;
  const c = cv();
  const m = new c.Mat(h, w, c.CV_32FC3);
  (m.data32F as Float32Array).set(feat);
  const gx = new c.Mat(),
    gy = new c.Mat();
  c.Sobel(m, gx, c.CV_32F, 1, 0, 3);
  c.Sobel(m, gy, c.CV_32F, 0, 1, 3);
  const gxd = gx.data32F as Float32Array,
    gyd = gy.data32F as Float32Array;
  const grad = new Float32Array(N);
  for (let i = 0, j = 0; i < N; i++, j += 3)
    grad[i] = Math.sqrt(gxd[j] ** 2 + gxd[j + 1] ** 2 + gxd[j + 2] ** 2 + gyd[j] ** 2 + gyd[j + 1] ** 2 + gyd[j + 2] ** 2);
  [m, gx, gy].forEach((x) => x.delete());
  const gq = Math.max(quantile(grad, 0.98), 1);
  const relief: Gray = { width: w, height: h, data: new Uint8Array(N) };
  for (let i = 0; i < N; i++) relief.data[i] = Math.min(255, Math.round((255 * grad[i]) / gq));
  const markers = new Int32Array(N);
  const oy = (Math.ceil(h / cell) * cell - h) / 2,
    ox = (Math.ceil(w / cell) * cell - w) / 2;
  let n = 0;
  for (let cy = 0; cy * cell - oy < h; cy++)
    for (let cx = 0; cx * cell - ox < w; cx++) {
      let best = -1,
        bv = 256;
      const y1 = Math.min(h, Math.round((cy + 1) * cell - oy)),
        x1 = Math.min(w, Math.round((cx + 1) * cell - ox));
      for (let y = Math.max(0, Math.round(cy * cell - oy)); y < y1; y++)
        for (let x = Math.max(0, Math.round(cx * cell - ox)); x < x1; x++) {
          const i = y * w + x;
          if (valid[i] && relief.data[i] < bv) {
            bv = relief.data[i];
            best = i;
          }
        }
      if (best >= 0) markers[best] = ++n;
    }
  const excluded = n + 1;
  for (let i = 0; i < N; i++) if (!valid[i]) markers[i] = excluded;
  const ws = watershed(relief, markers);
  for (let i = 0; i < N; i++) if (ws[i] === excluded || ws[i] < 0) ws[i] = 0;
  return { labels: ws, count: n };
}
