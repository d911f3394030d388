// Grain segmentation of colour (tint) etched micrographs, where grains differ by colour and may have no dark
// boundary lines: colour-gradient relief, marker watershed, then merging of regions that neither differ in colour
// nor have a boundary line between them.
import { cv } from '../cv.js';
import { blackHat, distanceTransform, watershed } from '../cvops.js';
import sharp from 'sharp';
import { blurGray, type Gray } from '../image.js';
import { dynamicSeeds } from './seeds.js';

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

const pct = (a: ArrayLike<number>, q: number) => {
  const s = Float32Array.from(a).sort();
  return s.length ? s[Math.floor((s.length - 1) * q)] : 0;
};

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
export function meanLabelRun(labels: Int32Array, w: number, h: number): number {
  let length = 0,
    changes = 0;
  const walk = (start: number, step: number, n: number) => {
    let last = 0;
    for (let k = 0; k < n; k++) {
      const l = labels[start + k * step];
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
  const smallValid = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      smallValid[y * w + x] = valid[Math.min(H - 1, Math.floor(((y + 0.5) * H) / h)) * W + Math.min(W - 1, Math.floor(((x + 0.5) * W) / w))];
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
  const dq = pct(dark.data, 0.98),
    bq = pct(bright.data, 0.98);
  const line = dq >= bq ? dark.data : bright.data;
  const lq = Math.max(dq, bq, 1);
  const cq = Math.max(pct(colour, 0.98), 1);
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
