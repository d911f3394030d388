// Grain size (ASTM E112 / ISO 643): boundary segmentation, Jeffries planimetric count and mean
// lineal intercept.
import { blackHat, components, distanceTransform, gaussianBlur, watershed } from '../cvops.js';
import { encodePng, overlayRgb, type Gray } from '../image.js';
import { astmGFromIntercept, astmGFromNA, jeffriesCount, meanIntercept } from '../measure/astm.js';
import type { Context } from './common.js';
import { calibrationRows, fmt, hex, histOf, histogram, histMedian, mean, otsu, rgb255, row, table, tr } from './common.js';

export interface GrainSegmentation { labels: Int32Array; count: number; boundary: Uint8Array }

/** Estimated boundary line width from the autocorrelation-free heuristic: fixed small kernel scaled by image size. */
function boundaryResponse(img: Gray, valid: Uint8Array): { resp: Gray; t: number } {
  const g = gaussianBlur(img, 1.2);
  const resp = blackHat(g, 11);
  // threshold: midway between the background response and the boundary response (Otsu split)
  const h = histOf(resp.data, valid);
  const t0 = Math.max(otsu(h), 4);
  const lo = histMedian(h, 0, t0), hi = histMedian(h, t0 + 1, 255);
  return { resp, t: Math.max(3, (lo + hi) / 2) };
}

/**
 * 20250101: black-hat boundary map → seeds = interior cores (distance to boundary ≥ r, so that
 * small boundary gaps do not merge grains) → marker watershed on the boundary relief.
 * 20241025: connected components of the non-boundary pixels (no gap closing).
 */
export function segmentGrains(img: Gray, valid: Uint8Array, version: string): GrainSegmentation {
  const { width: w, height: h } = img;
  const { resp, t } = boundaryResponse(img, valid);
  const boundary = new Uint8Array(w * h);
  const interior = new Uint8Array(w * h);
  for (let i = 0; i < boundary.length; i++) {
    boundary[i] = resp.data[i] > t ? 1 : 0;
    interior[i] = valid[i] && !boundary[i] ? 255 : 0;
  }
  if (version === '20241025') {
    const cc = components(interior, w, h, 4);
    const labels = new Int32Array(cc.labels);
    for (let l = 1; l <= cc.count; l++) if (cc.area[l] < 10) cc.area[l] = -1;
    for (let i = 0; i < labels.length; i++) if (cc.area[labels[i]] < 0) labels[i] = 0;
    return { labels, count: cc.count, boundary };
  }
  const dist = distanceTransform(interior, w, h);
  const { seeds, count: n } = dynamicSeeds(dist, w, h);
  const excludedLabel = n + 1;
  const markers = new Int32Array(w * h);
  for (let i = 0; i < markers.length; i++) markers[i] = valid[i] ? seeds[i] : excludedLabel;
  const ws = watershed(resp, markers);
  for (let i = 0; i < ws.length; i++) if (ws[i] === excludedLabel || ws[i] < 0) ws[i] = 0;
  return { labels: ws, count: n, boundary };
}

/**
 * Seeds from the distance map by a level tree (a discrete h-maxima): start with the cores at
 * distance ≥ 2 px and, level by level, split a core into its sub-cores when it holds two or more
 * of them. A boundary gap narrower than the grains therefore does not merge two grains, while a
 * grain keeps one seed however irregular its distance ridge.
 *
 * Implementation: one union-find sweep from the highest level down builds the tree of 8-connected
 * cores (node = core at one level, with its area and the core one level lower that holds it);
 * the splitting is then decided on that tree, level by level upwards, exactly as a per-level
 * connected-components pass would (see `dynamicSeedsReference` in the tests), and every pixel takes
 * the seed of the deepest core it belongs to. Cost O(pixels) instead of one full-image labelling per level.
 */
// 8-neighbours, the four behind (raster order) first
const NB_DX = new Int32Array([-1, 0, 1, -1, 1, -1, 0, 1]);
const NB_DY = new Int32Array([-1, -1, -1, 0, 0, 1, 1, 1]);

export function dynamicSeeds(dist: Float32Array, w: number, h: number): { seeds: Int32Array; count: number } {
  const N = w * h;
  let maxD = 0;
  for (let i = 0; i < N; i++) if (dist[i] > maxD) maxD = dist[i];
  const levels: number[] = [];
  for (let l = 2; l <= maxD; l = l < 6 ? l + 1 : Math.round(l * 1.25)) levels.push(l);
  if (!levels.length) return { seeds: new Int32Array(N), count: 0 };
  const K = levels.length;
  // level index of each pixel (highest k with dist ≥ levels[k]; levels are integers so floor(dist) decides)
  const tbl = new Int8Array(Math.floor(maxD) + 2).fill(-1);
  for (let k = 0, v = 0; v < tbl.length; v++) { while (k + 1 < K && levels[k + 1] <= v) k++; tbl[v] = v >= levels[0] ? k : -1; }
  const lev = new Int8Array(N);
  const bucketStart = new Int32Array(K + 1);
  for (let i = 0; i < N; i++) {
    const k = tbl[dist[i] | 0]; // distances are ≥ 0: truncation = floor
    lev[i] = k;
    if (k >= 0) bucketStart[k + 1]++;
  }
  for (let k = 0; k < K; k++) bucketStart[k + 1] += bucketStart[k];
  const order = new Int32Array(bucketStart[K]);
  const fill = bucketStart.slice(0, K);
  for (let i = 0; i < N; i++) { const k = lev[i]; if (k >= 0) order[fill[k]++] = i; }
  const tree = levelTree(lev, order, bucketStart, K, w, h);
  const { L, retired, nLabels } = splitTree(tree, K);
  // final seed of a pixel: the label of its deepest core, unless that label was split further up
  // (and the peak distance per seed: thin seeds — slivers inside wide, partly lit boundary bands — are dropped:
  // a grain is at least 7 px across)
  const S = new Int32Array(N);
  const nodeOf = tree.nodeOf;
  const peak = new Float32Array(nLabels + 1);
  for (let i = 0; i < N; i++) {
    if (lev[i] < 0) continue;
    const l = L[nodeOf[i]];
    if (l > 0 && !retired[l]) {
      S[i] = l;
      if (dist[i] > peak[l]) peak[l] = dist[i];
    }
  }
  // compact labels (numbered in raster order)
  const map = new Int32Array(nLabels + 1);
  let n = 0;
  for (let i = 0; i < N; i++) {
    const l = S[i];
    if (!l) continue;
    if (peak[l] < 3.5) { S[i] = 0; continue; }
    if (!map[l]) map[l] = ++n;
    S[i] = map[l];
  }
  return { seeds: S, count: n };
}

interface LevelTree { nNodes: number; nodeLevel: Int32Array; nodeArea: Int32Array; nodeParent: Int32Array; nodeOf: Int32Array }

/** Union-find sweep from the highest level down: the 8-connected cores of every level as a tree. */
export function levelTree(lev: Int8Array, order: Int32Array, bucketStart: Int32Array, K: number, w: number, h: number): LevelTree {
  const N = w * h;
  const parent = new Int32Array(N);
  const size = new Int32Array(N);
  let nodeCap = 1024, nNodes = 0;
  let nodeLevel = new Int32Array(nodeCap), nodeArea = new Int32Array(nodeCap), nodeParent = new Int32Array(nodeCap);
  const nodeOf = new Int32Array(N);
  const rootNode = new Int32Array(N); // node id + 1 of a root at the current level
  let roots = new Int32Array(0), prevNodeStart = 0;
  for (let k = K - 1; k >= 0; k--) {
    const a = bucketStart[k], b = bucketStart[k + 1];
    // pixels of this level come in raster order: link each to its already active 8-neighbours
    // (higher levels anywhere, this level only behind it — the ones ahead link back themselves)
    let y = 0, rowStart = 0;
    for (let j = a; j < b; j++) {
      const i = order[j];
      while (i >= rowStart + w) { y++; rowStart += w; }
      const x = i - rowStart;
      parent[i] = i; size[i] = 1;
      let ri = i;
      if (x > 0 && x < w - 1 && y > 0 && y < h - 1) {
        // active neighbours: behind at this level or higher, ahead at a higher level only. Any two
        // active neighbours that touch each other are already joined, so a linked up/down/left/right
        // neighbour makes the diagonals and sides it touches redundant.
        const U = lev[i - w] >= k, D = lev[i + w] > k, Lf = lev[i - 1] >= k, R = lev[i + 1] > k;
        if (U) ri = link(parent, size, lev, ri, i - w, k);
        if (D) ri = link(parent, size, lev, ri, i + w, k + 1);
        if (!U && !D) {
          if (Lf) ri = link(parent, size, lev, ri, i - 1, k);
          if (R) ri = link(parent, size, lev, ri, i + 1, k + 1);
        }
        if (!U && !Lf) ri = link(parent, size, lev, ri, i - w - 1, k);
        if (!U && !R) ri = link(parent, size, lev, ri, i - w + 1, k);
        if (!D && !Lf) ri = link(parent, size, lev, ri, i + w - 1, k + 1);
        if (!D && !R) ri = link(parent, size, lev, ri, i + w + 1, k + 1);
      } else {
        for (let t = 0; t < 8; t++) {
          const nx = x + NB_DX[t], ny = y + NB_DY[t];
          if (nx < 0 || nx >= w || ny < 0 || ny >= h) continue;
          ri = link(parent, size, lev, ri, i + NB_DY[t] * w + NB_DX[t], t < 4 ? k : k + 1);
        }
      }
      parent[i] = ri;
    }
    // cores of this level: surviving roots among the previous roots and the new pixels
    let nr = 0;
    for (let t = 0; t < roots.length; t++) if (parent[roots[t]] === roots[t]) nr++;
    for (let j = a; j < b; j++) if (parent[order[j]] === order[j]) nr++;
    const next = new Int32Array(nr);
    nr = 0;
    for (let t = 0; t < roots.length; t++) if (parent[roots[t]] === roots[t]) next[nr++] = roots[t];
    for (let j = a; j < b; j++) if (parent[order[j]] === order[j]) next[nr++] = order[j];
    if (nNodes + nr > nodeCap) {
      while (nNodes + nr > nodeCap) nodeCap *= 2;
      const grow = (t: Int32Array) => { const u = new Int32Array(nodeCap); u.set(t); return u; };
      nodeLevel = grow(nodeLevel); nodeArea = grow(nodeArea); nodeParent = grow(nodeParent);
    }
    const start = nNodes;
    for (let t = 0; t < nr; t++) {
      const r = next[t];
      nodeLevel[nNodes] = k; nodeArea[nNodes] = size[r]; nodeParent[nNodes] = -1;
      rootNode[r] = ++nNodes;
    }
    // the cores one level up (previous roots) hang below the core that now holds them
    for (let t = 0; t < roots.length; t++) nodeParent[prevNodeStart + t] = rootNode[findRoot(parent, roots[t])] - 1;
    for (let j = a; j < b; j++) { const i = order[j]; nodeOf[i] = rootNode[findRoot(parent, i)] - 1; }
    roots = next; prevNodeStart = start;
  }
  return { nNodes, nodeLevel, nodeArea, nodeParent, nodeOf };
}

/** Joins the set of q (when lev[q] ≥ minLev) with the set rooted at ri; returns the joint root. */
function link(parent: Int32Array, size: Int32Array, lev: Int8Array, ri: number, q: number, minLev: number): number {
  if (lev[q] < minLev) return ri;
  let rq = parent[q];
  if (rq === ri) return ri;
  while (parent[rq] !== rq) rq = parent[rq];
  while (parent[q] !== rq) { const nq = parent[q]; parent[q] = rq; q = nq; }
  if (rq === ri) return ri;
  if (size[ri] < size[rq]) { parent[ri] = rq; size[rq] += size[ri]; return rq; }
  parent[rq] = ri; size[ri] += size[rq];
  return ri;
}

function findRoot(parent: Int32Array, i: number): number {
  let r = i;
  while (parent[r] !== r) r = parent[r];
  while (parent[i] !== r) { const n = parent[i]; parent[i] = r; i = n; }
  return r;
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
  const first = new Int32Array(K), count = new Int32Array(K);
  for (let k = K - 1; k >= 0; k--) { first[k] = acc; count[k] = levStart[k]; acc += levStart[k]; }
  const L = new Int32Array(nNodes);
  let next = 1;
  for (let n = first[0]; n < first[0] + count[0]; n++) L[n] = next++;
  let retired = new Uint8Array(next + 1);
  let goodCnt = new Int32Array(next + 1);
  for (let k = 1; k < K; k++) {
    const a = first[k], b = a + count[k];
    if (goodCnt.length < next + 1) goodCnt = new Int32Array(2 * next + 1);
    else goodCnt.fill(0, 0, next + 1);
    for (let n = a; n < b; n++) { const p = L[nodeParent[n]]; if (p > 0 && nodeArea[n] >= minA) goodCnt[p]++; }
    const before = next;
    for (let n = a; n < b; n++) {
      const p = L[nodeParent[n]];
      if (p > 0 && goodCnt[p] >= 2) L[n] = nodeArea[n] >= minA ? next++ : 0;
      else L[n] = p;
    }
    if (next === before) continue;
    if (retired.length < next + 1) { const r = new Uint8Array(2 * next + 1); r.set(retired); retired = r; }
    for (let n = a; n < b; n++) { const p = L[nodeParent[n]]; if (p > 0 && goodCnt[p] >= 2) retired[p] = 1; }
  }
  return { L, retired, nLabels: next };
}

export async function runGrainSize(ctx: Context): Promise<void> {
  const { img, valid, lang, pixelSizeUm: px, settings } = ctx;
  const { width: w, height: h } = img;
  let seg: GrainSegmentation;
  if (ctx.mask) {
    const inside = new Uint8Array(w * h);
    for (let i = 0; i < inside.length; i++) inside[i] = valid[i] && ctx.mask[i] ? 1 : 0;
    const cc = components(inside, w, h, 4);
    const boundary = new Uint8Array(w * h);
    for (let i = 0; i < boundary.length; i++) boundary[i] = cc.labels[i] ? 0 : 1;
    seg = { labels: cc.labels, count: cc.count, boundary };
  } else seg = segmentGrains(img, valid, ctx.version);
  const J = jeffriesCount(seg.labels, w, h, valid, seg.count, ctx.mask ? 0 : 2);
  const areaMm2 = ctx.validCount * px * px * 1e-6;
  const nA = J.jeffries / areaMm2;
  const meanArea = 1e6 / nA;
  const spacing = Math.max(4, Math.round(Math.min(w, h) / 150));
  const I0 = meanIntercept(seg.labels, w, h, valid, spacing);
  // runs shorter than ~15 % of the mean intercept are boundary flicker, not grains
  const I = ctx.version === '20250101' && Number.isFinite(I0.meanInterceptPx) ? meanIntercept(seg.labels, w, h, valid, spacing, Math.max(3, Math.round(I0.meanInterceptPx * 0.15))) : I0;
  const lUm = I.meanInterceptPx * px;
  const gP = astmGFromNA(nA), gI = astmGFromIntercept(lUm / 1000);
  const m = ctx.measurements;
  Object.assign(m, {
    grainCount: J.jeffries,
    grainsInside: J.inside,
    grainsOnBorder: J.border,
    grainsPerMm2: nA,
    meanGrainAreaUm2: meanArea,
    astmGPlanimetric: gP,
    meanInterceptUm: lUm,
    astmGIntercept: gI,
    interceptCount: I.intersections,
  });
  // grain areas (inside grains only, for the distributions)
  const areas: number[] = [];
  for (let l = 1; l <= seg.count; l++) if (J.kind[l] === 1) areas.push(J.area[l] * px * px);
  const diam = areas.map((a) => 2 * Math.sqrt(a / Math.PI));
  const bins = settings.layer.histogramBins;
  ctx.items.push(table([
    row(tr(lang, { en: 'ASTM grain size G (planimetric)', de: 'ASTM-Korngröße G (Flächenverfahren)' }), gP, '', tr(lang, { en: 'E112 Jeffries: G = 3.321928·log10(N_A) − 2.954', de: 'E112 Jeffries: G = 3,321928·log10(N_A) − 2,954' }), 2),
    row(tr(lang, { en: 'ASTM grain size G (intercept)', de: 'ASTM-Korngröße G (Linienschnitt)' }), gI, '', tr(lang, { en: 'E112: G = −6.643856·log10(L̄ mm) − 3.288', de: 'E112: G = −6,643856·log10(L̄ mm) − 3,288' }), 2),
    row(tr(lang, { en: 'Grains counted (Jeffries)', de: 'Gezählte Körner (Jeffries)' }), J.jeffries, '', tr(lang, { en: `${J.inside} inside + ${J.border} on the border counted half`, de: `${J.inside} innen + ${J.border} am Rand (halb gezählt)` })),
    row(tr(lang, { en: 'Grains per mm²', de: 'Körner pro mm²' }), nA, '1/mm²', '', 4),
    row(tr(lang, { en: 'Mean grain area', de: 'Mittlere Kornfläche' }), meanArea, 'µm²', '', 4),
    row(tr(lang, { en: 'Mean lineal intercept', de: 'Mittlere Sehnenlänge' }), lUm, 'µm', tr(lang, { en: `${I.intersections} intersections on horizontal and vertical test lines`, de: `${I.intersections} Schnittpunkte auf horizontalen und vertikalen Messlinien` }), 4),
    ...calibrationRows(ctx),
  ]));
  // ALA (E930): one grain far larger than the rest
  if (areas.length > 10) {
    const sorted = [...areas].sort((a, b) => a - b);
    const med = sorted[sorted.length >> 1];
    const largest = sorted[sorted.length - 1];
    // E930: ALA grain size number vs mean; flag a grain ≥ 3 ASTM numbers coarser (area ratio ≥ 2^3 ≈ 8 per G number step ×… )
    const gLargest = astmGFromNA(1e6 / largest);
    if (gP - gLargest >= 3) {
      ctx.items.push({
        type: 'message', status: 'warning',
        title: tr(lang, { en: 'ALA: as-large-as grain present', de: 'ALA: Einzelkorn deutlich größer' }),
        content: tr(lang, {
          en: `The largest grain (${fmt(largest, 0)} µm², ALA G ${fmt(gLargest, 1)}) is ${fmt(largest / med, 0)}× the median grain area; report it per ASTM E930 in addition to the mean G.`,
          de: `Das größte Korn (${fmt(largest, 0)} µm², ALA G ${fmt(gLargest, 1)}) ist ${fmt(largest / med, 0)}× so groß wie der Median der Kornflächen; nach ASTM E930 zusätzlich zum mittleren G angeben.`,
        }),
      });
      m.alaGrainAreaUm2 = largest;
      m.alaAstmG = gLargest;
    }
  }
  const col = hex(settings.colours.boundary);
  ctx.items.push(histogram(areas, bins, tr(lang, { en: 'Grain area distribution', de: 'Verteilung der Kornfläche' }), tr(lang, { en: 'Grain area', de: 'Kornfläche' }), tr(lang, { en: 'Count', de: 'Anzahl' }), 'µm²', col));
  ctx.items.push(histogram(diam, bins, tr(lang, { en: 'Equivalent diameter distribution', de: 'Verteilung des Äquivalentdurchmessers' }), tr(lang, { en: 'Equivalent diameter', de: 'Äquivalentdurchmesser' }), tr(lang, { en: 'Count', de: 'Anzahl' }), 'µm', col));
  m.meanEquivalentDiameterUm = diam.length ? mean(diam) : NaN;
  // overlay: watershed lines / label changes
  const lines = new Uint8Array(w * h);
  const L = seg.labels;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!valid[i]) continue;
      if (L[i] <= 0 || (x + 1 < w && L[i + 1] !== L[i] && L[i + 1] > 0) || (y + 1 < h && L[i + w] !== L[i] && L[i + w] > 0)) lines[i] = 1;
    }
  const filename = 'grain-boundaries.png';
  ctx.files.push({ filename, data: await encodePng(overlayRgb(img, [{ mask: lines, color: rgb255(settings.colours.boundary), alpha: 0.9 }]), w, h) });
  ctx.items.push({ type: 'image', filename });
}
