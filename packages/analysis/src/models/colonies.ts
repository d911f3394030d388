// 20261127: colonies of a lamellar structure (pearlite, bainite, Widmanstätten or basket-weave α in titanium). The
// grain segmentation cuts such a structure into the strips between lamellae; a metallographer measures the
// colonies instead, regions where the lamellae run one way, bounded where their direction changes. The colonies
// are segmented on the local lamella orientation (gradient structure tensor over about one lamellar spacing), in the
// same way as tint-etched grains are segmented on colour (cells, marker watershed, merging of neighbours whose
// orientation steps less than a few degrees across their border: regionMerge.ts). Areas without lamellae
// (proeutectoid ferrite grains between pearlite colonies) are left to the grain segmentation (joinColonies).
import { cv } from '../cv.js';
import { resize } from '../cvops.js';
import { sampleMask, type Gray } from '../image.js';
import { cellWatershed, mergeRegionGraph } from './regionMerge.js';
import { modeFilter } from './grainColour.js';

/** Pixels the orientation field is computed on at most. */
const COLONY_PIXELS = 1_000_000;
/** The structure tensor is averaged over a Gaussian of σ = this × the lamellar spacing (lamellarity's window unit). */
const WINDOW = 0.5;
/** Feature units per unit of the orientation vector (cos 2θ, sin 2θ) (a unit vector: coherence-weighted, it dipped at every colony boundary). */
const UNIT = 100;
/**
 * A border between two cells is a colony boundary when the orientation vector steps by more than this (feature
 * units) across it: 100 · 2 sin Δθ, sampled one spacing either side of a boundary smoothed by the window, so about
 * 6–8° between the lamellae of two colonies (15° is the usual boundary between colonies and between packets).
 */
const STEP = 20;
/** Regions whose mean orientations differ by more than about 12° never merge. */
const MEAN_STEP = 40;
/** The over-segmentation's cells are this × the spacing apart (fewer, larger cells: 1.5 read G_I rms 0.35, 2 0.27 on synthetic colonies). */
const CELL = 2;
/** A merged region is a colony when its mean texture (gradient energy against the field's 90th percentile) is above this. */
const COLONY_TEXTURE = 0.35;
/** …and of a colony region, the pixels whose texture is at least this. */
const PIXEL_TEXTURE = 0.25;

export interface Colonies {
  labels: Int32Array;
  count: number;
  /** Share of the analysed area in lamellar colonies (the rest keeps the grain segmentation), 0..1. */
  lamellarShare: number;
  /** Number of colonies (regions of lamellae) among the labels. */
  colonies: number;
  /** Radius (px) over which joinColonies smooths the outlines: the steps of the reduced grid the colonies were found on. */
  smoothing: number;
}

/**
 * Colonies of the lamellar structure in `img` (full size; `valid` the analysed area), lamellae about `spacingPx`
 * apart along random lines (lamellarity's window unit, the median gap between lines, full-size px). Returns labels at full size: 1..colonies on the
 * colonies, 0 elsewhere (no lines between colonies yet, outlines not yet smoothed: joinColonies does both).
 */
export function segmentColonies(img: Gray, valid: Uint8Array, spacingPx: number): Colonies {
  const { width: W, height: H } = img;
  const f = Math.max(1, Math.sqrt((W * H) / COLONY_PIXELS));
  const w = Math.max(1, Math.round(W / f)),
    h = Math.max(1, Math.round(H / f));
  const g = f > 1 ? resize(img, w, h) : img;
  const s = Math.max(2, spacingPx / f);
  // the tensor is brought down to about 3 px per spacing before the window (its detail is the window's)
  const r = Math.max(1, Math.floor(s / 3));
  const { A, B, D, rw, rh } = structureTensor(g, r, (WINDOW * s) / r);
  const n = rw * rh;
  const v = sampleMask(valid, W, H, rw, rh);
  // features: the orientation vector coherence × (cos 2θ, sin 2θ), and the texture (gradient energy against the
  // field's 90th percentile, half weight) that tells lamellae from the flat inside of a ferrite grain
  const trace = new Float32Array(n);
  for (let i = 0; i < n; i++) trace[i] = A[i] + D[i];
  const q = Math.max(1e-6, percentile(trace, v, 0.9));
  const feat = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) {
    const t = trace[i];
    if (t <= 0) continue;
    const u = (A[i] - D[i]) / t,
      p = (2 * B[i]) / t;
    const k = 1 / Math.max(1e-6, Math.sqrt(u * u + p * p));
    feat[3 * i] = UNIT * u * k;
    feat[3 * i + 1] = UNIT * p * k;
    feat[3 * i + 2] = 0.5 * UNIT * Math.min(1, t / q);
  }
  const ws = cellWatershed(feat, rw, rh, v, Math.max(3, (CELL * s) / r));
  const merged = mergeRegionGraph(ws.labels, ws.count, feat, rw, rh, {
    contrast: STEP,
    meanContrast: MEAN_STEP,
    reach: Math.max(1, s / r),
    minAreaFraction: 0.15,
    thinFraction: 0.3,
  });
  const smooth = fillLines(modeFilter(merged, rw, rh, v, Math.max(1, Math.round((1 * s) / r))), rw, rh, v);
  // colonies: merged regions of lamellae (the inside of a ferrite grain is flat)
  const texSum = new Float64Array(ws.count + 1),
    areaOf = new Float64Array(ws.count + 1);
  for (let i = 0; i < n; i++)
    if (smooth[i] > 0) {
      texSum[smooth[i]] += feat[3 * i + 2] / (0.5 * UNIT);
      areaOf[smooth[i]]++;
    }
  const colonyId = new Int32Array(ws.count + 1);
  let colonies = 0;
  for (let l = 1; l <= ws.count; l++) if (areaOf[l] > 0 && texSum[l] / areaOf[l] > COLONY_TEXTURE) colonyId[l] = ++colonies;
  // full size
  const N = W * H;
  const out = new Int32Array(N);
  let inColony = 0,
    nValid = 0;
  for (let y = 0; y < H; y++) {
    const sy = Math.min(rh - 1, Math.floor((y * rh) / H));
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      if (!valid[i]) continue;
      nValid++;
      const j = sy * rw + Math.min(rw - 1, Math.floor((x * rw) / W));
      // a colony's pixels: of a colony region, where there are lamellae (not the flat ferrite it reaches into)
      const k = feat[3 * j + 2] >= 0.5 * UNIT * PIXEL_TEXTURE ? colonyId[smooth[j]] : 0;
      if (k) {
        out[i] = k;
        inColony++;
      }
    }
  }
  // the outlines are smoothed over the reduced pixel (its steps) when joined with the grains (joinColonies)
  return { labels: out, count: colonies, lamellarShare: nValid ? inColony / nValid : 0, colonies, smoothing: Math.max(1, Math.round(0.75 * r * f)) };
}

/**
 * The colonies (segmentColonies) and the grains of the rest of the field (labels, 0 = boundary; null when there is
 * no such area) as one segmentation: grains numbered after the colonies, outlines smoothed by a majority filter over
 * the colonies' `smoothing` radius (which also closes the grain segmentation's boundary bands) and drawn as 1 px
 * lines wherever two of them meet.
 */
export function joinColonies(col: Colonies, grains: { labels: Int32Array; count: number } | null, valid: Uint8Array, W: number, H: number): Colonies {
  const out = new Int32Array(W * H);
  for (let i = 0; i < out.length; i++) {
    if (!valid[i]) continue;
    const k = col.labels[i];
    out[i] = k ? k : grains && grains.labels[i] > 0 ? col.colonies + grains.labels[i] : 0;
  }
  // the grain segmentation's boundary bands and its unlabelled ring along the colonies go to the nearest region first
  // (left as they were, they showed as wide wedges of boundary in the overlay), then 1 px lines part the regions
  return {
    ...col,
    labels: modeFilter(fillNearest(out, W, H, valid), W, H, valid, col.smoothing),
    count: col.colonies + (grains?.count ?? 0),
  };
}

/**
 * Every unlabelled pixel inside `valid` takes the label of the nearest labelled one (chamfer distance 1 / √2, one
 * forward and one backward sweep).
 */
function fillNearest(lb: Int32Array, w: number, h: number, valid: Uint8Array): Int32Array {
  const out = lb.slice();
  const d = new Float32Array(w * h);
  for (let i = 0; i < d.length; i++) d[i] = out[i] > 0 || !valid[i] ? 0 : Infinity;
  const D = Math.SQRT2;
  const take = (i: number, j: number, c: number) => {
    if (out[j] > 0 && d[j] + c < d[i]) {
      d[i] = d[j] + c;
      out[i] = out[j];
    }
  };
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!d[i]) continue;
      if (x > 0) take(i, i - 1, 1);
      if (y > 0) {
        take(i, i - w, 1);
        if (x > 0) take(i, i - w - 1, D);
        if (x + 1 < w) take(i, i - w + 1, D);
      }
    }
  for (let y = h - 1; y >= 0; y--)
    for (let x = w - 1; x >= 0; x--) {
      const i = y * w + x;
      if (!d[i]) continue;
      if (x + 1 < w) take(i, i + 1, 1);
      if (y + 1 < h) {
        take(i, i + w, 1);
        if (x + 1 < w) take(i, i + w + 1, D);
        if (x > 0) take(i, i + w - 1, D);
      }
    }
  return out;
}

/** The dividing lines (0) inside `valid` take a neighbouring region's label (the lines are drawn at full size). */
function fillLines(lb: Int32Array, w: number, h: number, valid: Uint8Array): Int32Array {
  const out = lb.slice();
  for (let pass = 0; pass < 4; pass++) {
    let left = 0;
    const prev = out.slice();
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        if (!valid[i] || prev[i] > 0) continue;
        const l = Math.max(x > 0 ? prev[i - 1] : 0, x + 1 < w ? prev[i + 1] : 0, y > 0 ? prev[i - w] : 0, y + 1 < h ? prev[i + w] : 0);
        if (l > 0) out[i] = l;
        else left++;
      }
    if (!left) break;
  }
  return out;
}

function percentile(a: Float32Array, valid: Uint8Array, p: number): number {
  const vals: number[] = [];
  for (let i = 0; i < a.length; i++) if (valid[i]) vals.push(a[i]);
  if (!vals.length) return 0;
  vals.sort((x, y) => x - y);
  return vals[Math.min(vals.length - 1, Math.floor(p * vals.length))];
}

/**
 * The gradient structure tensor of `g` (Gaussian σ 1, Sobel): its three products averaged down by `r` (area, to
 * round(w / r) × round(h / r)) and then over a Gaussian of σ `sigma` (reduced px).
 */
export function structureTensor(g: Gray, r: number, sigma: number): { A: Float32Array; B: Float32Array; D: Float32Array; rw: number; rh: number } {
  const { width: w, height: h } = g;
  const rw = Math.max(1, Math.round(w / r)),
    rh = Math.max(1, Math.round(h / r));
  const c = cv();
  const src = new c.Mat(h, w, c.CV_8UC1);
  src.data.set(g.data);
  const fl = new c.Mat(),
    gx = new c.Mat(),
    gy = new c.Mat();
  src.convertTo(fl, c.CV_32F);
  c.GaussianBlur(fl, fl, new c.Size(0, 0), 1, 1, c.BORDER_REFLECT);
  c.Sobel(fl, gx, c.CV_32F, 1, 0, 3);
  c.Sobel(fl, gy, c.CV_32F, 0, 1, 3);
  const X = gx.data32F as Float32Array,
    Y = gy.data32F as Float32Array;
  const J = [new c.Mat(h, w, c.CV_32F), new c.Mat(h, w, c.CV_32F), new c.Mat(h, w, c.CV_32F)];
  const [a, b, d] = J.map((m) => m.data32F as Float32Array);
  for (let i = 0; i < w * h; i++) {
    a[i] = X[i] * X[i];
    b[i] = X[i] * Y[i];
    d[i] = Y[i] * Y[i];
  }
  for (const m of J) {
    if (r > 1) c.resize(m, m, new c.Size(rw, rh), 0, 0, c.INTER_AREA);
    c.GaussianBlur(m, m, new c.Size(0, 0), sigma, sigma, c.BORDER_REFLECT);
  }
  const [A, B, D] = J.map((m) => Float32Array.from(m.data32F as Float32Array));
  [src, fl, gx, gy, ...J].forEach((m) => m.delete());
  return { A, B, D, rw, rh };
}
