// Grain size (ASTM E112 / ISO 643): boundary segmentation, Jeffries planimetric count and mean
// lineal intercept.
import { blackHat, components, distanceTransform, resize, watershed } from '../cvops.js';
import { blurGray, encodePng, overlayRgb, sampleMask, type Gray } from '../image.js';
import { astmGFromIntercept, astmGFromNA, jeffriesCount, meanIntercept, type InterceptResult } from '../measure/astm.js';
import { e112Intercept } from '../measure/e112.js';
import { colourStats, isColourEtched, meanLabelRun, segmentColourGrains } from './grainColour.js';
import { joinColonies, segmentColonies, structureTensor, type Colonies } from './colonies.js';
import { dynamicSeeds } from './seeds.js';

export { dynamicSeeds };
import { AnalysisError } from '../errors.js';
import { addSegmentationFile, type Context } from './common.js';
import { calibrationRows, fmt, hex, histOf, histogram, histMedian, mean, otsu, rgb255, row, table, tr } from './common.js';

export interface GrainSegmentation {
  labels: Int32Array;
  count: number;
  boundary: Uint8Array;
}

/**
 * Thin-line response of the boundaries (black-hat, 11 px) and its threshold. 20261123 also looks for bright
 * boundaries (BSE images, some etches): the polarity whose line response is stronger (98th percentile) wins, so a
 * bright boundary is traced on its ridge, not on the dark shading beside it.
 */
async function boundaryResponse(img: Gray, valid: Uint8Array, version: string, kernel = 11): Promise<{ resp: Gray; t: number }> {
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
async function segmentWithKernel(img: Gray, valid: Uint8Array, version: string, kernel: number): Promise<GrainSegmentation> {
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
const MIN_LINE_COVER = 0.03;

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
const FIRST_PASS_PIXELS = 250_000;
/** The grey segmentation's pixel sizes (blur 1.2, seeds, slivers under 2 px) are made for grains whose interior run is about this long. */
export const GREY_TARGET_RUN_PX = 30;
/** Up-sampling of small images stops at 2× and at this many working pixels. */
const MAX_UPSAMPLED_PIXELS = 2_000_000;

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
async function segmentScaled(img: Gray, valid: Uint8Array, version: string, f: number, k: number) {
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

export async function runGrainSize(ctx: Context): Promise<void> {
  const { img, valid, lang, pixelSizeUm: px, settings } = ctx;
  const { width: w, height: h } = img;
  let seg: GrainSegmentation;
  let colour = false;
  // 20261126: lamellar structures are recognised (and warned of); 20261127 measures their colonies (colonies.ts)
  const lamellar = ctx.version >= '20261126' && !ctx.mask ? await lamellarity(img, valid, ctx.version) : null;
  const isLamellar = !!lamellar && lamellar.coherentFraction > LAMELLAR_FRACTION;
  let colonies: Colonies | null = null;
  if (ctx.mask) {
    const inside = new Uint8Array(w * h);
    for (let i = 0; i < inside.length; i++) inside[i] = valid[i] && ctx.mask[i] ? 1 : 0;
    const cc = components(inside, w, h, 4);
    seg = fromLabels(cc.labels, cc.count);
  } else if (lamellar && isLamellar && ctx.version >= '20261127') {
    // the colonies first; the grains of the area without lamellae (proeutectoid ferrite) are segmented on their own,
    // so that their scale is theirs and not the lamellae's
    const col = segmentColonies(img, valid, lamellar.windowPx);
    const rest = new Uint8Array(w * h);
    let nRest = 0;
    for (let i = 0; i < rest.length; i++) nRest += rest[i] = valid[i] && !col.labels[i] ? 1 : 0;
    const grains = nRest >= MIN_REST * ctx.validCount ? await segmentGrains(img, rest, ctx.version) : null;
    colonies = joinColonies(col, grains, valid, w, h);
    seg = fromLabels(colonies.labels, colonies.count);
    ctx.measurements.segmentation = 'colonies';
    ctx.measurements.lamellarShare = colonies.lamellarShare;
    ctx.measurements.lamellarSpacingUm = lamellar.spacingPx * px;
  } else {
    const rgb = ctx.version >= '20261123' ? await ctx.colour() : null;
    const stats = rgb ? colourStats(rgb, valid) : null;
    if (rgb && stats && isColourEtched(stats)) {
      const c = await segmentColourGrains(rgb, img, valid, ctx.version);
      seg = fromLabels(c.labels, c.count);
      ctx.measurements.segmentation = 'colour';
      colour = true;
    } else if (ctx.version >= '20261127') {
      // 20261127: grains that differ by tone only (no boundary lines: the thin-line response is specks, not a
      // network) are segmented by merging on their tone, as tint-etched grains on their colour
      const own = await segmentGrainsAtOwnScale(img, valid, ctx.version);
      if (own.scale.network < TONE_NETWORK) {
        const tone = rgb ?? greyToRgb(img);
        const c = await segmentColourGrains(tone, img, valid, ctx.version);
        seg = fromLabels(c.labels, c.count);
        ctx.measurements.segmentation = 'tone';
        colour = true;
        toneItem(ctx, own.scale.network);
      } else seg = own.seg;
    } else seg = await segmentGrains(img, valid, ctx.version);
    // (20261125: grey grains are one piece each, see segmentGrainsAtOwnScale; the colour path's merged grains keep the
    // watershed lines between their regions, which the file leaves out: see fillMergedLines)
  }
  // A grain within BORDER_MARGIN px of the field's edge (or of the excluded strip) is cut by it and counts ½. The
  // model's own labels never reach the edge (the watershed keeps its outer ring), hence the margin; 20261125 applies
  // the same margin to a mask, so re-running with the model's own segmentation.png gives the model's own count
  // (before: margin 0 for masks, and the unchanged mask read ~15 % more grains).
  const margin = ctx.mask && ctx.version < '20261125' ? 0 : BORDER_MARGIN;
  const J = jeffriesCount(seg.labels, w, h, valid, seg.count, margin);
  const areaMm2 = ctx.validCount * px * px * 1e-6;
  const nA = J.jeffries / areaMm2;
  const meanArea = 1e6 / nA;
  const spacing = Math.max(4, Math.round(Math.min(w, h) / 150));
  const I = interceptOf(seg.labels, w, h, valid, spacing, ctx.version);
  // the model's own segmentation with too few grains is refused; a user's mask is measured as drawn (E112's warning says why it is weak)
  // 20261126: a lamellar structure with a finite G is not refused for few grains: the warning below says what its G
  // is and what to do
  const measurable = J.jeffries > 0 && I.intersections > 0;
  if (ctx.version >= '20261123' && !ctx.mask && J.jeffries < MIN_GRAINS && !(isLamellar && measurable))
    throw new AnalysisError(
      'TOO_FEW_FEATURES',
      tr(lang, {
        en: `Only ${fmt(J.jeffries, 1)} grains were found in the analysed area: at least ${MIN_GRAINS} are needed for a grain size. Analyse a larger area or a lower magnification.`,
        de: `Im ausgewerteten Bereich wurden nur ${fmt(J.jeffries, 1)} Körner gefunden: für eine Korngröße sind mindestens ${MIN_GRAINS} nötig. Werten Sie einen größeren Bereich oder eine kleinere Vergrößerung aus.`,
      }),
    );
  const lUm = I.meanInterceptPx * px;
  const gP = astmGFromNA(nA),
    gI = astmGFromIntercept(lUm / 1000);
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
  ctx.items.push(
    table([
      row(
        tr(lang, { en: 'ASTM grain size G (planimetric)', de: 'ASTM-Korngröße G (Flächenverfahren)' }),
        gP,
        '',
        tr(lang, { en: 'E112 Jeffries: G = 3.321928·log10(N_A) − 2.954', de: 'E112 Jeffries: G = 3,321928·log10(N_A) − 2,954' }),
        2,
      ),
      row(
        tr(lang, { en: 'ASTM grain size G (intercept)', de: 'ASTM-Korngröße G (Linienschnitt)' }),
        gI,
        '',
        tr(lang, { en: 'E112: G = −6.643856·log10(L̄ mm) − 3.288', de: 'E112: G = −6,643856·log10(L̄ mm) − 3,288' }),
        2,
      ),
      row(
        tr(lang, { en: 'Grains counted (Jeffries)', de: 'Gezählte Körner (Jeffries)' }),
        J.jeffries,
        '',
        tr(lang, { en: `${J.inside} inside + ${J.border} on the border counted half`, de: `${J.inside} innen + ${J.border} am Rand (halb gezählt)` }),
      ),
      row(tr(lang, { en: 'Grains per mm²', de: 'Körner pro mm²' }), nA, '1/mm²', '', 4),
      row(tr(lang, { en: 'Mean grain area', de: 'Mittlere Kornfläche' }), meanArea, 'µm²', '', 4),
      row(
        tr(lang, { en: 'Mean lineal intercept', de: 'Mittlere Sehnenlänge' }),
        lUm,
        'µm',
        tr(lang, {
          en: `${I.intersections} intersections on horizontal and vertical test lines`,
          de: `${I.intersections} Schnittpunkte auf horizontalen und vertikalen Messlinien`,
        }),
        4,
      ),
      ...calibrationRows(ctx),
    ]),
  );
  if (ctx.version >= '20261123') e112Items(ctx, { grains: J.jeffries, intersections: I.intersections, lengthPx: I.lengthPx, spacing, gP, gI });
  if (lamellar && isLamellar) lamellarItem(ctx, lamellar, colonies);
  // ALA (E930): one grain far larger than the rest
  if (areas.length > 10) {
    const sorted = [...areas].sort((a, b) => a - b);
    const med = sorted[sorted.length >> 1];
    const largest = sorted[sorted.length - 1];
    // E930: ALA grain size number vs mean; flag a grain ≥ 3 ASTM numbers coarser (area ratio ≥ 2^3 ≈ 8 per G number step ×… )
    const gLargest = astmGFromNA(1e6 / largest);
    if (gP - gLargest >= 3) {
      ctx.items.push({
        type: 'message',
        status: 'warning',
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
  ctx.items.push(
    histogram(
      areas,
      bins,
      tr(lang, { en: 'Grain area distribution', de: 'Verteilung der Kornfläche' }),
      tr(lang, { en: 'Grain area', de: 'Kornfläche' }),
      tr(lang, { en: 'Count', de: 'Anzahl' }),
      'µm²',
      col,
    ),
  );
  ctx.items.push(
    histogram(
      diam,
      bins,
      tr(lang, { en: 'Equivalent diameter distribution', de: 'Verteilung des Äquivalentdurchmessers' }),
      tr(lang, { en: 'Equivalent diameter', de: 'Äquivalentdurchmesser' }),
      tr(lang, { en: 'Count', de: 'Anzahl' }),
      'µm',
      col,
    ),
  );
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
  // grain interiors; a pixel touching another grain is boundary, so that grains stay apart as mask components
  // 20261125: grains run up to the field's edge in the file (the watershed's outer ring of label 0 is filled from the
  // first grain pixel inward, up to BORDER_MARGIN px), so the mask shows border grains as cut by the edge
  const F = ctx.version >= '20261125' ? fillToEdge(colour ? fillMergedLines(L, w, h, valid) : L, w, h, valid) : L;
  const apart = (i: number, j: number) => j < 0 || j >= F.length || F[j] <= 0 || F[j] === F[i];
  const inFile = (i: number) => F[i] > 0 && apart(i, i - 1) && apart(i, i + 1) && apart(i, i - w) && apart(i, i + w);
  const keep = ctx.version >= '20261125' && !ctx.mask ? onePiecePerGrain(F, w, h, seg.count, inFile) : null;
  await addSegmentationFile(ctx, keep ? (i) => keep[i] === 1 : inFile);
  ctx.items.push({ type: 'image', filename });
}

/**
 * 20261127: below this share of its boundary-line pixels in a network (lineNetwork), a grey image has no usable
 * boundary lines: its grains are segmented by tone (the line model would segment texture or noise).
 */
export const TONE_NETWORK = 0.45;

const greyToRgb = (img: Gray) => {
  const rgb = new Uint8Array(3 * img.data.length);
  for (let i = 0; i < img.data.length; i++) rgb[3 * i] = rgb[3 * i + 1] = rgb[3 * i + 2] = img.data[i];
  return rgb;
};

/** 20261127: says that the grains were told apart by tone, there being no network of boundary lines. */
function toneItem(ctx: Context, network: number): void {
  const { lang } = ctx;
  ctx.items.push({
    type: 'message',
    status: 'info',
    title: tr(lang, { en: 'Grains told apart by tone', de: 'Körner nach Grauton unterschieden' }),
    content: tr(lang, {
      en: `No network of boundary lines was found (only ${fmt(100 * network, 0)} % of the thin-line response forms one): the grains differ by tone (a tint etch photographed in grey, channelling contrast) or their boundary lines are too faint for the noise. They were segmented by merging neighbouring regions of the same tone; neighbouring grains of nearly the same tone are counted as one. Check the overlay.`,
      de: `Es wurde kein Netz von Korngrenzlinien gefunden (nur ${fmt(100 * network, 0)} % der Linienantwort bilden eines): die Körner unterscheiden sich im Grauton (Farbätzung mit Graubildkamera, Channelling-Kontrast) oder ihre Grenzlinien sind für das Rauschen zu schwach. Sie wurden durch Zusammenfassen benachbarter Bereiche gleichen Tons getrennt; benachbarte Körner fast gleichen Tons zählen als eines. Prüfen Sie das Overlay.`,
    }),
  });
}

/** 20261127: the area without lamellae is segmented for grains when it is at least this share of the field. */
const MIN_REST = 0.02;

/** A segmentation from its labels (> 0 grains): every other pixel is boundary. */
function fromLabels(labels: Int32Array, count: number): GrainSegmentation {
  const boundary = new Uint8Array(labels.length);
  for (let i = 0; i < labels.length; i++) boundary[i] = labels[i] > 0 ? 0 : 1;
  return { labels, count, boundary };
}

/** Grains within this many px of the field's edge or the excluded area count ½ (Jeffries), masks included from 20261125. */
export const BORDER_MARGIN = 2;

/** Keeps the largest 4-connected piece of each label; the other pieces become 0 (and boundary, when given). */
export function keepLargestPieces(labels: Int32Array, w: number, h: number, count: number, boundary?: Uint8Array): void {
  const N = w * h;
  const piece = new Int32Array(N);
  const stack = new Int32Array(N);
  const size: number[] = [0];
  const best = new Int32Array(count + 2);
  let n = 0;
  for (let s = 0; s < N; s++) {
    const l = labels[s];
    if (l <= 0 || piece[s]) continue;
    n++;
    let top = 0,
      area = 0;
    stack[top++] = s;
    piece[s] = n;
    while (top) {
      const i = stack[--top];
      area++;
      const x = i % w;
      let j = i - 1;
      if (x > 0 && piece[j] === 0 && labels[j] === l) {
        piece[j] = n;
        stack[top++] = j;
      }
      j = i + 1;
      if (x < w - 1 && piece[j] === 0 && labels[j] === l) {
        piece[j] = n;
        stack[top++] = j;
      }
      j = i - w;
      if (j >= 0 && piece[j] === 0 && labels[j] === l) {
        piece[j] = n;
        stack[top++] = j;
      }
      j = i + w;
      if (j < N && piece[j] === 0 && labels[j] === l) {
        piece[j] = n;
        stack[top++] = j;
      }
    }
    size.push(area);
    if (l < best.length && (!best[l] || area > size[best[l]])) best[l] = n;
  }
  for (let i = 0; i < N; i++) {
    const l = labels[i];
    if (l > 0 && l < best.length && piece[i] !== best[l]) {
      labels[i] = 0;
      if (boundary) boundary[i] = 1;
    }
  }
}

/**
 * One 4-connected piece per grain in segmentation.png (20261125): where a grain's pixels fall apart into several
 * pieces (a neck one pixel wide cut by the rule that grains stay apart, or labels brought back from the working
 * resolution), only its largest piece is written, so a re-run with the file counts each grain once.
 */
function onePiecePerGrain(F: Int32Array, w: number, h: number, count: number, inFile: (i: number) => boolean): Uint8Array {
  const mask = new Uint8Array(w * h);
  for (let i = 0; i < mask.length; i++) if (inFile(i)) mask[i] = 255;
  const cc = components(mask, w, h, 4);
  const grainOf = new Int32Array(cc.count + 1);
  for (let i = 0; i < mask.length; i++) if (cc.labels[i]) grainOf[cc.labels[i]] = F[i];
  const best = new Int32Array(count + 2);
  for (let c = 1; c <= cc.count; c++) {
    const g = grainOf[c];
    if (g > 0 && g < best.length && (!best[g] || cc.area[c] > cc.area[best[g]])) best[g] = c;
  }
  const keep = new Uint8Array(w * h);
  for (let i = 0; i < mask.length; i++) {
    const c = cc.labels[i];
    if (c && best[grainOf[c]] === c) keep[i] = 1;
  }
  return keep;
}

/**
 * The colour path's grains are merged watershed regions whose dividing lines (label 0) still run inside them: for
 * the file, an unlabelled pixel whose labelled 4-neighbours all belong to one grain becomes that grain's (twice, for
 * lines widened by bringing labels back to full size), so a merged grain is one piece in segmentation.png. Lines
 * between two grains are claimed by both sides; the rule that grains stay apart parts them again.
 */
export function fillMergedLines(L: Int32Array, w: number, h: number, valid: Uint8Array): Int32Array {
  let cur = L;
  for (let pass = 0; pass < 2; pass++) {
    const next = new Int32Array(cur);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        if (cur[i] > 0 || !valid[i]) continue;
        let g = 0,
          one = true;
        if (x > 0 && cur[i - 1] > 0) g = cur[i - 1];
        for (const j of [x < w - 1 ? i + 1 : -1, y > 0 ? i - w : -1, y < h - 1 ? i + w : -1]) {
          const l = j >= 0 ? cur[j] : 0;
          if (l <= 0) continue;
          if (g && l !== g) one = false;
          g = l;
        }
        if (g && one) next[i] = g;
      }
    cur = next;
  }
  return cur;
}

/**
 * The labels with each unlabelled pixel within BORDER_MARGIN px of the field's edge given the label of the first grain
 * pixel inward along the perpendicular to the nearest edge (up to BORDER_MARGIN + 1 px in). A boundary line meeting
 * the edge stays a line (its pixels inward are unlabelled too).
 */
export function fillToEdge(L: Int32Array, w: number, h: number, valid: Uint8Array): Int32Array {
  const src = new Int32Array(L);
  const m = BORDER_MARGIN;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (L[i] > 0 || !valid[i]) continue;
      const dl = x,
        dr = w - 1 - x,
        dt = y,
        db = h - 1 - y;
      const d = Math.min(dl, dr, dt, db);
      if (d >= m) continue;
      const [sx, sy] = d === dl ? [1, 0] : d === dr ? [-1, 0] : d === dt ? [0, 1] : [0, -1];
      for (let k = 1; k <= m + 1 - d; k++) {
        const xx = x + k * sx,
          yy = y + k * sy;
        if (xx < 0 || yy < 0 || xx >= w || yy >= h) break;
        const j = yy * w + xx;
        if (L[j] > 0) {
          src[i] = L[j];
          break;
        }
      }
    }
  return src;
}

/**
 * The intercept count of each version. 20261123: E112's intersections P on the test lines (crossings 1,
 * triple points 1½, tangents 1, line ends on a boundary ½; measure/e112.ts). 20250101: changes of grain label,
 * dropping runs shorter than 15 % of L̄ as boundary flicker. 20241025: changes of grain label.
 */
function interceptOf(labels: Int32Array, w: number, h: number, valid: Uint8Array, spacing: number, version: string): InterceptResult {
  if (version >= '20261123') {
    const r = e112Intercept(labels, w, h, valid, spacing);
    return { lengthPx: r.lengthPx, intersections: r.intersections, meanInterceptPx: r.meanInterceptPx };
  }
  const I0 = meanIntercept(labels, w, h, valid, spacing);
  if (version < '20250101' || !Number.isFinite(I0.meanInterceptPx)) return I0;
  return meanIntercept(labels, w, h, valid, spacing, Math.max(3, Math.round(I0.meanInterceptPx * 0.15)));
}

/** E112 asks for at least 50 grains (planimetric) and 50 intersections (intercept) per field; fewer are refused below this. */
export const MIN_GRAINS = 5;
const E112_MIN_COUNT = 50;

/** The method statement of E112 and its warnings: few grains or intersections, planimetric and intercept apart. */
function e112Items(ctx: Context, r: { grains: number; intersections: number; lengthPx: number; spacing: number; gP: number; gI: number }) {
  const { lang, pixelSizeUm: px } = ctx;
  const lengthMm = (r.lengthPx * px) / 1000;
  ctx.items.push({
    type: 'message',
    status: 'info',
    title: tr(lang, { en: 'Method: ASTM E112-13', de: 'Verfahren: ASTM E112-13' }),
    content: tr(lang, {
      en: `Planimetric (Jeffries): grains inside the field count 1, grains cut by its border ½. Intercept: horizontal and vertical test lines every ${r.spacing} px (total length ${fmt(lengthMm, 3)} mm), P = ${fmt(r.intersections, 1)} intersections; a crossing counts 1, a triple point 1½, a tangent 1, a line end on a boundary ½.`,
      de: `Flächenverfahren (Jeffries): Körner im Feld zählen 1, vom Rand geschnittene ½. Linienschnitt: waagrechte und senkrechte Messlinien alle ${r.spacing} px (Gesamtlänge ${fmt(lengthMm, 3)} mm), P = ${fmt(r.intersections, 1)} Schnittpunkte; ein Schnitt zählt 1, ein Tripelpunkt 1½, eine Tangente 1, ein Linienende auf einer Korngrenze ½.`,
    }),
  });
  if (r.grains < E112_MIN_COUNT || r.intersections < E112_MIN_COUNT)
    ctx.items.push({
      type: 'message',
      status: 'warning',
      title: tr(lang, { en: 'Fewer than 50 counts (ASTM E112)', de: 'Weniger als 50 Zählungen (ASTM E112)' }),
      content: tr(lang, {
        en: `E112 asks for at least 50 grains or 50 intersections per field; this field has ${fmt(r.grains, 1)} grains and ${fmt(r.intersections, 1)} intersections. Measure more fields or a larger area for a reliable G.`,
        de: `E112 verlangt mindestens 50 Körner bzw. 50 Schnittpunkte je Feld; dieses Feld hat ${fmt(r.grains, 1)} Körner und ${fmt(r.intersections, 1)} Schnittpunkte. Messen Sie mehr Felder oder eine größere Fläche für ein verlässliches G.`,
      }),
    });
  if (Number.isFinite(r.gP) && Number.isFinite(r.gI) && Math.abs(r.gP - r.gI) > 0.5)
    ctx.items.push({
      type: 'message',
      status: 'warning',
      title: tr(lang, { en: 'Planimetric and intercept G differ', de: 'G aus Flächen- und Linienschnittverfahren weichen ab' }),
      content: tr(lang, {
        en: `G planimetric ${fmt(r.gP, 2)} and G intercept ${fmt(r.gI, 2)} are more than 0.5 apart: the structure may be elongated, duplex or not fully segmented. Check the overlay.`,
        de: `G Flächenverfahren ${fmt(r.gP, 2)} und G Linienschnitt ${fmt(r.gI, 2)} liegen mehr als 0,5 auseinander: das Gefüge kann gestreckt, zweiphasig oder unvollständig segmentiert sein. Prüfen Sie die Überlagerung.`,
      }),
    });
}

/**
 * Whether the boundaries are bright lines: the thin-line response of the inverted image is stronger (98th
 * percentile) than that of the image itself. Decided at half resolution (kernel 7), where it costs a fraction.
 */
function brightBoundaries(g: Gray): boolean {
  const w = Math.max(1, g.width >> 1),
    h = Math.max(1, g.height >> 1);
  const half = resize(g, w, h);
  const all = new Uint8Array(w * h).fill(1);
  const dark = blackHat(half, 7);
  const bright = blackHat({ width: w, height: h, data: half.data.map((v) => 255 - v) }, 7);
  return percentile(histOf(bright.data, all), 0.98) > percentile(histOf(dark.data, all), 0.98);
}

/** The value below which a fraction q of a histogram's mass lies. */
function percentile(hist: ArrayLike<number>, q: number): number {
  let total = 0;
  for (let i = 0; i < hist.length; i++) total += hist[i];
  let acc = 0;
  for (let i = 0; i < hist.length; i++) {
    acc += hist[i];
    if (acc >= q * total) return i;
  }
  return hist.length - 1;
}

/**
 * 20261126: a lamellar structure (pearlite colonies, bainite) is not a grain structure: the model's "grains" are
 * then bounded by lamellae (strips between them, or pieces of colonies), and its G is no E112 grain size. A warning
 * says so, with the share of parallel lamellae and the mean random line spacing along the test lines (the true
 * spacing of randomly oriented colonies is about 2/π of it), and asks for the colony or prior-austenite boundaries
 * to be drawn as a mask (a mask is measured as drawn, and not checked again).
 */
function lamellarItem(ctx: Context, L: Lamellarity, colonies: Colonies | null): void {
  const { lang, pixelSizeUm: px } = ctx;
  const pct = fmt(100 * L.coherentFraction, 0);
  const sp = fmt(L.spacingPx * px, 2);
  if (colonies) {
    // 20261127: the colonies are measured
    const share = fmt(100 * colonies.lamellarShare, 0);
    ctx.items.push({
      type: 'message',
      status: 'info',
      title: tr(lang, { en: 'Lamellar structure: G of the colonies', de: 'Lamellares Gefüge: G der Kolonien' }),
      content: tr(lang, {
        en: `${pct} % of the structure consists of parallel lamellae (e.g. pearlite colonies or bainite), mean random line spacing ${sp} µm. ${colonies.colonies} colonies (regions where the lamellae run one way, bounded where their direction changes by about 10° or more) cover ${share} % of the area; they are counted as grains, together with the grains without lamellae. G is therefore a colony size, not the prior-austenite grain size: to measure that, draw its boundaries in the mask editor.`,
        de: `${pct} % des Gefüges bestehen aus parallelen Lamellen (z. B. Perlitkolonien oder Bainit), mittlerer Linienabstand auf den Messlinien ${sp} µm. ${colonies.colonies} Kolonien (Bereiche gleicher Lamellenrichtung, begrenzt wo sich die Richtung um etwa 10° oder mehr ändert) bedecken ${share} % der Fläche; sie werden zusammen mit den Körnern ohne Lamellen als Körner gezählt. G ist daher eine Koloniegröße, nicht die ehemalige Austenitkorngröße: um diese zu messen, zeichnen Sie deren Grenzen im Maskeneditor.`,
      }),
    });
    return;
  }
  ctx.items.push({
    type: 'message',
    status: 'warning',
    title: tr(lang, { en: 'Lamellar structure: G is not a grain size', de: 'Lamellares Gefüge: G ist keine Korngröße' }),
    content: tr(lang, {
      en: `${pct} % of the structure consists of parallel lamellae (e.g. pearlite colonies or bainite), mean random line spacing ${sp} µm. The grains counted here are bounded by lamellae, not by grain or colony boundaries, so G is not an ASTM E112 grain size. To measure the colony or prior-austenite grain size, draw its boundaries in the mask editor.`,
      de: `${pct} % des Gefüges bestehen aus parallelen Lamellen (z. B. Perlitkolonien oder Bainit), mittlerer Linienabstand auf den Messlinien ${sp} µm. Die hier gezählten Körner werden von Lamellen begrenzt, nicht von Korn- oder Koloniegrenzen, daher ist G keine Korngröße nach ASTM E112. Um die Kolonie- oder ehemalige Austenitkorngröße zu messen, zeichnen Sie deren Grenzen im Maskeneditor.`,
    }),
  });
}

/**
 * 20261127: the mean of the gaps between lines (sorted ascending) up to 3 × their median: the mean random spacing
 * of the lamellae (E112-like 1 / N_L over the colonies), the long gaps across ferrite grains left out.
 */
function lamellarGap(sorted: number[]): number {
  const cut = 3 * sorted[sorted.length >> 1];
  let sum = 0,
    n = 0;
  for (const g of sorted) {
    if (g > cut) break;
    sum += g;
    n++;
  }
  return sum / n;
}

/** What lamellarity() measured: see there. */
export interface Lamellarity {
  /** Share of the structure (gradient energy) whose orientation is coherent over a few line spacings, 0..1. */
  coherentFraction: number;
  /** Mean spacing of the dark (or bright) lines along horizontal and vertical test lines, px of the full image. */
  spacingPx: number;
  /** The spacing the window is set by (20261127: the median gap between lines), px of the full image. */
  windowPx: number;
}

/** Pixels lamellarity() works on at most. */
const LAMELLAR_PIXELS = 1_000_000;
/** A structure is lamellar when more than this share of it is coherent (parallel lines) over a few spacings. */
export const LAMELLAR_FRACTION = 0.35;
/** Coherence (0 isotropic … 1 parallel lines) above which a neighbourhood counts as parallel lines. */
const COHERENT = 0.7;

/**
 * 20261126: whether the structure is lamellar (pearlite colonies, bainite or martensite packets: parallel lines
 * of one orientation over many line spacings) rather than grains. The line spacing s is measured first (mean
 * run between the thin-line mask's pixels along rows and columns, plus the line width); the gradient structure
 * tensor is then averaged over a Gaussian window of σ = 1.5 s, and its coherence ((λ1 − λ2) / (λ1 + λ2)) is read
 * where the structure is (weighted by the gradient energy). Between equiaxed grains a window of that size holds
 * boundaries of several orientations (coherence well under COHERENT); inside a colony it holds several parallel
 * lamellae (coherence near 1). Scale-free: the window follows the measured spacing.
 */
export async function lamellarity(img: Gray, valid: Uint8Array, version: string): Promise<Lamellarity> {
  const { width: W, height: H } = img;
  const f = Math.max(1, Math.sqrt((W * H) / LAMELLAR_PIXELS));
  const w = Math.max(1, Math.round(W / f)),
    h = Math.max(1, Math.round(H / f));
  const g = f > 1 ? resize(img, w, h) : img;
  const v = sampleMask(valid, W, H, w, h);
  const { resp, t } = await boundaryResponse(g, v, version, 11);
  // spacing: mean distance between line centres along every 4th row and column = (non-line + line px) / runs;
  // 20261127: the spacing is the mean distance from one line's start to the next up to 3 × the median
  // (lamellarGap) and the window follows the median, so that the flat ferrite beside pearlite colonies (few lines
  // over many px) does not widen the window beyond the colonies
  let px = 0,
    runs = 0;
  const gaps: number[] = [];
  const walk = (start: number, step: number, n: number) => {
    let inLine = false,
      last = -1;
    for (let k = 0; k < n; k++) {
      const i = start + k * step;
      if (!v[i]) {
        inLine = false;
        last = -1;
        continue;
      }
      const on = resp.data[i] > t;
      if (on && !inLine) {
        runs++;
        if (last >= 0) gaps.push(k - last);
        last = k;
      }
      inLine = on;
      px++;
    }
  };
  for (let y = 2; y < h; y += 4) walk(y * w, 1, w);
  for (let x = 2; x < w; x += 4) walk(x, w, h);
  if (runs < 8) return { coherentFraction: 0, spacingPx: NaN, windowPx: NaN };
  const late = version >= '20261127' && gaps.length >= 8;
  if (late) gaps.sort((x, y) => x - y);
  const spacing = late ? lamellarGap(gaps) : px / runs;
  // the window's unit: 20261127 the median gap (the lamellae's, wherever most lines are)
  const s = late ? gaps[gaps.length >> 1] : spacing;
  // the window (σ = 1.5 s) is wide: the tensor is averaged down by r ≈ s / 3 first (area), then blurred by σ / r
  const r = Math.max(1, Math.floor(s / 3));
  const { A, B, D, rw, rh } = structureTensor(g, r, (1.5 * s) / r);
  let energy = 0,
    coherent = 0;
  for (let i = 0; i < rw * rh; i++) {
    if (!v[Math.min(h - 1, Math.floor(((Math.floor(i / rw) + 0.5) * h) / rh)) * w + Math.min(w - 1, Math.floor((((i % rw) + 0.5) * w) / rw))])
      continue;
    const tr = A[i] + D[i];
    if (tr <= 0) continue;
    const coh = Math.sqrt((A[i] - D[i]) ** 2 + 4 * B[i] * B[i]) / tr;
    energy += tr;
    if (coh > COHERENT) coherent += tr;
  }
  return { coherentFraction: energy > 0 ? coherent / energy : 0, spacingPx: spacing * f, windowPx: s * f };
}
