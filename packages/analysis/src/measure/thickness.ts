// Coating thickness profile from per-column edge positions.

/** Least-squares line y = a + b·x through points (x, y). */
export function fitLine(xs: ArrayLike<number>, ys: ArrayLike<number>): { a: number; b: number } {
  const n = xs.length;
  let sx = 0,
    sy = 0,
    sxx = 0,
    sxy = 0;
  for (let i = 0; i < n; i++) {
    sx += xs[i];
    sy += ys[i];
    sxx += xs[i] * xs[i];
    sxy += xs[i] * ys[i];
  }
  const d = n * sxx - sx * sx;
  const b = d ? (n * sxy - sx * sy) / d : 0;
  return { a: (sy - b * sx) / n, b };
}

/**
 * Thickness perpendicular to the layer from top/bottom edges sampled on vertical lines: for a layer
 * tilted by θ (slope of the fitted mid-line) a vertical chord is t/cos θ, so t = (bottom − top)·cos θ.
 */
export function perpendicularThickness(
  xs: ArrayLike<number>,
  top: ArrayLike<number>,
  bottom: ArrayLike<number>,
): { thickness: Float64Array; tiltDeg: number } {
  const mid = new Float64Array(xs.length);
  for (let i = 0; i < xs.length; i++) mid[i] = (top[i] + bottom[i]) / 2;
  const { b } = fitLine(xs, mid);
  const c = Math.cos(Math.atan(b));
  const thickness = new Float64Array(xs.length);
  for (let i = 0; i < xs.length; i++) thickness[i] = (bottom[i] - top[i]) * c;
  return { thickness, tiltDeg: (Math.atan(b) * 180) / Math.PI };
}

/** Sub-pixel position where a profile crosses `level` between samples i0 and i0+1. */
export function crossing(p0: number, p1: number, level: number): number {
  const d = p1 - p0;
  if (Math.abs(d) < 1e-9) return 0.5;
  const t = (level - p0) / d;
  return t < 0 ? 0 : t > 1 ? 1 : t;
}

/** Running median (window 2r+1) to suppress single-column outliers before min/max. */
export function runningMedian(a: ArrayLike<number>, r: number): Float64Array {
  const out = new Float64Array(a.length);
  const buf: number[] = [];
  for (let i = 0; i < a.length; i++) {
    buf.length = 0;
    for (let j = Math.max(0, i - r); j <= Math.min(a.length - 1, i + r); j++) buf.push(a[j]);
    buf.sort((p, q) => p - q);
    out[i] = buf[buf.length >> 1];
  }
  return out;
}
