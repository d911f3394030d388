// A random forest on 8-bit binned features (histogram split search, as LightGBM and scikit-learn's
// HistGradientBoosting do): Gini impurity, bootstrap samples, √F features tried per node, seeded, so a recipe
// trained twice on the same strokes gives the same trees. Trees are flat arrays: JSON as they are, and a
// prediction over millions of pixels walks typed arrays.
//
// Why not ml-random-forest (mljs, MIT, 2.1.0): its CART (ml-cart 2.1.1) re-partitions the samples for every
// candidate threshold (O(n²) per feature and node); 24 trees on 800 samples × 41 features took 17 s on this
// machine, and 20 strokes on a 4 MP image give several thousand samples, against a budget of 10 s.
import { BINS } from './features.js';
import { rng } from '../random.js';

export interface Tree {
  /** Split feature of each node; -1 for a leaf. */
  feature: number[];
  /** A sample goes left when its bin ≤ threshold. */
  threshold: number[];
  left: number[];
  right: number[];
  /** Leaves: offset of their class distribution in `values` (nClasses numbers). */
  leaf: number[];
  values: number[];
}

export interface Forest {
  nClasses: number;
  nFeatures: number;
  trees: Tree[];
}

export interface ForestOptions {
  nTrees?: number;
  maxDepth?: number;
  minLeaf?: number;
  /** Features tried per node (default √F). */
  mtry?: number;
  seed?: number;
}

export { rng };

/**
 * Trains a forest. `x[f][s]` is the bin (0..BINS-1) of feature f of sample s; `y[s]` its class (0..nClasses-1).
 */
export function trainForest(x: Uint8Array[], y: Uint8Array, nClasses: number, o: ForestOptions = {}): Forest {
  const nFeatures = x.length,
    n = y.length;
  const nTrees = o.nTrees ?? 32,
    maxDepth = o.maxDepth ?? 14,
    minLeaf = o.minLeaf ?? 2,
    mtry = Math.max(1, Math.min(nFeatures, o.mtry ?? Math.round(Math.sqrt(nFeatures))));
  const rand = rng(o.seed ?? 1);
  const trees: Tree[] = [];
  const hist = new Float64Array(BINS * nClasses);
  const featureOrder = Array.from({ length: nFeatures }, (_, i) => i);
  for (let t = 0; t < nTrees; t++) {
    const idx = new Int32Array(n);
    for (let i = 0; i < n; i++) idx[i] = Math.floor(rand() * n);
    const tree: Tree = { feature: [], threshold: [], left: [], right: [], leaf: [], values: [] };
    const node = (): number => {
      tree.feature.push(-1);
      tree.threshold.push(0);
      tree.left.push(-1);
      tree.right.push(-1);
      tree.leaf.push(-1);
      return tree.feature.length - 1;
    };
    const makeLeaf = (id: number, counts: Float64Array, total: number) => {
      tree.leaf[id] = tree.values.length;
      for (let c = 0; c < nClasses; c++) tree.values.push(Math.round((counts[c] / total) * 1e4) / 1e4);
    };
    // iterative build over index ranges of `idx`
    const stack: Array<{ id: number; lo: number; hi: number; depth: number }> = [{ id: node(), lo: 0, hi: n, depth: 0 }];
    const counts = new Float64Array(nClasses);
    while (stack.length) {
      const { id, lo, hi, depth } = stack.pop()!;
      const m = hi - lo;
      counts.fill(0);
      for (let i = lo; i < hi; i++) counts[y[idx[i]]]++;
      let pure = false;
      for (let c = 0; c < nClasses; c++) if (counts[c] === m) pure = true;
      if (pure || depth >= maxDepth || m < 2 * minLeaf) {
        makeLeaf(id, counts, m);
        continue;
      }
      let parentGini = 1;
      for (let c = 0; c < nClasses; c++) parentGini -= (counts[c] / m) ** 2;
      // a random subset of features (partial Fisher–Yates)
      for (let k = 0; k < mtry; k++) {
        const j = k + Math.floor(rand() * (nFeatures - k));
        [featureOrder[k], featureOrder[j]] = [featureOrder[j], featureOrder[k]];
      }
      let bestGain = 1e-9,
        bestF = -1,
        bestT = 0;
      const left = new Float64Array(nClasses);
      for (let k = 0; k < mtry; k++) {
        const f = featureOrder[k],
          xf = x[f];
        hist.fill(0);
        for (let i = lo; i < hi; i++) {
          const s = idx[i];
          hist[xf[s] * nClasses + y[s]]++;
        }
        left.fill(0);
        let nl = 0;
        for (let b = 0; b < BINS - 1; b++) {
          let binN = 0;
          for (let c = 0; c < nClasses; c++) {
            const v = hist[b * nClasses + c];
            left[c] += v;
            binN += v;
          }
          if (!binN) continue;
          nl += binN;
          const nr = m - nl;
          if (nl < minLeaf || nr < minLeaf) continue;
          let gl = 1,
            gr = 1;
          for (let c = 0; c < nClasses; c++) {
            gl -= (left[c] / nl) ** 2;
            gr -= ((counts[c] - left[c]) / nr) ** 2;
          }
          const gain = parentGini - (nl / m) * gl - (nr / m) * gr;
          if (gain > bestGain) {
            bestGain = gain;
            bestF = f;
            bestT = b;
          }
        }
      }
      if (bestF < 0) {
        makeLeaf(id, counts, m);
        continue;
      }
      // partition idx[lo, hi) by the split
      const xf = x[bestF];
      let i = lo,
        j = hi - 1;
      while (i <= j) {
        if (xf[idx[i]] <= bestT) i++;
        else {
          const tmp = idx[i];
          idx[i] = idx[j];
          idx[j--] = tmp;
        }
      }
      tree.feature[id] = bestF;
      tree.threshold[id] = bestT;
      const l = node(),
        r = node();
      tree.left[id] = l;
      tree.right[id] = r;
      stack.push({ id: l, lo, hi: i, depth: depth + 1 }, { id: r, lo: i, hi, depth: depth + 1 });
    }
    trees.push(tree);
  }
  return { nClasses, nFeatures, trees };
}

/**
 * Class probabilities (mean of the trees' leaf distributions) of every pixel: `planes[f][p]` is the bin of
 * feature f at pixel p. Answers nClasses planes of probabilities. The planes are first interleaved per pixel
 * (one row of F bytes), so a walk down a tree reads one cache line.
 */
export function predictForest(forest: Forest, planes: Uint8Array[]): Float32Array[] {
  const n = planes[0].length,
    K = forest.nClasses,
    F = planes.length;
  const rows = new Uint8Array(n * F);
  for (let f = 0; f < F; f++) {
    const p = planes[f];
    for (let i = 0, o = f; i < n; i++, o += F) rows[o] = p[i];
  }
  // all trees in one node table: feature·256 + threshold packed, children, leaf offsets
  let total = 0;
  for (const t of forest.trees) total += t.feature.length;
  const split = new Int32Array(total),
    left = new Int32Array(total),
    right = new Int32Array(total);
  const values: number[] = [];
  const roots: number[] = [];
  let base = 0;
  for (const t of forest.trees) {
    roots.push(base);
    for (let i = 0; i < t.feature.length; i++) {
      const f = t.feature[i];
      if (f >= 0) {
        split[base + i] = f * 256 + t.threshold[i];
        left[base + i] = base + t.left[i];
        right[base + i] = base + t.right[i];
      } else {
        split[base + i] = -1;
        left[base + i] = values.length;
        for (let c = 0; c < K; c++) values.push(t.values[t.leaf[i] + c] / forest.trees.length);
      }
    }
    base += t.feature.length;
  }
  const val = Float32Array.from(values);
  const out = Array.from({ length: K }, () => new Float32Array(n));
  const acc = new Float32Array(K);
  for (let p = 0, o = 0; p < n; p++, o += F) {
    acc.fill(0);
    for (let r = 0; r < roots.length; r++) {
      let k = roots[r];
      let s = split[k];
      while (s >= 0) {
        k = rows[o + (s >> 8)] <= (s & 255) ? left[k] : right[k];
        s = split[k];
      }
      const v = left[k];
      for (let c = 0; c < K; c++) acc[c] += val[v + c];
    }
    for (let c = 0; c < K; c++) out[c][p] = acc[c];
  }
  return out;
}
