// Closed grains from a boundary probability map: a zero-width partition (every analysed pixel belongs to one grain)
// flooded from the basins of the map, so the E112 counts see each boundary as a label change, not as a band.
import { distanceTransform } from '../cvops.js';
import { dynamicSeeds } from '../models/seeds.js';

export interface Partition {
  /** 1..count for grains, 0 outside the analysed area. */
  labels: Int32Array;
  count: number;
}

/**
 * Seeds that a gap in a boundary does not merge: the interior (valid pixels below `seedBelow`) is measured by its
 * distance to the nearest boundary pixel, and every core of that distance map that splits into two or more deeper
 * cores is split (a discrete h-maxima, models/seeds.ts). A gap narrower than the grains is a neck of the interior,
 * and its two sides get a seed each; a grain parted only at a neck is joined again by mergeWeakBorders (no boundary
 * probability along that border). Cores thinner than 3.5 px are no seeds.
 */
export function coreSeeds(prob: Float32Array, w: number, h: number, valid: Uint8Array | null, seedBelow: number): Partition {
  const interior = new Uint8Array(w * h);
  for (let i = 0; i < interior.length; i++) interior[i] = (!valid || valid[i]) && prob[i] < seedBelow ? 255 : 0;
  const { seeds, count } = dynamicSeeds(distanceTransform(interior, w, h), w, h);
  return { labels: seeds, count };
}

/**
 * Marker flooding (watershed by priority) of `prob` from the seeds in `labels` (modified in place): every valid
 * unlabelled pixel gets the label of the seed that reaches it over the lowest probability, 4-connected. A bucket
 * queue over `levels` probability levels keeps it linear in the number of pixels. Valid pixels no seed reaches
 * (an area without any seed) stay 0.
 */
export function flood(prob: Float32Array, w: number, h: number, valid: Uint8Array | null, labels: Int32Array, levels = 256): void {
  const N = w * h;
  const top = levels - 1;
  // the state of a pixel is its label: > 0 done (a seed or flooded), < 0 claimed and queued, 0 open (valid,
  // unlabelled, not yet queued); OUTSIDE marks the invalid unlabelled pixels until the end, when they are 0 again
  const OUTSIDE = -0x80000000;
  if (valid) for (let i = 0; i < N; i++) if (!valid[i] && labels[i] === 0) labels[i] = OUTSIDE;
  // the level of a pixel, worked out when it is reached (most pixels of a full-size map are seeds already and
  // never are); NaN is level 0
  const level = (i: number): number => {
    const q = Math.floor(prob[i] * levels);
    return q > top ? top : q >= 0 ? q : 0;
  };
  // bucket queue: per level a growable list of pixel indices. The order of the pushes is the raster order of the
  // seeds, then first in, first out; a seed pixel with no open neighbour is passed over.
  const buckets: Int32Array[] = Array.from({ length: levels }, () => new Int32Array(64));
  const sizes = new Int32Array(levels);
  // claims pixel j for the seed `lab` at level max(lv, level of j)
  const claim = (j: number, lab: number, lv: number) => {
    labels[j] = -lab; // tentative: claimed by the first seed to reach it
    const q = level(j);
    const l = q > lv ? q : lv;
    let b = buckets[l];
    if (sizes[l] === b.length) {
      const nb = new Int32Array(b.length * 2);
      nb.set(b);
      buckets[l] = b = nb;
    }
    b[sizes[l]++] = j;
  };
  for (let y = 0, i = 0; y < h; y++)
    for (let x = 0; x < w; x++, i++) {
      const lab = labels[i];
      if (lab <= 0) continue;
      // a seed pixel with no open neighbour claims nothing
      const l = x > 0 && labels[i - 1] === 0,
        r = x + 1 < w && labels[i + 1] === 0,
        u = y > 0 && labels[i - w] === 0,
        d = y + 1 < h && labels[i + w] === 0;
      if (!(l || r || u || d)) continue;
      const lv = level(i);
      if (l) claim(i - 1, lab, lv);
      if (r) claim(i + 1, lab, lv);
      if (u) claim(i - w, lab, lv);
      if (d) claim(i + w, lab, lv);
    }
  for (let lv = 0; lv < levels; lv++) {
    // pushes at this level while it is worked are taken too (first in, first out); a push at a lower level cannot
    // happen (max(lv, …)), so the order is monotone
    for (let k = 0; k < sizes[lv]; k++) {
      const i = buckets[lv][k];
      const lab = (labels[i] = -labels[i]);
      const y = (i / w) | 0,
        x = i - y * w;
      if (x > 0 && labels[i - 1] === 0) claim(i - 1, lab, lv);
      if (x + 1 < w && labels[i + 1] === 0) claim(i + 1, lab, lv);
      if (y > 0 && labels[i - w] === 0) claim(i - w, lab, lv);
      if (y + 1 < h && labels[i + w] === 0) claim(i + w, lab, lv);
    }
    buckets[lv] = new Int32Array(0);
  }
  if (valid) for (let i = 0; i < N; i++) if (labels[i] === OUTSIDE) labels[i] = 0;
}

/**
 * Merges neighbouring grains whose shared border (pixel pairs with different labels, 4-connected) has a median
 * boundary probability below `mergeBelow`: the seeds were parted by noise or at a neck, not by a boundary. The median,
 * not the mean: a false border that runs from pore to pore through a matrix keeps most of its length in the matrix
 * (probability near 0) however bright the pore outlines it follows. Relabels 1..count.
 */
export function mergeWeakBorders(p: Partition, prob: Float32Array, w: number, h: number, mergeBelow: number): Partition {
  const { labels, count } = p;
  // per pair of neighbours: how many border values there are, and how many lie below mergeBelow. The median of n
  // sorted values (the (n >> 1)-th, from 0) is below mergeBelow exactly when more than n >> 1 of them are.
  const index = new Map<number, number>();
  let total = new Int32Array(1024),
    below = new Int32Array(1024),
    pairs = 0;
  const keys: number[] = [];
  // along a border the same pair comes again and again: the last one is kept at hand
  let lastK = -1,
    lastJ = -1;
  const add = (a: number, b: number, v: number) => {
    if (a <= 0 || b <= 0) return;
    const k = a < b ? a * (count + 1) + b : b * (count + 1) + a;
    let j = k === lastK ? lastJ : index.get(k);
    if (j === undefined) {
      j = pairs++;
      index.set(k, j);
      keys.push(k);
      if (j === total.length) {
        const t = new Int32Array(2 * j),
          u = new Int32Array(2 * j);
        t.set(total);
        u.set(below);
        total = t;
        below = u;
      }
    }
    lastK = k;
    lastJ = j;
    total[j]++;
    if (v < mergeBelow) below[j]++;
  };
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const L = labels[i];
      if (x + 1 < w && L !== labels[i + 1]) add(L, labels[i + 1], Math.max(prob[i], prob[i + 1]));
      if (y + 1 < h && L !== labels[i + w]) add(L, labels[i + w], Math.max(prob[i], prob[i + w]));
    }
  // the merged sets are the connected pieces of the weak borders' graph, whatever order they are joined in
  const uf = unionFind(count);
  for (let j = 0; j < pairs; j++) if (below[j] > total[j] >> 1) uf.union(Math.floor(keys[j] / (count + 1)), keys[j] % (count + 1));
  return uf.relabel(labels);
}

/** Union-find over labels 1..count, merging into the smaller label; relabel() numbers the sets 1..n in place. */
export function unionFind(count: number) {
  const parent = new Int32Array(count + 1);
  for (let l = 0; l <= count; l++) parent[l] = l;
  const find = (l: number): number => {
    while (parent[l] !== l) l = parent[l] = parent[parent[l]];
    return l;
  };
  return {
    find,
    union(a: number, b: number) {
      const ra = find(a),
        rb = find(b);
      if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
    },
    relabel(labels: Int32Array): Partition {
      const map = new Int32Array(count + 1);
      let n = 0;
      for (let l = 1; l <= count; l++) {
        const r = find(l);
        if (!map[r]) map[r] = ++n;
        map[l] = map[r];
      }
      for (let i = 0; i < labels.length; i++) labels[i] = labels[i] > 0 ? map[labels[i]] : 0;
      return { labels, count: n };
    },
  };
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
