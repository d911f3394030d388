/** Watershed seeds from a distance map, shared by the grey and the colour grain segmentations. */

/**
 * Seeds from the distance map by a level tree (a discrete h-maxima): start with the cores at
 * distance ≥ 2 px and, level by level, split a core into its sub-cores when it holds two or more
 * of them. A boundary gap narrower than the grains therefore does not merge two grains, while a
 * grain keeps one seed however irregular its distance ridge.
 *
 * Implementation on run lengths: one raster pass cuts every row into the runs of each level (the
 * pixels with distance ≥ that level); per level, the 8-connected cores are the connected runs
 * (union-find on runs, not pixels); a core's parent is the core one level lower that holds any of
 * its runs. The splitting is then decided on that tree, level by level upwards, exactly as a
 * per-level connected-components pass would (see `dynamicSeedsReference` in the tests), and every
 * pixel takes the seed of the deepest core it belongs to. Cost: one pass over the pixels plus work
 * per run, instead of one full-image labelling per level.
 */
export function dynamicSeeds(dist: Float32Array, w: number, h: number): { seeds: Int32Array; count: number } {
  const N = w * h;
  let maxD = 0;
  for (let i = 0; i < N; i++) if (dist[i] > maxD) maxD = dist[i];
  const levels: number[] = [];
  for (let l = 2; l <= maxD; l = l < 6 ? l + 1 : Math.round(l * 1.25)) levels.push(l);
  if (!levels.length) return { seeds: new Int32Array(N), count: 0 };
  const K = levels.length;
  // level index of a distance (highest k with dist ≥ levels[k]; levels are integers so floor(dist) decides)
  const tbl = new Int8Array(Math.floor(maxD) + 2).fill(-1);
  for (let k = 0, v = 0; v < tbl.length; v++) {
    while (k + 1 < K && levels[k + 1] <= v) k++;
    tbl[v] = v >= levels[0] ? k : -1;
  }
  const runs = levelRuns(dist, tbl, K, w, h);
  const tree = runTree(runs, K);
  const { L, retired, nLabels } = splitTree(tree, K);
  // final seed of a pixel: the label of its deepest core, unless that label was split further up.
  // Runs are painted from the lowest level up, so the deepest core's label is the one that stays.
  const S = new Int32Array(N);
  const { start, y: ry, x0: rx0, x1: rx1, node } = runs;
  for (let k = 0; k < K; k++) {
    for (let r = start[k]; r < start[k + 1]; r++) {
      const l = L[node[r]];
      const row = ry[r] * w;
      S.fill(l > 0 && !retired[l] ? l : 0, row + rx0[r], row + rx1[r]);
    }
  }
  // thin seeds — slivers inside wide, partly lit boundary bands — are dropped: a grain is at least 7 px across
  const peak = new Float32Array(nLabels + 1);
  for (let i = 0; i < N; i++) {
    const l = S[i];
    if (l && dist[i] > peak[l]) peak[l] = dist[i];
  }
  // compact labels (numbered in raster order)
  const map = new Int32Array(nLabels + 1);
  let n = 0;
  for (let i = 0; i < N; i++) {
    const l = S[i];
    if (!l) continue;
    if (peak[l] < 3.5) {
      S[i] = 0;
      continue;
    }
    if (!map[l]) map[l] = ++n;
    S[i] = map[l];
  }
  return { seeds: S, count: n };
}

/** Runs of every level, grouped by level (runs of level k at start[k]..start[k+1]), each in raster order. */
interface LevelRuns {
  start: Int32Array;
  y: Int32Array;
  x0: Int32Array;
  x1: Int32Array;
  node: Int32Array;
}

/**
 * One raster pass: a pixel at level v lies in the runs of levels 0..v, so a run of level k opens
 * where the level rises to ≥ k and closes (end exclusive) where it falls below k.
 */
function levelRuns(dist: Float32Array, tbl: Int8Array, K: number, w: number, h: number): LevelRuns {
  // runs as they close: (level, y, x0, x1) records in one growable array
  let rec = new Int32Array(4 << 16),
    n = 0;
  const open = new Int32Array(K);
  const emit = (k: number, y: number, x0: number, x1: number) => {
    if (4 * n === rec.length) {
      const grown = new Int32Array(2 * rec.length);
      grown.set(rec);
      rec = grown;
    }
    rec[4 * n] = k;
    rec[4 * n + 1] = y;
    rec[4 * n + 2] = x0;
    rec[4 * n + 3] = x1;
    n++;
  };
  for (let y = 0, i = 0; y < h; y++) {
    let prev = -1;
    for (let x = 0; x < w; x++, i++) {
      const v = tbl[dist[i] | 0]; // distances are ≥ 0: truncation = floor
      if (v === prev) continue;
      if (v > prev) for (let k = prev + 1; k <= v; k++) open[k] = x;
      else for (let k = prev; k > v; k--) emit(k, y, open[k], x);
      prev = v;
    }
    for (let k = prev; k >= 0; k--) emit(k, y, open[k], w);
  }
  // group by level; a level's runs of one row close left to right, so the order stays raster order
  const start = new Int32Array(K + 1);
  for (let r = 0; r < n; r++) start[rec[4 * r] + 1]++;
  for (let k = 0; k < K; k++) start[k + 1] += start[k];
  const fill = start.slice(0, K);
  const y = new Int32Array(n),
    x0 = new Int32Array(n),
    x1 = new Int32Array(n);
  for (let r = 0; r < n; r++) {
    const j = fill[rec[4 * r]]++;
    y[j] = rec[4 * r + 1];
    x0[j] = rec[4 * r + 2];
    x1[j] = rec[4 * r + 3];
  }
  return { start, y, x0, x1, node: new Int32Array(n) };
}

/** Cores as nodes, highest level first: level, area (pixels at that level or higher) and the core one level lower. */
interface LevelTree {
  nNodes: number;
  nodeLevel: Int32Array;
  nodeArea: Int32Array;
  nodeParent: Int32Array;
}

/** The 8-connected cores of every level (connected runs) and, for each, the core one level lower that holds it. */
function runTree(runs: LevelRuns, K: number): LevelTree {
  const { start, y, x0, x1, node } = runs;
  let maxRuns = 0;
  for (let k = 0; k < K; k++) maxRuns = Math.max(maxRuns, start[k + 1] - start[k]);
  const parent = new Int32Array(maxRuns);
  const find = (r: number) => {
    let q = r;
    while (parent[q] !== q) q = parent[q];
    while (parent[r] !== q) {
      const nr = parent[r];
      parent[r] = q;
      r = nr;
    }
    return q;
  };
  const nodeLevel: number[] = [],
    nodeArea: number[] = [],
    nodeParent: number[] = [];
  for (let k = K - 1; k >= 0; k--) {
    const s = start[k],
      e = start[k + 1];
    for (let r = 0; r < e - s; r++) parent[r] = r;
    // run t of the row above touches run r (8-connected, ends exclusive) when x0[t] ≤ x1[r] and x0[r] ≤ x1[t]
    let q = s;
    for (let r = s; r < e; r++) {
      const yr = y[r];
      while (q < r && (y[q] < yr - 1 || (y[q] === yr - 1 && x1[q] < x0[r]))) q++;
      for (let t = q; t < r && y[t] === yr - 1 && x0[t] <= x1[r]; t++) {
        const ra = find(r - s),
          rb = find(t - s);
        if (ra !== rb) {
          if (ra < rb) parent[rb] = ra;
          else parent[ra] = rb;
        }
      }
    }
    // one node per core, with its area
    for (let r = s; r < e; r++) {
      const root = find(r - s);
      if (root === r - s) {
        node[r] = nodeLevel.length;
        nodeLevel.push(k);
        nodeArea.push(0);
        nodeParent.push(-1);
      } else node[r] = node[s + root]; // roots come first in raster order (unions keep the smaller index)
      nodeArea[node[r]] += x1[r] - x0[r];
    }
    // the cores one level up hang below the core that holds their runs (same row, enclosing run)
    if (k + 1 < K) {
      let c = s;
      for (let r = start[k + 1]; r < start[k + 2]; r++) {
        while (y[c] < y[r] || (y[c] === y[r] && x1[c] <= x0[r])) c++;
        nodeParent[node[r]] = node[c];
      }
    }
  }
  return {
    nNodes: nodeLevel.length,
    nodeLevel: Int32Array.from(nodeLevel),
    nodeArea: Int32Array.from(nodeArea),
    nodeParent: Int32Array.from(nodeParent),
  };
}

/**
 * Seed label of each core, level by level upwards: a core inherits the label of the core below it,
 * except when that label holds ≥ 2 cores of ≥ 6 px at this level: then each such core gets a new
 * label, smaller ones none, and the old label is retired (its pixels outside these cores lose it).
 */
function splitTree(t: LevelTree, K: number): { L: Int32Array; retired: Uint8Array; nLabels: number } {
  const minA = 6;
  const { nNodes, nodeLevel, nodeArea, nodeParent } = t;
  // nodes are stored level by level, highest first
  const levStart = new Int32Array(K + 1);
  for (let n = 0; n < nNodes; n++) levStart[nodeLevel[n]]++;
  // levStart[k] = first node of level k (levels descend in storage order)
  let acc = 0;
  const first = new Int32Array(K),
    count = new Int32Array(K);
  for (let k = K - 1; k >= 0; k--) {
    first[k] = acc;
    count[k] = levStart[k];
    acc += levStart[k];
  }
  const L = new Int32Array(nNodes);
  let next = 1;
  for (let n = first[0]; n < first[0] + count[0]; n++) L[n] = next++;
  let retired = new Uint8Array(next + 1);
  let goodCnt = new Int32Array(next + 1);
  for (let k = 1; k < K; k++) {
    const a = first[k],
      b = a + count[k];
    if (goodCnt.length < next + 1) goodCnt = new Int32Array(2 * next + 1);
    else goodCnt.fill(0, 0, next + 1);
    for (let n = a; n < b; n++) {
      const p = L[nodeParent[n]];
      if (p > 0 && nodeArea[n] >= minA) goodCnt[p]++;
    }
    const before = next;
    for (let n = a; n < b; n++) {
      const p = L[nodeParent[n]];
      if (p > 0 && goodCnt[p] >= 2) L[n] = nodeArea[n] >= minA ? next++ : 0;
      else L[n] = p;
    }
    if (next === before) continue;
    if (retired.length < next + 1) {
      const r = new Uint8Array(2 * next + 1);
      r.set(retired);
      retired = r;
    }
    for (let n = a; n < b; n++) {
      const p = L[nodeParent[n]];
      if (p > 0 && goodCnt[p] >= 2) retired[p] = 1;
    }
  }
  return { L, retired, nLabels: next };
}
