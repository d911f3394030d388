// Grain segmentation from the trained boundary network (grain size 20261201 and after).
//
// 1. The working scale: a first pass on the image shrunk to at most WORKING_SCALE.firstPassPixels gives the mean
//    lineal intercept; the final pass runs at the scale that puts it near WORKING_SCALE.targetInterceptPx, the
//    middle of what the network was trained for. The same specimen at another resolution is thus seen alike. From
//    20261202 a finer look (a central crop at twice that scale) checks the choice: grains finer than the first passes
//    could see (texture read as grains) show there, the look goes finer while they do (up to 4× the image), and the
//    scale is chosen again from the finest grains seen.
// 2. The network gives the boundary probability (twin lines are trained as not-a-boundary; a second output gives
//    them, and `countTwins` adds them back). From 20261203 the image's shading is divided out first (shading.ts). The cores of the interior (below PARTITION.seedBelow, split at its
//    necks, so a gap in a boundary does not merge two grains) seed the grains, which are flooded over the
//    probability to a zero-width partition; neighbours parted by a weak border are merged.
// 3. The partition is brought back to the image's resolution by flooding the full-resolution probability from the
//    working-scale grains, so the boundaries are smooth 1-px label changes at any resolution.
// From 20261208 every pass averages the network over orientations of its image (orient.ts) where the grains are few.
// From 20261209 the working scale is a fixed point: further passes, in damped steps, until the pass at a scale asks
// for that scale (WORKING_SCALE.fixedPointFrom), so the same field at another resolution is measured at the same scale.
import { coreSeeds, flood, meanInterceptOf, mergeWeakBorders, type Partition } from './partition.js';
import { networkSession } from './network.js';
import { orientationsFor, runOriented, type Orientation } from './orient.js';
import { resizeFloat, resizeLabels, resizeMask, resizeRgb } from './resample.js';
import { grainNetworkFile, NETWORK, ORIENTATIONS, PARTITION, SHADING, WORKING_SCALE } from './tunables.js';
import { mergeTwinBands } from './twins.js';
import { correctShading } from './shading.js';

export interface LearnedGrains extends Partition {
  /** Working scale factor (working px per image px). */
  scale: number;
  /** Mean lineal intercept at the working scale (px, all rows and columns). */
  workingInterceptPx: number;
  /** Mean boundary probability on the partition's boundaries at the working scale (0..1). */
  confidence: number;
  /** Largest grain's share of the analysed area. */
  largestShare: number;
  /** Twin-line pixels (probability ≥ 0.5) per boundary pixel at the working scale. */
  twinRatio: number;
  /** Network runs over the whole image or a crop: the finer look's small ones and each orientation (20261208) included. */
  passes: number;
  /** Twin bands merged into their parent grain (countTwins off). */
  twinBands: number;
  /** The working scale was chosen again after a finer look found grains finer than the first choice saw. */
  finerLook: boolean;
  /** The finer look still found finer grains at the largest scale it may look at: the grains may be finer still. */
  unconfirmed: boolean;
}

interface Pass extends Partition {
  f: number;
  W: number;
  H: number;
  prob: Float32Array;
  twin: Float32Array;
  valid: Uint8Array;
  twins: number;
  intercept: number;
}

async function pass(
  rgb: Uint8Array,
  w: number,
  h: number,
  valid: Uint8Array,
  f: number,
  countTwins: boolean,
  network: string,
  version: string,
  group: readonly Orientation[] = [0],
): Promise<Pass> {
  const W = Math.max(8, Math.round(w * f)),
    H = Math.max(8, Math.round(h * f));
  const img = resizeRgb(rgb, w, h, W, H);
  const v = resizeMask(valid, w, h, W, H);
  const session = await networkSession(network);
  const balanced = version >= NETWORK.balancedFrom;
  const tile = balanced ? NETWORK.balancedTile : NETWORK.tile;
  const [boundary, twin] = await runOriented(session, img, W, H, v, tile, NETWORK.overlap, balanced, group);
  const twinPlane = twin ?? new Float32Array(W * H);
  let prob = boundary;
  if (countTwins) {
    prob = new Float32Array(W * H);
    for (let i = 0; i < prob.length; i++) prob[i] = Math.max(boundary[i], twinPlane[i]);
  }
  const seeds = coreSeeds(prob, W, H, v, PARTITION.seedBelow);
  flood(prob, W, H, v, seeds.labels, PARTITION.levels);
  let merged = mergeWeakBorders(seeds, prob, W, H, PARTITION.mergeBelow);
  let twins = 0;
  if (!countTwins) {
    const t = mergeTwinBands(merged, img, W, H);
    merged = t;
    twins = t.twins;
  }
  return { ...merged, f, W, H, prob, twin: twinPlane, valid: v, twins, intercept: meanInterceptOf(merged.labels, W, H, v) };
}

/** The central part of an image and its mask, at most `cw`×`ch`. */
function centralCrop(rgb: Uint8Array, w: number, h: number, valid: Uint8Array, cw: number, ch: number) {
  const x0 = Math.floor((w - cw) / 2),
    y0 = Math.floor((h - ch) / 2);
  const crgb = new Uint8Array(cw * ch * 3),
    cvalid = new Uint8Array(cw * ch);
  for (let y = 0; y < ch; y++) {
    const i = (y0 + y) * w + x0;
    crgb.set(rgb.subarray(i * 3, (i + cw) * 3), y * cw * 3);
    cvalid.set(valid.subarray(i, i + cw), y * cw);
  }
  return { crgb, cvalid };
}

/** The working scale for an image whose mean intercept is `interceptPx` image px. */
export function workingScale(interceptPx: number, w: number, h: number, maxUpscale: number = WORKING_SCALE.maxUpscale): number {
  const S = WORKING_SCALE;
  const upper = Math.min(maxUpscale, Math.sqrt(S.maxWorkingPixels / (w * h)));
  const lower = Math.min(1, S.minShortSidePx / Math.min(w, h));
  // 0: no intercept known, grains too fine to see → the largest scale; ∞ (no boundary found) → the smallest
  const f = interceptPx === 0 ? upper : Number.isFinite(interceptPx) && interceptPx > 0 ? S.targetInterceptPx / interceptPx : lower;
  return Math.min(upper, Math.max(lower, f));
}

/**
 * From a pass at scale `r.f` on to a scale whose pass asks for that scale itself (20261209): while the scale `ask`
 * reads from a pass is more than WORKING_SCALE.fixedPointTolerance from the pass's own, `run` another pass at the
 * geometric mean of the two, at most fixedPointSteps more. The last pass is returned.
 */
export async function toFixedPoint<P extends { f: number }>(r: P, ask: (p: P) => number, run: (f: number) => Promise<P>): Promise<P> {
  for (let k = 0; k < WORKING_SCALE.fixedPointSteps; k++) {
    const asked = ask(r);
    if (Math.abs(asked / r.f - 1) <= WORKING_SCALE.fixedPointTolerance) break;
    r = await run(Math.sqrt(r.f * asked));
  }
  return r;
}

/**
 * Grains of an RGB image (interleaved, w×h; a grey image as three equal channels) inside `valid`. `network`: the
 * absolute path of another boundary network (a trained version) instead of the shipped one.
 */
export async function segmentGrainsLearned(
  rgb: Uint8Array,
  w: number,
  h: number,
  valid: Uint8Array,
  opts: { countTwins?: boolean; network?: string | null; version?: string } = {},
): Promise<LearnedGrains> {
  const countTwins = !!opts.countTwins;
  // the version's shipped network, or a trained version's file (absolute path, issue 25)
  const version = opts.version ?? '20261201';
  const network = opts.network || grainNetworkFile(version);
  const S = WORKING_SCALE;
  // 20261203 on: the image's shading divided out first (shading.ts), for every pass and the twin bands' colours
  if (version >= SHADING.from) rgb = correctShading(rgb, w, h, valid);
  // every pass at scale f of the image (or of a crop), in the orientations of `group`, counted in `passes`
  let group: readonly Orientation[] = [0];
  let passes = 0;
  const run = (f: number, crop?: { crgb: Uint8Array; cvalid: Uint8Array; cw: number; ch: number }) => {
    passes += group.length;
    return crop
      ? pass(crop.crgb, crop.cw, crop.ch, crop.cvalid, f, countTwins, network, version, group)
      : pass(rgb, w, h, valid, f, countTwins, network, version, group);
  };
  const f0 = Math.min(1, Math.sqrt(S.firstPassPixels / (w * h)));
  let r = await run(f0);
  // 20261208 on: every pass averaged over as many orientations as ORIENTATIONS' budget allows for the working image
  // the first pass foresees (few grains: all eight), the first pass again among them
  if (version >= ORIENTATIONS.from) {
    const fore = workingScale(r.intercept / r.f, w, h);
    group = orientationsFor(Math.round(w * fore) * Math.round(h * fore));
    if (group.length > 1) r = await run(f0);
  }
  // grains too small to be seen in the first pass: look again at twice the scale (at most the image's)
  if (r.intercept < S.minFirstPassInterceptPx && r.f < 1) {
    r = await run(Math.min(1, 2 * r.f));
  }
  // still (almost) no grain at the image's own scale: grains finer than the network sees; look at the largest scale
  if (r.count < S.minFirstPassGrains && r.f >= 1) {
    const up = workingScale(0, w, h);
    if (up > r.f * (1 + S.reuseTolerance)) {
      r = await run(up);
    }
  }
  const f = workingScale(r.intercept / r.f, w, h);
  if (Math.abs(f / r.f - 1) > S.reuseTolerance) {
    r = await run(f);
  }
  // 20261209 on: on to the scale the pass at it asks for (WORKING_SCALE.fixedPointFrom), in damped steps
  if (version >= S.fixedPointFrom) r = await toFixedPoint(r, (p) => workingScale(p.intercept / p.f, w, h), run);
  // a finer look: grains too fine for the chosen scale show at twice it, on a central crop (a small pass); while
  // they do, look finer again, up to the largest scale, then choose the working scale from the finest grains seen
  let finerLook = false,
    unconfirmed = false;
  if (version >= S.finerLookFrom) {
    const largest = workingScale(0, w, h, S.finerLookMaxUpscale);
    let seen = r.intercept / r.f,
      at = r.f;
    for (;;) {
      const f2 = Math.min(largest, 2 * at);
      if (f2 <= at * (1 + S.reuseTolerance)) break;
      const cw = Math.min(w, Math.round(S.finerLookSidePx / f2)),
        ch = Math.min(h, Math.round(S.finerLookSidePx / f2));
      const c = await run(f2, { ...centralCrop(rgb, w, h, valid, cw, ch), cw, ch });
      const finer = c.intercept / c.f;
      // the same grains at twice the scale: the scale is confirmed
      unconfirmed = finer < S.finerLookRatio * seen;
      if (!unconfirmed) break;
      finerLook = true;
      seen = finer;
      at = f2;
    }
    if (finerLook) {
      r = await run(workingScale(seen, w, h, S.finerLookMaxUpscale));
    }
  }
  // self-check figures at the working scale
  let onLine = 0,
    sumP = 0,
    twinPx = 0,
    boundaryPx = 0;
  const { W, H } = r;
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      if (!r.valid[i]) continue;
      if (r.prob[i] >= 0.5) boundaryPx++;
      if (r.twin[i] >= 0.5) twinPx++;
      const L = r.labels[i];
      if ((x + 1 < W && r.labels[i + 1] !== L && r.labels[i + 1] > 0) || (y + 1 < H && r.labels[i + W] !== L && r.labels[i + W] > 0)) {
        onLine++;
        sumP += r.prob[i];
      }
    }
  // back to the image's resolution
  let labels = r.labels;
  if (W !== w || H !== h) {
    const prob = resizeFloat(r.prob, W, H, w, h);
    labels = resizeLabels(r.labels, W, H, w, h);
    // keep the working-scale grains only where the full-resolution map is interior, then flood the rest
    for (let i = 0; i < labels.length; i++) if (!valid[i] || prob[i] >= PARTITION.seedBelow) labels[i] = 0;
    flood(prob, w, h, valid, labels, PARTITION.levels);
  }
  const area = new Float64Array(r.count + 1);
  let validCount = 0;
  for (let i = 0; i < labels.length; i++) {
    if (!valid[i]) continue;
    validCount++;
    if (labels[i] > 0) area[labels[i]]++;
  }
  let largest = 0;
  for (let l = 1; l <= r.count; l++) largest = Math.max(largest, area[l]);
  return {
    labels,
    count: r.count,
    scale: r.f,
    workingInterceptPx: r.intercept,
    confidence: onLine ? sumP / onLine : 0,
    largestShare: validCount ? largest / validCount : 1,
    twinRatio: boundaryPx ? twinPx / boundaryPx : 0,
    passes,
    twinBands: r.twins,
    finerLook,
    unconfirmed,
  };
}
