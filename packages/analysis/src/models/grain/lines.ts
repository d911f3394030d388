// Grain size, grey path (20241025–20261127): grains from the thin-line (black-hat) response of boundary lines,
// seeds, marker watershed; 20261125 chooses its working scale and kernel from the image.
import { blackHat, components, distanceTransform, resize, watershed } from '../../cvops.js';
import { blurGray, sampleMask, type Gray } from '../../image.js';
import { meanLabelRun } from '../grainColour.js';
import { dynamicSeeds } from '../seeds.js';
import { histOf, histMedian, otsu } from '../common.js';
import { type GrainSegmentation, keepLargestPieces } from './labels.js';

/**
 * Thin-line response of the boundaries (black-hat, 11 px) and its threshold. 20261123 also looks for bright
 * boundaries (BSE images, some etches): the polarity whose line response is stronger (98th percentile) wins, so a
 * bright boundary is traced on its ridge, not on the dark shading beside it.
 */
export async function boundaryResponse(img: Gray, valid: Uint8Array, version: string, kernel = 11): Promise<{ resp: Gray; t: number }> {
  const g = await blurGray(img, 1.2);
  const brightLines = version >= '20261123' && brightBoundaries(g);
  const resp = blackHat(brightLines ? { width: g.width, height: g.height, data: g.data.map((v) => 255 - v) } : g, kernel);
  // threshold: midway between the background response and the boundary response (Otsu split)
  const h = histOf(resp.data, valid);
  const t0 = Math.max(otsu(h), 4);
  const lo = histMedian(h, 0, t0),
    hi = histMedian(h, t0 + 1, 255);
  return { resp, t: Math.max(3, (lo + hi) / 2) };
}

/**
 * 20250101: black-hat boundary map → seeds = interior cores (distance to boundary ≥ r, so that
 * small boundary gaps do not merge grains) → marker watershed on the boundary relief.
 * 20241025: connected components of the non-boundary pixels (no gap closing).
 */
export async function segmentGrains(img: Gray, valid: Uint8Array, version: string): Promise<GrainSegmentation> {
  if (version >= '20261125') return (await segmentGrainsAtOwnScale(img, valid, version)).seg;
  return segmentWithKernel(img, valid, version, 11);
}

/** One segmentation at the image's resolution with a given black-hat kernel (20261125 picks it; before: 11 px). */
export async function segmentWithKernel(img: Gray, valid: Uint8Array, version: string, kernel: number): Promise<GrainSegmentation> {
  const { width: w, height: h } = img;
  const { resp, t } = await boundaryResponse(img, valid, version, kernel);
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
  if (version >= '20261123') {
    // The boundary band belongs to no grain: a basin that flooded along it first would otherwise own thin strands
    // of band between other grains, and every test line crossing such a band would meet two boundaries.
    for (let i = 0; i < ws.length; i++) if (boundary[i]) ws[i] = 0;
    dropSlivers(ws, w, h, n);
  }
  // 20261127: grains parted where there is no boundary line are one (in every pass: the working scale is then found
  // on whole grains; at the last pass only, coarse grains with faint lines in noise read +0.82 instead of −0.05)
  if (version >= '20261127') mergeUnmarkedSplits(ws, w, h, valid, boundary, kernel);
  return { labels: ws, count: n, boundary };
}

/** 20261127: two grains whose dividing pixels are less than this share boundary line are one grain. */
export const MIN_LINE_COVER = 0.03;

/**
 * 20261127: merges grains that the watershed parted where there is no boundary line. Noise specks inside a grain
 * give its interior two distance maxima and the watershed a line through the grain; a real boundary is line (the
 * thresholded thin-line response, `line`) along most of its length, even with gaps. Every unlabelled pixel is
 * probed left/right and up/down (up to `reach` px) for the nearest grain on either side; the pixels between two
 * grains count towards their border, those on the line mask towards its cover. Two grains whose border is less than
 * MIN_LINE_COVER line merge (their dividing pixels become the grain's).
 */
export function mergeUnmarkedSplits(ws: Int32Array, w: number, h: number, valid: Uint8Array, line: Uint8Array, reach: number): void {
  const pairs = new Map<number, { px: number; cover: number }>();
  const hits: number[] = [];
  const key = (a: number, b: number) => (a < b ? a * 4194304 + b : b * 4194304 + a);
  const probe = (i: number, x: number, y: number, dx: number, dy: number) => {
    let la = 0,
      lb = 0;
    for (let k = 1; k <= reach && !la; k++) {
      const xx = x - k * dx,
        yy = y - k * dy;
      if (xx < 0 || yy < 0 || xx >= w || yy >= h || !valid[yy * w + xx]) break;
      la = ws[yy * w + xx];
    }
    for (let k = 1; k <= reach && !lb; k++) {
      const xx = x + k * dx,
        yy = y + k * dy;
      if (xx < 0 || yy < 0 || xx >= w || yy >= h || !valid[yy * w + xx]) break;
      lb = ws[yy * w + xx];
    }
    if (la > 0 && lb > 0 && la !== lb) {
      const k = key(la, lb);
      let e = pairs.get(k);
      if (!e) pairs.set(k, (e = { px: 0, cover: 0 }));
      e.px++;
      if (line[i]) e.cover++;
      hits.push(i, la, lb);
    }
  };
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (ws[i] > 0 || !valid[i]) continue;
      probe(i, x, y, 1, 0);
      probe(i, x, y, 0, 1);
    }
  const parent = new Map<number, number>();
  const find = (a: number): number => {
    let r = a;
    while (parent.has(r) && parent.get(r) !== r) r = parent.get(r)!;
    return r;
  };
  let merged = 0;
  for (const [k, e] of pairs) {
    if (e.px < 3 || e.cover >= MIN_LINE_COVER * e.px) continue;
    const a = find(Math.floor(k / 4194304)),
      b = find(k % 4194304);
    if (a !== b) {
      parent.set(b, a);
      merged++;
    }
  }
  if (!merged) return;
  for (let i = 0; i < ws.length; i++) if (ws[i] > 0) ws[i] = find(ws[i]);
  // the dividing pixels between grains now one become that grain's
  for (let t = 0; t < hits.length; t += 3) {
    const i = hits[t];
    if (ws[i] === 0 && !line[i]) {
      const a = find(hits[t + 1]);
      if (a === find(hits[t + 2])) ws[i] = a;
    }
  }
}

/** What the grey segmentation of 20261125 chose from the image (see segmentGrainsAtOwnScale). */
export interface GrainScale {
  /** Working resolution = full size / factor (> 1 down-sampled, < 1 up-sampled). */
  factor: number;
  /** Black-hat kernel at the working resolution, px. */
  kernel: number;
  /** Mean grain run (interior intercept) at the working resolution, px. */
  interceptPx: number;
  /** Mean width of the boundary band at the working resolution, px. */
  boundaryWidthPx: number;
  /** Segmentation passes run (first estimate included). */
  passes: number;
  /** 20261127: share of the boundary-line pixels in a network (lineNetwork) at the working resolution. */
  network: number;
}

/** Pixels of the first, scale-finding pass at most. */
export const FIRST_PASS_PIXELS = 250_000;

/** The grey segmentation's pixel sizes (blur 1.2, seeds, slivers under 2 px) are made for grains whose interior run is about this long. */
export const GREY_TARGET_RUN_PX = 30;

/** Up-sampling of small images stops at 2× and at this many working pixels. */
export const MAX_UPSAMPLED_PIXELS = 2_000_000;

/**
 * 20261125: the grey segmentation at a scale chosen from the image instead of fixed pixel constants. A first pass
 * at no more than FIRST_PASS_PIXELS measures the grains' mean interior run; the image is then segmented at the
 * resolution where a grain run spans about GREY_TARGET_RUN_PX (down-sampled, or up-sampled up to 2× when the image
 * is small) with kernel 11. Where the grains are at that scale, the boundary band's width measured there sets the
 * black-hat kernel (kernelFor), and the pass is repeated when that kernel differs by more than 2 px or the grains
 * still move (at most 3 passes). The labels are brought back to full size (nearest), so counting and intercepts run
 * on the image's own pixels.
 */
export async function segmentGrainsAtOwnScale(img: Gray, valid: Uint8Array, version: string): Promise<{ seg: GrainSegmentation; scale: GrainScale }> {
  const { width: W, height: H } = img;
  const N = W * H;
  const minFactor = Math.max(0.5, Math.sqrt(N / Math.max(N, MAX_UPSAMPLED_PIXELS)));
  let f = Math.max(1, Math.sqrt(N / FIRST_PASS_PIXELS));
  let k = 11;
  let r = await segmentScaled(img, valid, version, f, k);
  let passes = 1;
  // 20261127: runs that meet the excluded area end there (the ferrite beside lamellar colonies is segmented with the
  // colonies excluded: its grains mostly meet them, not each other)
  const runOf = (q: typeof r) => meanLabelRun(q.seg.labels, q.w, q.h, version >= '20261127' ? q.valid : undefined);
  let run = runOf(r);
  let band = boundaryWidth(r.seg.boundary, r.w, r.h);
  while (passes < 3 && Number.isFinite(run)) {
    const next = Math.max(minFactor, (f * run) / GREY_TARGET_RUN_PX);
    const moves = Math.abs(next / f - 1) >= 0.12;
    // a band measured at another resolution is blurred or cut by it: after a move, kernel 11 first, the band's own
    // kernel once measured where the grains are at the target
    const kNext = moves ? 11 : kernelFor(band, run);
    if (!moves && Math.abs(kNext - k) <= 2) break;
    if (moves) f = next;
    k = kNext;
    r = await segmentScaled(img, valid, version, f, k);
    passes++;
    run = runOf(r);
    band = boundaryWidth(r.seg.boundary, r.w, r.h);
  }
  const scale: GrainScale = {
    factor: f,
    kernel: k,
    interceptPx: run,
    boundaryWidthPx: band,
    passes,
    network: lineNetwork(r.seg.boundary, r.w, r.h, r.valid),
  };
  // a grain is one piece (its largest; stray pieces of a few px left by the watershed become boundary), as it is
  // when its segmentation.png is measured as a mask; done at the working resolution (a nearest up-scaling keeps a
  // piece whole), again at full size when the work ran up-sampled
  keepLargestPieces(r.seg.labels, r.w, r.h, r.seg.count, r.seg.boundary);
  if (r.w === W && r.h === H) return { seg: r.seg, scale };
  const labels = new Int32Array(N);
  const boundary = new Uint8Array(N);
  for (let y = 0; y < H; y++) {
    const sy = Math.min(r.h - 1, Math.floor(((y + 0.5) * r.h) / H));
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      const l = valid[i] ? r.seg.labels[sy * r.w + Math.min(r.w - 1, Math.floor(((x + 0.5) * r.w) / W))] : 0;
      labels[i] = l;
      boundary[i] = l > 0 ? 0 : 1;
    }
  }
  if (r.w > W) keepLargestPieces(labels, W, H, r.seg.count, boundary);
  return { seg: { labels, count: r.seg.count, boundary }, scale };
}

/**
 * 20261127: the share of the boundary-line pixels (`mask`, the thresholded thin-line response at the segmentation's
 * working resolution) that lie in pieces of at least 1 % of them. Boundary lines form a network, even with gaps
 * (≥ 0.63 on every grey image with boundary lines we have: nital, SEM, noisy, twins, bright lines, 1 px lines at
 * 12 MP); where grains differ by tone only (a tint etch photographed in grey, channelling contrast) the thin-line
 * response is the texture inside the grains, specks (≤ 0.02 on the five tint references in grey), and where faint
 * lines drown in noise it is the noise (0.12–0.38 on synthetic grains with lines at 25–35 % contrast and noise σ 10).
 */
export function lineNetwork(mask: Uint8Array, w: number, h: number, valid: Uint8Array): number {
  const m = new Uint8Array(w * h);
  let n = 0;
  for (let i = 0; i < m.length; i++) n += m[i] = mask[i] && valid[i] ? 1 : 0;
  if (!n) return 0;
  const cc = components(m, w, h, 8);
  let big = 0;
  for (let k = 1; k <= cc.count; k++) if (cc.area[k] >= 0.01 * n) big += cc.area[k];
  return big / n;
}

/**
 * Black-hat kernel for a boundary band `band` px wide among grain runs of `run` px: wide enough to close over the
 * band (2.5 widths + 3), at least 7, at most 60 % of a grain run (a larger closing would fill whole dark grains);
 * odd, as OpenCV's ellipse.
 */
export function kernelFor(band: number, run: number): number {
  const want = Number.isFinite(band) ? 2.5 * band + 3 : 11;
  const cap = Number.isFinite(run) ? Math.max(7, 0.6 * run) : 31;
  const k = Math.round(Math.max(7, Math.min(want, cap)));
  return k % 2 ? k : k + 1;
}

/** Segments at 1/f of full size (f < 1: up-sampled); `valid` is the analysed area at that size. */
export async function segmentScaled(img: Gray, valid: Uint8Array, version: string, f: number, k: number) {
  const { width: W, height: H } = img;
  if (Math.abs(f - 1) < 0.03) return { seg: await segmentWithKernel(img, valid, version, k), w: W, h: H, valid };
  const w = Math.max(1, Math.round(W / f)),
    h = Math.max(1, Math.round(H / f));
  const small = resize(img, w, h);
  const v = sampleMask(valid, W, H, w, h);
  return { seg: await segmentWithKernel(small, v, version, k), w, h, valid: v };
}

/**
 * Mean width of a boundary band mask: for a band w px wide the distances to its edge run 1 … w/2 and back, whose
 * mean is (w + 2) / 4, so w = 4·mean − 2 (isolated specks and wide blobs weigh in by their area; the kernel rule
 * only needs the width roughly).
 */
export function boundaryWidth(boundary: Uint8Array, w: number, h: number): number {
  const mask = new Uint8Array(w * h);
  let n = 0;
  for (let i = 0; i < mask.length; i++)
    if (boundary[i]) {
      mask[i] = 255;
      n++;
    }
  if (!n) return NaN;
  const d = distanceTransform(mask, w, h);
  let s = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i]) s += d[i];
  return Math.max(1, (4 * s) / n - 2);
}

/**
 * Regions no thicker than a boundary line (largest inscribed radius under 2 px) are slivers of a wide boundary
 * band that the watershed left between two grains, not grains: they become boundary (label 0), so a test line
 * crossing the band meets one boundary, not two.
 */
export function dropSlivers(labels: Int32Array, w: number, h: number, count: number): void {
  const inner = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const l = labels[i];
      if (l <= 0) continue;
      const same =
        (x === 0 || labels[i - 1] === l) &&
        (x === w - 1 || labels[i + 1] === l) &&
        (y === 0 || labels[i - w] === l) &&
        (y === h - 1 || labels[i + w] === l);
      inner[i] = same ? 255 : 0;
    }
  const dist = distanceTransform(inner, w, h);
  const peak = new Float32Array(count + 2);
  for (let i = 0; i < labels.length; i++) {
    const l = labels[i];
    if (l > 0 && l <= count && dist[i] > peak[l]) peak[l] = dist[i];
  }
  for (let i = 0; i < labels.length; i++) {
    const l = labels[i];
    if (l > 0 && l <= count && peak[l] < 2) labels[i] = 0;
  }
}

/**
 * Whether the boundaries are bright lines: the thin-line response of the inverted image is stronger (98th
 * percentile) than that of the image itself. Decided at half resolution (kernel 7), where it costs a fraction.
 */
export function brightBoundaries(g: Gray): boolean {
  const w = Math.max(1, g.width >> 1),
    h = Math.max(1, g.height >> 1);
  const half = resize(g, w, h);
  const all = new Uint8Array(w * h).fill(1);
  const dark = blackHat(half, 7);
  const bright = blackHat({ width: w, height: h, data: half.data.map((v) => 255 - v) }, 7);
  return percentile(histOf(bright.data, all), 0.98) > percentile(histOf(dark.data, all), 0.98);
}

/** The value below which a fraction q of a histogram's mass lies. */
export function percentile(hist: ArrayLike<number>, q: number): number {
  let total = 0;
  for (let i = 0; i < hist.length; i++) total += hist[i];
  let acc = 0;
  for (let i = 0; i < hist.length; i++) {
    acc += hist[i];
    if (acc >= q * total) return i;
  }
  return hist.length - 1;
}
