// Thin wrappers around OpenCV (wasm) operations used by the models. All Mats are freed here.
import { cv } from './cv.js';
import type { Gray } from './image.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type CvMat = any;

export function toMat(img: Gray) {
  const m = new (cv().Mat)(img.height, img.width, cv().CV_8UC1);
  m.data.set(img.data);
  return m;
}
function fromMat(m: { rows: number; cols: number; data: Uint8Array }): Gray {
  return { width: m.cols, height: m.rows, data: new Uint8Array(m.data) };
}

export function gaussianBlur(img: Gray, sigma: number): Gray {
  if (sigma <= 0) return img;
  const c = cv();
  const src = toMat(img),
    dst = new c.Mat();
  c.GaussianBlur(src, dst, new c.Size(0, 0), sigma, sigma, c.BORDER_REFLECT);
  const out = fromMat(dst);
  src.delete();
  dst.delete();
  return out;
}

export function medianBlur(img: Gray, k: number): Gray {
  const c = cv();
  const src = toMat(img),
    dst = new c.Mat();
  c.medianBlur(src, dst, k);
  const out = fromMat(dst);
  src.delete();
  dst.delete();
  return out;
}

/** Resize (area interpolation) — used for background estimation on large images. */
export function resize(img: Gray, w: number, h: number): Gray {
  const c = cv();
  const src = toMat(img),
    dst = new c.Mat();
  c.resize(src, dst, new c.Size(w, h), 0, 0, w < img.width ? c.INTER_AREA : c.INTER_LINEAR);
  const out = fromMat(dst);
  src.delete();
  dst.delete();
  return out;
}

/**
 * Rectangles whose union is OpenCV's elliptic structuring element of size k×k (odd k ≥ 5), as
 * [half-width, half-height]: the ellipse's rows are centred runs whose width shrinks away from the
 * middle row, so one rectangle per distinct width covers it exactly. Dilation (erosion) by a union
 * is the maximum (minimum) of the dilations (erosions) by its parts, and OpenCV filters rectangles
 * separably (row then column), so this gives bit-identical results for a fraction of the work of
 * a per-kernel-point filter (15×15: 5 rectangles ≈ 60 comparisons per pixel instead of ≈ 170).
 */
const ellipseRectCache = new Map<number, [number, number][] | null>();
export function ellipseRects(k: number): [number, number][] | null {
  if (ellipseRectCache.has(k)) return ellipseRectCache.get(k)!;
  let rects: [number, number][] | null = null;
  if (k >= 5 && k % 2 === 1) {
    const c = cv();
    const kernel = c.getStructuringElement(c.MORPH_ELLIPSE, new c.Size(k, k));
    const half = (k - 1) / 2;
    const hw: number[] = [];
    let ok = true;
    for (let y = 0; y < k; y++) {
      let n = 0,
        first = -1,
        last = -1;
      for (let x = 0; x < k; x++)
        if (kernel.ucharAt(y, x)) {
          n++;
          if (first < 0) first = x;
          last = x;
        }
      // each row must be one run centred on the anchor column
      if (n === 0 || last - first + 1 !== n || first + last !== 2 * half) ok = false;
      hw.push((n - 1) / 2);
    }
    kernel.delete();
    for (let d = 1; d <= half && ok; d++) if (hw[half + d] !== hw[half - d] || hw[half + d] > hw[half + d - 1]) ok = false;
    if (ok) {
      rects = [];
      for (let d = 0; d <= half; d++) if (d === half || hw[half + d + 1] !== hw[half + d]) rects.push([hw[half + d], d]);
    }
  }
  ellipseRectCache.set(k, rects);
  return rects;
}

/** dst = dilation / erosion of src by the k×k ellipse (replicated border); dst may not be src. */
function ellipseMorph(src: CvMat, dst: CvMat, op: 'dilate' | 'erode', k: number): void {
  const c = cv();
  const rects = ellipseRects(k);
  const border = c.morphologyDefaultBorderValue();
  const anchor = new c.Point(-1, -1);
  const apply = (s: CvMat, d: CvMat, kernel: CvMat) =>
    op === 'dilate' ? c.dilate(s, d, kernel, anchor, 1, c.BORDER_REPLICATE, border) : c.erode(s, d, kernel, anchor, 1, c.BORDER_REPLICATE, border);
  if (!rects) {
    const kernel = c.getStructuringElement(c.MORPH_ELLIPSE, new c.Size(k, k));
    apply(src, dst, kernel);
    kernel.delete();
    return;
  }
  const tmp = new c.Mat();
  rects.forEach(([a, b], j) => {
    const kernel = c.getStructuringElement(c.MORPH_RECT, new c.Size(2 * a + 1, 2 * b + 1));
    if (j === 0) apply(src, dst, kernel);
    else {
      apply(src, tmp, kernel);
      if (op === 'dilate') c.max(dst, tmp, dst);
      else c.min(dst, tmp, dst);
    }
    kernel.delete();
  });
  tmp.delete();
}

/** open / close / erode / dilate / black-hat (closing − image) by the k×k ellipse, replicated border. */
function ellipseMorphologyEx(src: CvMat, dst: CvMat, op: 'open' | 'close' | 'erode' | 'dilate' | 'blackhat', k: number): void {
  const c = cv();
  if (op === 'dilate' || op === 'erode') return ellipseMorph(src, dst, op, k);
  const mid = new c.Mat();
  if (op === 'open') {
    ellipseMorph(src, mid, 'erode', k);
    ellipseMorph(mid, dst, 'dilate', k);
  } else {
    ellipseMorph(src, mid, 'dilate', k);
    ellipseMorph(mid, dst, 'erode', k);
    if (op === 'blackhat') c.subtract(dst, src, dst);
  }
  mid.delete();
}

/** Morphological black-hat (closing − image) with an elliptic kernel: thin dark lines light up. */
export function blackHat(img: Gray, k: number): Gray {
  const c = cv();
  const src = toMat(img),
    dst = new c.Mat();
  ellipseMorphologyEx(src, dst, 'blackhat', k);
  const out = fromMat(dst);
  src.delete();
  dst.delete();
  return out;
}

export function morph(mask: Uint8Array, w: number, h: number, op: 'open' | 'close' | 'erode' | 'dilate', k: number): Uint8Array {
  const c = cv();
  const src = new c.Mat(h, w, c.CV_8UC1);
  src.data.set(mask);
  const dst = new c.Mat();
  ellipseMorphologyEx(src, dst, op, k);
  const out = new Uint8Array(dst.data);
  src.delete();
  dst.delete();
  return out;
}

export interface Components {
  count: number; // labels 1..count
  labels: Int32Array;
  area: Int32Array; // per label
  bbox: Int32Array; // x,y,w,h per label
}

/** Connected components (8-connectivity) of a binary mask (non-zero = foreground). */
export function components(mask: Uint8Array, w: number, h: number, connectivity: 4 | 8 = 8): Components {
  const c = cv();
  const src = new c.Mat(h, w, c.CV_8UC1);
  src.data.set(mask);
  const labels = new c.Mat(),
    stats = new c.Mat(),
    cent = new c.Mat();
  const n = c.connectedComponentsWithStats(src, labels, stats, cent, connectivity, c.CV_32S);
  const lab = new Int32Array(labels.data32S);
  const s = stats.data32S as Int32Array;
  const area = new Int32Array(n),
    bbox = new Int32Array(n * 4);
  for (let i = 0; i < n; i++) {
    area[i] = s[i * 5 + 4];
    bbox[i * 4] = s[i * 5];
    bbox[i * 4 + 1] = s[i * 5 + 1];
    bbox[i * 4 + 2] = s[i * 5 + 2];
    bbox[i * 4 + 3] = s[i * 5 + 3];
  }
  src.delete();
  labels.delete();
  stats.delete();
  cent.delete();
  return { count: n - 1, labels: lab, area, bbox };
}

/** Euclidean distance transform (to the nearest zero pixel). */
export function distanceTransform(mask: Uint8Array, w: number, h: number): Float32Array {
  const c = cv();
  const src = new c.Mat(h, w, c.CV_8UC1);
  src.data.set(mask);
  const dst = new c.Mat();
  c.distanceTransform(src, dst, c.DIST_L2, 5);
  const out = new Float32Array(dst.data32F);
  src.delete();
  dst.delete();
  return out;
}

/** Marker-based watershed on a grey relief; returns labels (-1 on watershed lines). */
export function watershed(relief: Gray, markers: Int32Array): Int32Array {
  const c = cv();
  const g = toMat(relief);
  const rgb = new c.Mat();
  c.cvtColor(g, rgb, c.COLOR_GRAY2RGB);
  const mk = new c.Mat(relief.height, relief.width, c.CV_32SC1);
  mk.data32S.set(markers);
  c.watershed(rgb, mk);
  const out = new Int32Array(mk.data32S);
  g.delete();
  rgb.delete();
  mk.delete();
  return out;
}

/** Rotates an image about its centre by `deg` (counter-clockwise), border replicated. */
export function rotate(img: Gray, deg: number, interp: 'linear' | 'nearest' = 'linear'): Gray {
  const c = cv();
  const src = toMat(img),
    dst = new c.Mat();
  const M = c.getRotationMatrix2D(new c.Point(img.width / 2, img.height / 2), deg, 1);
  c.warpAffine(src, dst, M, new c.Size(img.width, img.height), interp === 'linear' ? c.INTER_LINEAR : c.INTER_NEAREST, c.BORDER_REPLICATE);
  const out = fromMat(dst);
  src.delete();
  dst.delete();
  M.delete();
  return out;
}
