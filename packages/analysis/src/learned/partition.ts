// Closed grains from a boundary probability map: a zero-width partition (every analysed pixel belongs to one grain)
// flooded from the basins of the map, so the E112 counts see each boundary as a label change, not as a band.
import { components } from '../cvops.js';

export interface Partition {
  /** 1..count for grains, 0 outside the analysed area. */
  labels: Int32Array;
  count: number;
}

/**
 * Seeds: connected pieces (8-connected) of valid pixels with probability below `seedBelow`, at least `minArea` px.
 * Returns seed labels (0 elsewhere) and their count.
 */
export function seedsOf(prob: Float32Array, w: number, h: number, valid: Uint8Array | null, seedBelow: number, minArea: number): Partition {
  const mask = new Uint8Array(w * h);
  for (let i = 0; i < mask.length; i++) mask[i] = (!valid || valid[i]) && prob[i] < seedBelow ? 1 : 0;
  const cc = components(mask, w, h, 8);
  const map = new Int32Array(cc.count + 1);
  let n = 0;
  for (let l = 1; l <= cc.count; l++) if (cc.area[l] >= minArea) map[l] = ++n;
  const labels = cc.labels;
  for (let i = 0; i < labels.length; i++) labels[i] = map[labels[i]];
  return { labels, count: n };
}

/**
 * Marker flooding (watershed by priority) of `prob` from the seeds in `labels` (modified in place): every valid
 * unlabelled pixel gets the label of the seed that reaches it over the lowest probability, 4-connected. A bucket
 * queue over `levels` probability levels keeps it linear in the number of pixels. Valid pixels no seed reaches
 * (an area without any seed) stay 0.
 */
export function flood(prob: Float32Array, w: number, h: number, valid: Uint8Array | null, labels: Int32Array, levels = 256): void {
  const N = w * h;
  const level = (i: number) => Math.min(levels - 1, Math.max(0, Math.floor(prob[i] * levels)));
  // bucket queue: per level a growable list of pixel indices
  const buckets: Int32Array[] = Array.from({ length: levels }, () => new Int32Array(64));
  const sizes = new Int32Array(levels);
  const heads = new Int32Array(levels);
  const queued = new Uint8Array(N);
  const push = (i: number, lv: number) => {
    let b = buckets[lv];
    if (sizes[lv] === b.length) {
      const nb = new Int32Array(b.length * 2);
      nb.set(b);
      buckets[lv] = b = nb;
    }
    b[sizes[lv]++] = i;
  };
  const visit = (j: number, from: number, lv: number) => {
    if (queued[j] || labels[j] !== 0 || (valid && !valid[j])) return;
    queued[j] = 1;
    labels[j] = -labels[from]; // tentative: claimed by the first seed to reach it
    push(j, Math.max(lv, level(j)));
  };
  for (let i = 0; i < N; i++) {
    if (labels[i] <= 0) continue;
    const y = (i / w) | 0,
      x = i - y * w;
    const lv = level(i);
    if (x > 0) visit(i - 1, i, lv);
    if (x + 1 < w) visit(i + 1, i, lv);
    if (y > 0) visit(i - w, i, lv);
    if (y + 1 < h) visit(i + w, i, lv);
  }
  for (let lv = 0; lv < levels; lv++) {
    while (heads[lv] < sizes[lv]) {
      const i = buckets[lv][heads[lv]++];
      labels[i] = -labels[i];
      const y = (i / w) | 0,
        x = i - y * w;
      if (x > 0) visit(i - 1, i, lv);
      if (x + 1 < w) visit(i + 1, i, lv);
      if (y > 0) visit(i - w, i, lv);
      if (y + 1 < h) visit(i + w, i, lv);
      // a push at a lower level than the current one cannot happen (max(lv, …)), so the order is monotone
    }
    buckets[lv] = new Int32Array(0);
  }
}

/**
 * Merges neighbouring grains whose shared border (pixel pairs with different labels, 4-connected) has a mean boundary
 * probability below `mergeBelow`: the seeds were parted by noise, not by a boundary. Relabels 1..count.
 */
export function mergeWeakBorders(p: Partition, prob: Float32Array, w: number, h: number, mergeBelow: number): Partition {
  const { labels, count } = p;
  const sum = new Map<number, number>(),
    num = new Map<number, number>();
  const add = (a: number, b: number, v: number) => {
    if (a <= 0 || b <= 0 || a === b) return;
    const k = a < b ? a * (count + 1) + b : b * (count + 1) + a;
    sum.set(k, (sum.get(k) ?? 0) + v);
    num.set(k, (num.get(k) ?? 0) + 1);
  };
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (x + 1 < w && labels[i] !== labels[i + 1]) add(labels[i], labels[i + 1], Math.max(prob[i], prob[i + 1]));
      if (y + 1 < h && labels[i] !== labels[i + w]) add(labels[i], labels[i + w], Math.max(prob[i], prob[i + w]));
    }
  const parent = new Int32Array(count + 1);
  for (let l = 0; l <= count; l++) parent[l] = l;
  const find = (l: number): number => {
    while (parent[l] !== l) l = parent[l] = parent[parent[l]];
    return l;
  };
  // weakest borders first, so a chain of merges follows the field
  const pairs = [...sum.keys()].map((k) => ({ k, m: sum.get(k)! / num.get(k)! })).filter((e) => e.m < mergeBelow);
  pairs.sort((a, b) => a.m - b.m);
  for (const { k } of pairs) {
    const a = find(Math.floor(k / (count + 1))),
      b = find(k % (count + 1));
    if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
  }
  const map = new Int32Array(count + 1);
  let n = 0;
  for (let l = 1; l <= count; l++) {
    const r = find(l);
    if (!map[r]) map[r] = ++n;
    map[l] = map[r];
  }
  for (let i = 0; i < labels.length; i++) labels[i] = labels[i] > 0 ? map[labels[i]] : 0;
  return { labels, count: n };
}

/** Mean lineal intercept (px) of a partition over every row and column of the valid area: length / label changes. */
export function meanInterceptOf(labels: Int32Array, w: number, h: number, valid: Uint8Array | null): number {
  let length = 0,
    changes = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (valid && !valid[i]) continue;
      if (x + 1 < w && (!valid || valid[i + 1])) {
        length++;
        if (labels[i] !== labels[i + 1]) changes++;
      }
      if (y + 1 < h && (!valid || valid[i + w])) {
        length++;
        if (labels[i] !== labels[i + w]) changes++;
      }
    }
  return changes ? length / changes : Infinity;
}
