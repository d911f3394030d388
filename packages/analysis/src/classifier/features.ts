// Multi-scale filter features of a pixel classifier, as ilastik and Fiji's Trainable Weka Segmentation compute them:
// per scale σ the Gaussian-smoothed grey, its gradient magnitude, the Laplacian of Gaussian, the difference of
// Gaussians and the two eigenvalues of the Hessian and of the structure tensor; plus the raw grey value.
// Computed on a working scale (large images are averaged down first), in Float32, then quantised to 8 bit bins
// with the ranges stored in the model, so a trained classifier reads another image's features the same way.

export const DEFAULT_SIGMAS = [0.7, 1.6, 3.5, 5, 10] as const;

export type FeatureKind = 'gauss' | 'gradient' | 'log' | 'dog' | 'hessian1' | 'hessian2' | 'structure1' | 'structure2';
export const FEATURE_KINDS: FeatureKind[] = ['gauss', 'gradient', 'log', 'dog', 'hessian1', 'hessian2', 'structure1', 'structure2'];

export interface FeatureSpec {
  /** The scales in working pixels. */
  sigmas: number[];
  kinds: FeatureKind[];
  /**
   * How the working image's grey is brought to a common scale before the features: 'percentiles' maps its 0.5th
   * and 99.5th percentiles to 0 and 255 (another image of the material at another brightness and contrast reads
   * as the strokes' image did). Absent (recipes before it): the grey as it is.
   */
  normalise?: 'percentiles';
}

/**
 * What new classifiers compute: the scales of DEFAULT_SIGMAS and a context scale of 20 working pixels (where a
 * band lies relative to its neighbours: an oxide under a bright top coat and the same grey of the substrate far
 * below), on the normalised grey. Recipes store their spec, so older ones keep theirs.
 */
export const DEFAULT_FEATURES: FeatureSpec = { sigmas: [...DEFAULT_SIGMAS, 20], kinds: [...FEATURE_KINDS], normalise: 'percentiles' };

/** The working image as the spec reads it (normalise: see FeatureSpec). */
export function normaliseGrey(img: FloatImage, spec: FeatureSpec): FloatImage {
  if (spec.normalise !== 'percentiles') return img;
  const n = img.data.length;
  const bins = 4096;
  const hist = new Float64Array(bins);
  let lo = Infinity,
    hi = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = img.data[i];
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (!(hi > lo)) return img;
  const k = (bins - 1) / (hi - lo);
  for (let i = 0; i < n; i++) hist[Math.round((img.data[i] - lo) * k)]++;
  const at = (q: number) => {
    let acc = 0;
    for (let b = 0; b < bins; b++) if ((acc += hist[b]) >= q * n) return lo + b / k;
    return hi;
  };
  const p0 = at(0.005),
    p1 = at(0.995);
  if (!(p1 - p0 > 1e-3)) return img;
  const scale = 255 / (p1 - p0);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = (img.data[i] - p0) * scale;
  return { width: img.width, height: img.height, data: out };
}

export interface FloatImage {
  width: number;
  height: number;
  data: Float32Array;
}

/** The names of the feature planes in the order featureStack computes them ("raw", "gauss@0.7"…). */
export function featureNames(spec: FeatureSpec): string[] {
  const names = ['raw'];
  for (const s of spec.sigmas) for (const k of spec.kinds) names.push(`${k}@${s}`);
  return names;
}

function kernel(sigma: number): Float32Array {
  const r = Math.max(1, Math.ceil(3 * sigma));
  const k = new Float32Array(2 * r + 1);
  let sum = 0;
  for (let i = -r; i <= r; i++) sum += k[i + r] = Math.exp((-i * i) / (2 * sigma * sigma));
  for (let i = 0; i < k.length; i++) k[i] /= sum;
  return k;
}

/** Separable Gaussian blur with reflected borders. */
export function gaussian(src: FloatImage, sigma: number): FloatImage {
  const { width: w, height: h } = src;
  if (sigma <= 0) return { width: w, height: h, data: Float32Array.from(src.data) };
  const k = kernel(sigma),
    r = (k.length - 1) / 2;
  const tmp = new Float32Array(w * h),
    out = new Float32Array(w * h);
  const refl = (i: number, n: number) => {
    while (i < 0 || i >= n) i = i < 0 ? -i - 1 : 2 * n - i - 1;
    return i;
  };
  const xIdx = new Int32Array(w + 2 * r);
  for (let i = 0; i < xIdx.length; i++) xIdx[i] = refl(i - r, w);
  const yIdx = new Int32Array(h + 2 * r);
  for (let i = 0; i < yIdx.length; i++) yIdx[i] = refl(i - r, h);
  const s = src.data;
  for (let y = 0; y < h; y++) {
    const o = y * w;
    for (let x = 0; x < w; x++) {
      let acc = 0;
      for (let j = 0; j < k.length; j++) acc += k[j] * s[o + xIdx[x + j]];
      tmp[o + x] = acc;
    }
  }
  for (let y = 0; y < h; y++) {
    const o = y * w;
    for (let j = 0; j < k.length; j++) {
      const kj = k[j],
        so = yIdx[y + j] * w;
      for (let x = 0; x < w; x++) out[o + x] += kj * tmp[so + x];
    }
  }
  return { width: w, height: h, data: out };
}

/** Averages a grey image down by an integer factor (area mean; the edge blocks are partial). */
export function downsample(data: Uint8Array | Float32Array, width: number, height: number, factor: number): FloatImage {
  if (factor <= 1) return { width, height, data: Float32Array.from(data) };
  const w = Math.ceil(width / factor),
    h = Math.ceil(height / factor);
  const sum = new Float32Array(w * h),
    n = new Float32Array(w * h);
  for (let y = 0; y < height; y++) {
    const ty = ((y / factor) | 0) * w;
    for (let x = 0; x < width; x++) {
      const t = ty + ((x / factor) | 0);
      sum[t] += data[y * width + x];
      n[t]++;
    }
  }
  for (let i = 0; i < sum.length; i++) sum[i] /= n[i];
  return { width: w, height: h, data: sum };
}

/** The integer factor that brings width × height to at most maxPixels. */
export function workingFactor(width: number, height: number, maxPixels: number): number {
  return Math.max(1, Math.ceil(Math.sqrt((width * height) / maxPixels)));
}

/** Bilinear upsampling of a plane computed at 1/f of the working grid back to width × height. */
export function upsample(src: FloatImage, width: number, height: number, f: number): Float32Array {
  if (f === 1 && src.width === width && src.height === height) return src.data;
  const out = new Float32Array(width * height);
  const { width: sw, height: sh, data } = src;
  for (let y = 0; y < height; y++) {
    const fy = Math.min(Math.max((y + 0.5) / f - 0.5, 0), sh - 1);
    const y0 = fy | 0,
      y1 = Math.min(y0 + 1, sh - 1),
      wy = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(Math.max((x + 0.5) / f - 0.5, 0), sw - 1);
      const x0 = fx | 0,
        x1 = Math.min(x0 + 1, sw - 1),
        wx = fx - x0;
      const a = data[y0 * sw + x0] * (1 - wx) + data[y0 * sw + x1] * wx;
      const b = data[y1 * sw + x0] * (1 - wx) + data[y1 * sw + x1] * wx;
      out[y * width + x] = a * (1 - wy) + b * wy;
    }
  }
  return out;
}

/**
 * Calls `plane(index, data)` for every feature plane of a working-scale image, in featureNames order. The DoG of σ
 * is G(σ) − G(1.6σ); eigenvalues are sorted λ1 ≥ λ2; the structure tensor's window is 2σ on gradients at σ.
 * Scales of 3.2 working pixels and more are computed on an averaged-down copy (σ/f ≥ 1.6 there) and upsampled
 * bilinearly: the same smooth planes at a fraction of the cost.
 */
export function forEachFeaturePlane(img: FloatImage, spec: FeatureSpec, plane: (index: number, data: Float32Array) => void): void {
  const { width: W, height: H } = img;
  let index = 0;
  plane(index++, img.data);
  const pyramid = new Map<number, FloatImage>([[1, img]]);
  for (const sigmaW of spec.sigmas) {
    let f = 1;
    while (sigmaW / (2 * f) >= 1.6) f *= 2;
    let level = pyramid.get(f);
    if (!level) pyramid.set(f, (level = downsample(img.data, W, H, f)));
    const sigma = sigmaW / f;
    for (const p of scalePlanes(level, sigma, spec.kinds)) plane(index++, upsample({ width: level.width, height: level.height, data: p }, W, H, f));
  }
}

/** The planes of one scale σ (in the image's own pixels), in spec.kinds order. */
function scalePlanes(img: FloatImage, sigma: number, kinds: FeatureKind[]): Float32Array[] {
  const { width: w, height: h } = img;
  const n = w * h;
  const want = new Set(kinds);
  const g = gaussian(img, sigma).data;
  const gx = new Float32Array(n),
    gy = new Float32Array(n),
    gxx = new Float32Array(n),
    gyy = new Float32Array(n),
    gxy = new Float32Array(n);
  for (let y = 0; y < h; y++) {
    const ym = y > 0 ? y - 1 : 0,
      yp = y < h - 1 ? y + 1 : h - 1;
    for (let x = 0; x < w; x++) {
      const xm = x > 0 ? x - 1 : 0,
        xp = x < w - 1 ? x + 1 : w - 1;
      const i = y * w + x,
        c = g[i];
      const l = g[y * w + xm],
        r = g[y * w + xp],
        u = g[ym * w + x],
        d = g[yp * w + x];
      gx[i] = (r - l) / 2;
      gy[i] = (d - u) / 2;
      gxx[i] = r - 2 * c + l;
      gyy[i] = d - 2 * c + u;
      gxy[i] = (g[yp * w + xp] - g[yp * w + xm] - g[ym * w + xp] + g[ym * w + xm]) / 4;
    }
  }
  // scale-normalised derivatives (σ, σ²) so that the planes of different scales are comparable
  const s1 = sigma,
    s2 = sigma * sigma;
  let sxx: Float32Array | null = null,
    syy: Float32Array | null = null,
    sxy: Float32Array | null = null;
  if (want.has('structure1') || want.has('structure2')) {
    const pxx = new Float32Array(n),
      pyy = new Float32Array(n),
      pxy = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      pxx[i] = gx[i] * gx[i] * s2;
      pyy[i] = gy[i] * gy[i] * s2;
      pxy[i] = gx[i] * gy[i] * s2;
    }
    sxx = gaussian({ width: w, height: h, data: pxx }, 2 * sigma).data;
    syy = gaussian({ width: w, height: h, data: pyy }, 2 * sigma).data;
    sxy = gaussian({ width: w, height: h, data: pxy }, 2 * sigma).data;
  }
  const dogG = want.has('dog') ? gaussian(img, 1.6 * sigma).data : null;
  const out: Float32Array[] = [];
  for (const k of kinds) {
    const p = new Float32Array(n);
    switch (k) {
      case 'gauss':
        p.set(g);
        break;
      case 'gradient':
        for (let i = 0; i < n; i++) p[i] = Math.sqrt(gx[i] * gx[i] + gy[i] * gy[i]) * s1;
        break;
      case 'log':
        for (let i = 0; i < n; i++) p[i] = (gxx[i] + gyy[i]) * s2;
        break;
      case 'dog':
        for (let i = 0; i < n; i++) p[i] = g[i] - dogG![i];
        break;
      case 'hessian1':
      case 'hessian2': {
        const sign = k === 'hessian1' ? 1 : -1;
        for (let i = 0; i < n; i++) {
          const a = gxx[i],
            b = gyy[i],
            c = gxy[i];
          p[i] = ((a + b) / 2 + (sign * Math.sqrt((a - b) * (a - b) + 4 * c * c)) / 2) * s2;
        }
        break;
      }
      case 'structure1':
      case 'structure2': {
        const sign = k === 'structure1' ? 1 : -1;
        for (let i = 0; i < n; i++) {
          const a = sxx![i],
            b = syy![i],
            c = sxy![i];
          p[i] = (a + b) / 2 + (sign * Math.sqrt((a - b) * (a - b) + 4 * c * c)) / 2;
        }
        break;
      }
    }
    out.push(p);
  }
  return out;
}

/** Range of a plane, read at the given pixel indices (the training strokes), widened by a margin. */
export function planeRange(p: Float32Array, at: ArrayLike<number>): [number, number] {
  let lo = Infinity,
    hi = -Infinity;
  for (let j = 0; j < at.length; j++) {
    const v = p[at[j]];
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo === Infinity) return [0, 1];
  if (!(hi > lo)) return [lo - 1, lo + 1];
  const m = (hi - lo) * 0.05;
  return [lo - m, hi + m];
}

export const BINS = 64;

/** Quantises one plane to BINS levels over [lo, hi] (values outside clamp). */
export function quantise(p: Float32Array, [lo, hi]: [number, number]): Uint8Array {
  const out = new Uint8Array(p.length);
  const k = BINS / (hi - lo);
  for (let i = 0; i < p.length; i++) {
    const q = ((p[i] - lo) * k) | 0;
    out[i] = q < 0 ? 0 : q >= BINS ? BINS - 1 : q;
  }
  return out;
}
