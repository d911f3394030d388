// Grain segmentation of colour (tint) etched micrographs, where grains differ by colour and may have no dark
// boundary lines: colour-gradient relief, marker watershed, then merging of regions that neither differ in colour
// nor have a boundary line between them. 20261126: an over-segmentation into cells that follow the field, merged on
// the colour step across each border against the local colour contrast (segmentByMerging, regionMerge.ts).
import { cv } from '../cv.js';
import { blackHat, distanceTransform, watershed } from '../cvops.js';
import sharp from 'sharp';
import { blurGray, sampleMask, type Gray } from '../image.js';
import { dynamicSeeds } from './seeds.js';
import { cellWatershed, mergeRegionGraph } from './regionMerge.js';
import { quantile } from './common.js';

export interface ColourStats {
  /** Spread of the chroma (a*, b*) over the analysed area, 8-bit Lab units. */
  chroma: number;
  /** Spread of the lightness L*, 8-bit Lab units. */
  lightness: number;
}

/** Lab (OpenCV 8-bit scale) of an RGB image, smoothed: median 5 px against specks, bilateral against texture. */
function smoothLab(rgb: Uint8Array, w: number, h: number): Uint8Array {
  const c = cv();
  const src = new c.Mat(h, w, c.CV_8UC3);
  src.data.set(rgb);
  const med = new c.Mat(),
    sm = new c.Mat(),
    lab = new c.Mat();
  c.medianBlur(src, med, 5);
  c.bilateralFilter(med, sm, 9, 20, 7, c.BORDER_REFLECT);
  c.cvtColor(sm, lab, c.COLOR_RGB2Lab);
  const out = new Uint8Array(lab.data);
  [src, med, sm, lab].forEach((m) => m.delete());
  return out;
}

/** Standard deviations of chroma and lightness: decides whether colour carries the grain contrast. */
export function colourStats(rgb: Uint8Array, valid: Uint8Array): ColourStats {
  const c = cv();
  const n = valid.length;
  const src = new c.Mat(1, n, c.CV_8UC3);
  src.data.set(rgb);
  const lab = new c.Mat();
  c.cvtColor(src, lab, c.COLOR_RGB2Lab);
  const d = lab.data as Uint8Array;
  let k = 0;
  const s = [0, 0, 0],
    q = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    if (!valid[i]) continue;
    k++;
    for (let ch = 0; ch < 3; ch++) {
      const v = d[3 * i + ch];
      s[ch] += v;
      q[ch] += v * v;
    }
  }
  src.delete();
  lab.delete();
  const sd = (ch: number) => (k ? Math.sqrt(Math.max(0, q[ch] / k - (s[ch] / k) ** 2)) : 0);
  return { chroma: Math.hypot(sd(1), sd(2)), lightness: sd(0) };
}

/** Colour carries the grain contrast when its spread is a real part of the image's contrast. */
export const isColourEtched = (s: ColourStats) => s.chroma >= 3 && s.chroma >= 0.35 * s.lightness;

/**
 * Labels (> 0 grains, 0 boundary or outside) of a colour micrograph.
 * 1. Relief: the larger of the Lab colour gradient and the thin-line response (dark or bright lines, whichever
 *    the image shows more of), each scaled by its 98th percentile.
 * 2. Seeds: cores of the low-relief areas split by their distance levels (as the grey model), marker watershed.
 * 3. Merging, most similar first: two neighbouring regions become one when their mean colours are closer than
 *    MERGE_DE (20261125: MERGE_SPREAD × the colour spread inside them) and no line runs between them, and a region under a third of the median region area joins its most
 *    similar neighbour (a tint-etch speck or texture cell, not a grain).
 */
export async function segmentColourGrains(
  rgb: Uint8Array,
  grey: Gray,
  valid: Uint8Array,
  version = '20261123',
): Promise<{ labels: Int32Array; count: number }> {
  // The smoothing and seed sizes are in pixels: the image is segmented at the scale where a mean intercept spans
  // about TARGET_INTERCEPT_PX. A first pass at no more than WORK_PIXELS measures the grains' scale; when it is
  // far from the target, a second pass runs at the resolution that brings it there (20261123: never above full
  // size; 20261125: small images are also up-sampled, up to 2× and MAX_UPSAMPLED_PIXELS).
  // 20261126: segmentation by region merging on colour evidence, at any working resolution (segmentByMerging)
  if (version >= '20261126') return segmentByMerging(denoiseToFloor(rgb, grey.width, grey.height), grey.width, grey.height, valid);
  const N = grey.width * grey.height;
  const newer = version >= '20261125';
  const minFactor = newer ? Math.max(0.5, Math.sqrt(N / Math.max(N, MAX_UPSAMPLED_PIXELS))) : 1;
  let f = Math.max(1, Math.sqrt(N / WORK_PIXELS));
  // 20261126: an image noisier than the segmentation is made for is smoothed first (denoiseToFloor)
  const img = version >= '20261126' ? denoiseToFloor(rgb, grey.width, grey.height) : rgb;
  let seg = await segmentAtScale(img, grey.width, grey.height, valid, f, version);
  const intercept = meanLabelRun(seg.small.labels, seg.small.w, seg.small.h);
  const far = newer
    ? Number.isFinite(intercept) && Math.abs(intercept / TARGET_INTERCEPT_PX - 1) > 0.12
    : Number.isFinite(intercept) && (intercept > 1.5 * TARGET_INTERCEPT_PX || (intercept < TARGET_INTERCEPT_PX / 1.5 && f > 1));
  if (far) {
    const next = Math.max(minFactor, (f * intercept) / TARGET_INTERCEPT_PX);
    if (Math.abs(next / f - 1) > (newer ? 0.1 : 0.2)) {
      f = next;
      seg = await segmentAtScale(img, grey.width, grey.height, valid, f, version);
    }
  }
  return { labels: seg.labels, count: seg.count };
}

/** Up-sampling of small colour images (20261125) stops at 2× and at this many working pixels. */
const MAX_UPSAMPLED_PIXELS = 1_000_000;

/** A mean intercept of about this many pixels is the scale the colour segmentation's pixel sizes are made for. */
const TARGET_INTERCEPT_PX = 28;

/** Mean run length of one grain label along rows and columns (every 4th line), band pixels left out: a quick grain-scale estimate. */
export function meanLabelRun(labels: Int32Array, w: number, h: number, valid?: Uint8Array): number {
  let length = 0,
    changes = 0;
  const walk = (start: number, step: number, n: number) => {
    let last = 0;
    for (let k = 0; k < n; k++) {
      const i = start + k * step;
      // 20261127 (`valid` given): a run that meets the excluded area ends there, as at a boundary
      if (valid && !valid[i]) {
        if (last) changes++;
        last = 0;
        continue;
      }
      const l = labels[i];
      if (l <= 0) continue;
      length++;
      if (last && l !== last) changes++;
      last = l;
    }
  };
  for (let y = 2; y < h; y += 4) walk(y * w, 1, w);
  for (let x = 2; x < w; x += 4) walk(x, w, h);
  return changes ? length / changes : NaN;
}

/** Segments at 1/f of full size (f > 1 down-sampled, f < 1 up-sampled) and scales the labels back to full size. */
async function segmentAtScale(rgb: Uint8Array, W: number, H: number, valid: Uint8Array, f: number, version: string) {
  if (f <= 1.05 && f >= 0.97) {
    const seg = await segmentAtFullSize(rgb, W, H, valid, version);
    return { ...seg, small: { labels: seg.labels, w: W, h: H } };
  }
  const w = Math.max(1, Math.round(W / f)),
    h = Math.max(1, Math.round(H / f));
  const small = await sharp(Buffer.from(rgb.buffer, rgb.byteOffset, rgb.byteLength), { raw: { width: W, height: H, channels: 3 } })
    .resize(w, h, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  const smallValid = sampleMask(valid, W, H, w, h);
  const seg = await segmentAtFullSize(new Uint8Array(small.buffer, small.byteOffset, small.byteLength), w, h, smallValid, version);
  const labels = new Int32Array(W * H);
  for (let y = 0; y < H; y++) {
    const sy = Math.min(h - 1, Math.floor((y * h) / H));
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      labels[i] = valid[i] ? seg.labels[sy * w + Math.min(w - 1, Math.floor((x * w) / W))] : 0;
    }
  }
  return { labels, count: seg.count, small: { labels: seg.labels, w, h } };
}

/** Pixels the colour segmentation works on at most (see segmentColourGrains). */
const WORK_PIXELS = 250_000;

async function segmentAtFullSize(
  rgb: Uint8Array,
  w: number,
  h: number,
  valid: Uint8Array,
  version: string,
): Promise<{ labels: Int32Array; count: number }> {
  const N = w * h;
  const lab = smoothLab(rgb, w, h);
  const c = cv();
  const labMat = new c.Mat(h, w, c.CV_8UC3);
  labMat.data.set(lab);
  const labF = new c.Mat(),
    gx = new c.Mat(),
    gy = new c.Mat();
  labMat.convertTo(labF, c.CV_32FC3);
  c.Sobel(labF, gx, c.CV_32F, 1, 0, 3);
  c.Sobel(labF, gy, c.CV_32F, 0, 1, 3);
  const gxd = gx.data32F as Float32Array,
    gyd = gy.data32F as Float32Array;
  const colour = new Float32Array(N);
  for (let i = 0, j = 0; i < N; i++, j += 3) {
    const a0 = gxd[j],
      a1 = gxd[j + 1],
      a2 = gxd[j + 2],
      b0 = gyd[j],
      b1 = gyd[j + 1],
      b2 = gyd[j + 2];
    colour[i] = Math.sqrt(a0 * a0 + a1 * a1 + a2 * a2 + b0 * b0 + b1 * b1 + b2 * b2);
  }
  [labMat, labF, gx, gy].forEach((m) => m.delete());
  // thin lines of either polarity on the lightness
  const L: Gray = { width: w, height: h, data: new Uint8Array(N) };
  for (let i = 0; i < N; i++) L.data[i] = lab[3 * i];
  const g = await blurGray(L, 1.2);
  const dark = blackHat(g, 11);
  const inverted: Gray = { width: w, height: h, data: g.data.map((v) => 255 - v) };
  const bright = blackHat(inverted, 11);
  const dq = quantile(dark.data, 0.98),
    bq = quantile(bright.data, 0.98);
  const line = dq >= bq ? dark.data : bright.data;
  const lq = Math.max(dq, bq, 1);
  const cq = Math.max(quantile(colour, 0.98), 1);
  const relief: Gray = { width: w, height: h, data: new Uint8Array(N) };
  const lineN = new Float32Array(N);
  for (let i = 0; i < N; i++) {
    lineN[i] = Math.min(1, line[i] / lq);
    relief.data[i] = Math.min(255, Math.round(255 * Math.max(colour[i] / cq, lineN[i])));
  }
  const interior = new Uint8Array(N);
  for (let i = 0; i < N; i++) interior[i] = valid[i] && relief.data[i] < 60 ? 255 : 0;
  const { seeds, count } = dynamicSeeds(distanceTransform(interior, w, h), w, h);
  const excluded = count + 1;
  const markers = new Int32Array(N);
  for (let i = 0; i < N; i++) markers[i] = valid[i] ? seeds[i] : excluded;
  const ws = watershed(relief, markers);
  for (let i = 0; i < N; i++) if (ws[i] === excluded || ws[i] < 0) ws[i] = 0;
  const merged = mergeRegions(ws, count, lab, lineN, w, h, version >= '20261125');
  return { labels: merged, count };
}

/** 20261123: mean colours closer than this (8-bit Lab units, about ΔE*ab 4) are one grain's unless a line parts them. */
const MERGE_DE = 10;
/** 20261125: mean colours closer than this many times the colour spread inside the two regions are one grain's. */
const MERGE_SPREAD = 0.75;

/** Region merging on the region adjacency graph of a watershed (see segmentColourGrains, step 3). */
function mergeRegions(ws: Int32Array, n: number, lab: Uint8Array, lineN: Float32Array, w: number, h: number, relative: boolean): Int32Array {
  const N = w * h;
  // per region: sums of L, a, b, the pixel count and the sum of squares (for the colour spread inside the region)
  const sum = new Float64Array((n + 1) * 5);
  for (let i = 0; i < N; i++) {
    const l = ws[i];
    if (l <= 0) continue;
    const L = lab[3 * i],
      A = lab[3 * i + 1],
      B = lab[3 * i + 2];
    sum[5 * l] += L;
    sum[5 * l + 1] += A;
    sum[5 * l + 2] += B;
    sum[5 * l + 3]++;
    sum[5 * l + 4] += L * L + A * A + B * B;
  }
  /** Colour spread (rms distance from the mean colour) inside a region. */
  const spread = (R: number) => {
    const c = sum[5 * R + 3];
    let m2 = 0;
    for (let k = 0; k < 3; k++) m2 += (sum[5 * R + k] / c) ** 2;
    return Math.sqrt(Math.max(0, sum[5 * R + 4] / c - m2));
  };
  // 20261125: the merging distance follows the image, not a fixed ΔE: MERGE_SPREAD × the colour spread inside the
  // two regions (texture, noise, etch tint), no less than half the spread inside regions over the whole image — a
  // darker area or a flatter gamma shrinks the steps between grains and the spread inside them alike.
  let inside = 0,
    count = 0;
  for (let l = 1; l <= n; l++)
    if (sum[5 * l + 3] > 0) {
      inside += spread(l) ** 2 * sum[5 * l + 3];
      count += sum[5 * l + 3];
    }
  const globalSpread = count ? Math.sqrt(inside / count) : 0;
  const mergeAt = (A: number, B: number) =>
    relative ? MERGE_SPREAD * Math.max(0.5 * globalSpread, Math.sqrt((spread(A) ** 2 + spread(B) ** 2) / 2)) : MERGE_DE;
  // edges between regions across a watershed line pixel: mean line response along them
  const edges = new Map<number, { a: number; b: number; line: number; px: number }>();
  const nb = [0, 0, 0, 0];
  for (let y = 1; y < h - 1; y++)
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      if (ws[i] !== 0) continue;
      nb[0] = ws[i - 1];
      nb[1] = ws[i + 1];
      nb[2] = ws[i - w];
      nb[3] = ws[i + w];
      for (let p = 0; p < 4; p++)
        for (let q = p + 1; q < 4; q++) {
          const u = nb[p],
            v = nb[q];
          if (u <= 0 || v <= 0 || u === v) continue;
          const a = Math.min(u, v),
            b = Math.max(u, v);
          const key = a * (n + 1) + b;
          const e = edges.get(key);
          if (e) {
            e.line += lineN[i];
            e.px++;
          } else edges.set(key, { a, b, line: lineN[i], px: 1 });
        }
    }
  const parent = new Int32Array(n + 1);
  for (let i = 0; i <= n; i++) parent[i] = i;
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  };
  const dE = (A: number, B: number) => {
    let d = 0;
    for (let k = 0; k < 3; k++) {
      const v = sum[5 * A + k] / sum[5 * A + 3] - sum[5 * B + k] / sum[5 * B + 3];
      d += v * v;
    }
    return Math.sqrt(d);
  };
  const list = [...edges.values()].filter((e) => sum[5 * e.a + 3] > 0 && sum[5 * e.b + 3] > 0);

  for (let pass = 0; pass < 10; pass++) {
    const areas: number[] = [];
    for (let l = 1; l <= n; l++) if (find(l) === l && sum[5 * l + 3] > 0) areas.push(sum[5 * l + 3]);
    areas.sort((x, y) => x - y);
    const minArea = (areas[areas.length >> 1] ?? 0) / 3;
    const scored = list
      .map((e) => ({ e, A: find(e.a), B: find(e.b) }))
      .filter((s) => s.A !== s.B)
      .map((s) => ({ ...s, d: dE(s.A, s.B), lineMean: s.e.line / s.e.px }))
      .sort((x, y) => x.d - y.d);
    let merges = 0;
    for (const s of scored) {
      const A = find(s.A),
        B = find(s.B);
      if (A === B || s.lineMean >= 0.6) continue;
      if (s.d < mergeAt(A, B) || Math.min(sum[5 * A + 3], sum[5 * B + 3]) < minArea) {
        parent[B] = A;
        for (let k = 0; k < 5; k++) sum[5 * A + k] += sum[5 * B + k];
        merges++;
      }
    }
    if (!merges) break;
  }
  const out = new Int32Array(N);
  for (let i = 0; i < N; i++) out[i] = ws[i] > 0 ? find(ws[i]) : 0;
  return out;
}

/**
 * Noise level of an RGB image: σ of Gaussian pixel noise from the finest diagonal wavelet detail
 * (x00 − x10 − x01 + x11) / 2 of each channel, by its median absolute value / 0.6745 (Donoho's estimate; edges
 * and texture are few among the 2×2 blocks and move the median little). Every 2nd block in each direction.
 */
export function noiseSigma(rgb: Uint8Array, w: number, h: number): number {
  const hist = new Uint32Array(512);
  let n = 0;
  for (let y = 0; y + 1 < h; y += 2)
    for (let x = 0; x + 1 < w; x += 2) {
      const i = 3 * (y * w + x),
        j = i + 3 * w;
      for (let c = 0; c < 3; c++) {
        const d = Math.abs(rgb[i + c] - rgb[i + 3 + c] - rgb[j + c] + rgb[j + 3 + c]);
        hist[d]++;
        n++;
      }
    }
  if (!n) return 0;
  let acc = 0;
  for (let v = 0; v < hist.length; v++) {
    acc += hist[v];
    if (acc >= n / 2) return (v - 0.5 + (n / 2 - (acc - hist[v])) / hist[v]) / 2 / 0.6745;
  }
  return 0;
}

/** 20261126: pixel noise up to this σ (8-bit RGB units) is what the colour segmentation's smoothing is made for. */
const NOISE_FLOOR = 5;

/**
 * 20261126: an image noisier than NOISE_FLOOR is smoothed first, by an edge-preserving (bilateral) filter whose
 * colour range follows the excess noise σx = √(σ² − floor²): pixels whose colours differ by noise are averaged,
 * pixels across a grain boundary (a tint step several times the noise) are not. The window is 5 px: noise is a
 * pixel-scale property, the grains' scale does not enter.
 */
export function denoiseToFloor(rgb: Uint8Array, w: number, h: number): Uint8Array {
  const s = noiseSigma(rgb, w, h);
  const sx = Math.sqrt(Math.max(0, s * s - NOISE_FLOOR * NOISE_FLOOR));
  if (sx < 1) return rgb;
  const c = cv();
  const src = new c.Mat(h, w, c.CV_8UC3);
  src.data.set(rgb);
  const out = new c.Mat();
  c.bilateralFilter(src, out, 5, 3 * sx, 2, c.BORDER_REFLECT);
  const res = new Uint8Array(out.data);
  src.delete();
  out.delete();
  return res;
}

// ------------------------------------------------------------------------------------------------ 20261126

/**
 * 20261126: the colour path's pixel sizes follow the field, not the grains. Up to 2× (and up to WORK_PIXELS) the
 * image is resampled to WORK_PIXELS; every window of the segmentation is a multiple of the over-segmentation's cell,
 * REGIONS cells over the analysed area: the same field gives the same segmentation at any pixel size. The merge
 * (regionMerge.ts) decides on colour steps relative to the image's own local colour contrast, so where it stops is
 * set by the colour evidence, not by a grain size in pixels (before, the segmentation settled at about 28 px per
 * grain at whatever resolution it ran, and G followed the resolution).
 */
async function segmentByMerging(rgb: Uint8Array, W: number, H: number, valid: Uint8Array): Promise<{ labels: Int32Array; count: number }> {
  const N = W * H;
  const f = Math.max(0.5, Math.sqrt(N / WORK_PIXELS));
  const w = Math.max(1, Math.round(W / f)),
    h = Math.max(1, Math.round(H / f));
  let small = rgb;
  if (w !== W || h !== H) {
    const b = await sharp(Buffer.from(rgb.buffer, rgb.byteOffset, rgb.byteLength), { raw: { width: W, height: H, channels: 3 } })
      .resize(w, h, { kernel: 'cubic' })
      .raw()
      .toBuffer();
    small = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  }
  const smallValid = sampleMask(valid, W, H, w, h);
  const seg = mergeAtWorkSize(small, w, h, smallValid);
  const labels = new Int32Array(N);
  for (let y = 0; y < H; y++) {
    const sy = Math.min(h - 1, Math.floor((y * h) / H));
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      labels[i] = valid[i] ? seg.labels[sy * w + Math.min(w - 1, Math.floor((x * w) / W))] : 0;
    }
  }
  // the dividing lines are drawn again at full size: 1 px wherever two grains meet (scaled lines break up or thicken)
  return { labels: modeFilter(labels, W, H, valid, 1), count: seg.count };
}

/** 20261126: cells of the over-segmentation over the analysed area (about 7 px apart at WORK_PIXELS). */
const REGIONS = 7000;
/** 20261126: a border is a grain boundary when the colour step across it is above this × the local colour spread. */
const STEP_CONTRAST = 0.27;
/** 20261126: regions whose mean colours differ by more than this × the local colour spread stay apart. */
const MEAN_CONTRAST = 0.45;
/** 20261126: the local colour spread is taken over blocks of this many cells (and their neighbours). */
const LOCAL_CELLS = 20;

function mergeAtWorkSize(rgb: Uint8Array, w: number, h: number, valid: Uint8Array): { labels: Int32Array; count: number } {
  const N = w * h;
  let nValid = 0;
  for (let i = 0; i < N; i++) nValid += valid[i];
  const cell = Math.max(2, Math.sqrt(nValid / REGIONS));
  // smoothing (median against specks, bilateral against texture) in units of the cell
  const c = cv();
  const src = new c.Mat(h, w, c.CV_8UC3);
  src.data.set(rgb);
  const med = new c.Mat(),
    sm = new c.Mat(),
    labM = new c.Mat();
  c.medianBlur(src, med, Math.max(3, 2 * Math.round((0.83 * cell - 1) / 2) + 1));
  c.bilateralFilter(med, sm, Math.max(3, Math.round(1.5 * cell)), 20, 1.2 * cell, c.BORDER_REFLECT);
  c.cvtColor(sm, labM, c.COLOR_RGB2Lab);
  const lab = new Float32Array(labM.data as Uint8Array);
  // lightness weighted down where shading inside the grains outweighs it (lightnessWeight)
  const lw = lightnessWeight(sm.data as Uint8Array, w, h, valid, Math.round(cell));
  if (lw < 1) for (let i = 0; i < 3 * N; i += 3) lab[i] *= lw;
  [src, med, sm, labM].forEach((m) => m.delete());
  // relief: Lab colour gradient; over-segmentation into cells (cellWatershed)
  const { labels: ws, count: n } = cellWatershed(lab, w, h, valid, cell);
  const merged = mergeRegionGraph(ws, n, lab, w, h, {
    localScale: localSpread(lab, w, h, valid, Math.max(4, Math.round(LOCAL_CELLS * cell))),
    contrast: STEP_CONTRAST,
    meanContrast: MEAN_CONTRAST,
    reach: 0.5 * cell,
    minAreaFraction: 0.15,
    thinFraction: 0.3,
  });
  // grain outlines smoothed over half a cell: the cells' ragged edges are texture, not boundary
  return { labels: modeFilter(merged, w, h, valid, Math.max(1, Math.round(0.5 * cell))), count: n };
}

/**
 * 20261126: weight (MIN_LIGHTNESS_WEIGHT..1) of the lightness axis in the merge features. Shading inside the grains —
 * an uneven tint film — scales the three channels alike: it changes the lightness, not the hue, and cells of one
 * grain then differ in lightness as much as neighbouring grains do. The within-grain variation of each is the median
 * difference between pixels `lag` (one cell) apart, most such pairs lying in one grain: of the log intensity and of
 * the two opponent log-chromaticities (shading moves neither of these). Where the lightness varies more than the
 * chroma by over SHADING_EXCESS × the field's colour spread (same log units), its weight is brought down to that
 * level; a field whose grains are flat, or whose lightness and hue vary alike inside them, keeps the full weight.
 */
export function lightnessWeight(rgb: ArrayLike<number>, w: number, h: number, valid: Uint8Array, lag: number): number {
  const lg = new Float32Array(256);
  for (let v = 0; v < 256; v++) lg[v] = 100 * Math.log(v + LOG_OFFSET);
  const f = (i: number, out: number[]) => {
    const r = lg[rgb[3 * i]],
      g = lg[rgb[3 * i + 1]],
      b = lg[rgb[3 * i + 2]];
    out[0] = (r + g + b) / Math.sqrt(3);
    out[1] = (r - g) / Math.SQRT2;
    out[2] = (r + g - 2 * b) / Math.sqrt(6);
  };
  const p = [0, 0, 0],
    q = [0, 0, 0];
  const dI: number[] = [],
    dC: number[] = [];
  const sum = [0, 0, 0],
    sq = [0, 0, 0];
  let n = 0;
  for (let y = 0; y < h; y += 2)
    for (let x = 0; x < w; x += 2) {
      const i = y * w + x;
      if (!valid[i]) continue;
      f(i, p);
      n++;
      for (let k = 0; k < 3; k++) {
        sum[k] += p[k];
        sq[k] += p[k] * p[k];
      }
      for (const k of [x + lag < w ? i + lag : -1, y + lag < h ? i + lag * w : -1]) {
        if (k < 0 || !valid[k]) continue;
        f(k, q);
        dI.push(Math.abs(p[0] - q[0]));
        dC.push(Math.hypot(p[1] - q[1], p[2] - q[2]));
      }
    }
  if (!n || !dI.length) return 1;
  let spread = 0;
  for (let k = 0; k < 3; k++) spread += Math.max(0, sq[k] / n - (sum[k] / n) ** 2);
  const excess = quantile(dI, 0.5) - quantile(dC, 0.5);
  return excess > 0 ? Math.min(1, Math.max(MIN_LIGHTNESS_WEIGHT, (SHADING_EXCESS * Math.sqrt(spread)) / excess)) : 1;
}

/** 20261126: offset (8-bit units) added before the logarithm: dark pixels' noise is not blown up. */
const LOG_OFFSET = 16;
/** 20261126: within-grain lightness variation beyond the chroma's, as a fraction of the colour spread, that the merge tolerates at full lightness weight. */
const SHADING_EXCESS = 0.085;
/** 20261126: the lightness keeps at least this weight. */
const MIN_LIGHTNESS_WEIGHT = 0.2;

/**
 * Per pixel, the local colour spread (rms distance from the mean colour, 3 channels) over the b × b block around it
 * and its 8 neighbour blocks, bilinear between block centres: the contrast scale of its part of the field (an unevenly
 * lit field has lower contrast where it is darker).
 */
export function localSpread(f: ArrayLike<number>, w: number, h: number, valid: Uint8Array, b: number): Float32Array {
  const bw = Math.ceil(w / b),
    bh = Math.ceil(h / b);
  const S = new Float64Array(bw * bh * 7);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!valid[i]) continue;
      const k = 7 * (Math.floor(y / b) * bw + Math.floor(x / b));
      S[k]++;
      for (let c = 0; c < 3; c++) {
        S[k + 1 + c] += f[3 * i + c];
        S[k + 4 + c] += f[3 * i + c] ** 2;
      }
    }
  const sd = new Float32Array(bw * bh);
  const t = new Float64Array(7);
  for (let by = 0; by < bh; by++)
    for (let bx = 0; bx < bw; bx++) {
      t.fill(0);
      for (let yy = Math.max(0, by - 1); yy <= Math.min(bh - 1, by + 1); yy++)
        for (let xx = Math.max(0, bx - 1); xx <= Math.min(bw - 1, bx + 1); xx++) for (let q = 0; q < 7; q++) t[q] += S[7 * (yy * bw + xx) + q];
      let v = 0;
      if (t[0]) for (let c = 0; c < 3; c++) v += t[4 + c] / t[0] - (t[1 + c] / t[0]) ** 2;
      sd[by * bw + bx] = Math.sqrt(Math.max(1e-6, v));
    }
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const fy = Math.min(bh - 1, Math.max(0, (y + 0.5) / b - 0.5));
    const y0 = Math.floor(fy),
      y1 = Math.min(bh - 1, y0 + 1),
      v = fy - y0;
    for (let x = 0; x < w; x++) {
      const fx = Math.min(bw - 1, Math.max(0, (x + 0.5) / b - 0.5));
      const x0 = Math.floor(fx),
        x1 = Math.min(bw - 1, x0 + 1),
        u = fx - x0;
      out[y * w + x] = (sd[y0 * bw + x0] * (1 - u) + sd[y0 * bw + x1] * u) * (1 - v) + (sd[y1 * bw + x0] * (1 - u) + sd[y1 * bw + x1] * u) * v;
    }
  }
  return out;
}

/**
 * Majority label (0 left out) in the (2r+1)² window of every valid pixel, then 1-px lines (0) where two labels meet.
 * Pixels whose window holds one label only keep it (found from a box sum of the label changes).
 */
export function modeFilter(lb: Int32Array, w: number, h: number, valid: Uint8Array, r: number): Int32Array {
  const N = w * h;
  // integral image of the pixels that are a line or differ from a 4-neighbour
  const I = new Int32Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y++) {
    let row = 0;
    for (let x = 0; x < w; x++) {
      const i = y * w + x,
        l = lb[i];
      const e =
        l <= 0 || (x > 0 && lb[i - 1] !== l) || (x + 1 < w && lb[i + 1] !== l) || (y > 0 && lb[i - w] !== l) || (y + 1 < h && lb[i + w] !== l);
      row += e ? 1 : 0;
      I[(y + 1) * (w + 1) + x + 1] = I[y * (w + 1) + x + 1] + row;
    }
  }
  const out = new Int32Array(N);
  const ls: number[] = [],
    cs: number[] = [];
  for (let y = 0; y < h; y++) {
    const ya = Math.max(0, y - r),
      yb = Math.min(h - 1, y + r);
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!valid[i]) continue;
      const xa = Math.max(0, x - r),
        xb = Math.min(w - 1, x + r);
      const edges = I[(yb + 1) * (w + 1) + xb + 1] - I[ya * (w + 1) + xb + 1] - I[(yb + 1) * (w + 1) + xa] + I[ya * (w + 1) + xa];
      if (!edges) {
        out[i] = lb[i];
        continue;
      }
      ls.length = 0;
      cs.length = 0;
      let best = 0,
        bc = 0;
      for (let yy = ya; yy <= yb; yy++)
        for (let xx = xa; xx <= xb; xx++) {
          const l = lb[yy * w + xx];
          if (l <= 0) continue;
          let k = ls.indexOf(l);
          if (k < 0) {
            k = ls.length;
            ls.push(l);
            cs.push(0);
          }
          if (++cs[k] > bc) {
            bc = cs[k];
            best = l;
          }
        }
      out[i] = best;
    }
  }
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x,
        l = out[i];
      if (l > 0 && ((x + 1 < w && out[i + 1] > 0 && out[i + 1] !== l) || (y + 1 < h && out[i + w] > 0 && out[i + w] !== l))) out[i] = 0;
    }
  return out;
}
