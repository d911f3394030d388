// Shading correction before the network (grain size 20261203 on): uneven illumination (a lamp off the axis, a tilted
// specimen, vignetting) multiplies the image by a smooth field. The network normalises over the whole image, so a
// field that is brighter on one side than the other shrinks the contrast it sees between neighbouring grains and it
// draws fewer boundaries (the uneven-light row of bench:robustness read −0.32 G). The correction fits a plane to
// each channel over the analysed pixels (least squares) and divides it out, keeping the channel's mean: the
// lowest-order shading model, which cannot follow the grains themselves (a plane has no bumps), so a field lit
// evenly is almost unchanged.
import { SHADING } from './tunables.js';

/** Least-squares plane a + b·x + c·y (x, y in −0.5..0.5 of the width and height) of one channel, and its mean. */
function fitPlane(rgb: Uint8Array, w: number, h: number, valid: Uint8Array, c: number, step: number) {
  // the normal equations of [1, x, y]
  let n = 0,
    sx = 0,
    sy = 0,
    sxx = 0,
    sxy = 0,
    syy = 0,
    sv = 0,
    svx = 0,
    svy = 0;
  for (let y = 0; y < h; y += step) {
    const Y = y / h - 0.5;
    for (let x = 0; x < w; x += step) {
      const i = y * w + x;
      if (!valid[i]) continue;
      const X = x / w - 0.5,
        v = rgb[3 * i + c];
      n++;
      sx += X;
      sy += Y;
      sxx += X * X;
      sxy += X * Y;
      syy += Y * Y;
      sv += v;
      svx += v * X;
      svy += v * Y;
    }
  }
  if (n < 3) return null;
  const A = [
    [n, sx, sy],
    [sx, sxx, sxy],
    [sy, sxy, syy],
  ];
  const det = (m: number[][]) =>
    m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
    m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
    m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  const D = det(A);
  // all analysed pixels on one line (a 1-px strip): no plane
  if (Math.abs(D) < 1e-9 * n * n * n) return null;
  const rhs = [sv, svx, svy];
  // Cramer's rule
  const coef = [0, 1, 2].map((k) => det(A.map((row, r) => row.map((v, q) => (q === k ? rhs[r] : v)))) / D);
  return { a: coef[0], b: coef[1], c: coef[2], mean: sv / n };
}

/**
 * The image with each channel's fitted plane divided out (its mean kept), as a new array; the gain is held within
 * SHADING.maxGain either way. `valid`: the analysed pixels (the fit uses only them; every pixel is corrected).
 */
export function correctShading(rgb: Uint8Array, w: number, h: number, valid: Uint8Array): Uint8Array {
  const step = Math.max(1, Math.floor(Math.sqrt((w * h) / SHADING.fitPixels)));
  const lo = 1 / SHADING.maxGain,
    hi = SHADING.maxGain;
  const planes = [0, 1, 2].map((c) => fitPlane(rgb, w, h, valid, c, step));
  // rounds and clamps to 0..255 on assignment
  const out = new Uint8ClampedArray(rgb.length);
  // one row's gains, channels interleaved as the pixels are
  const gain = new Float32Array(3 * w);
  const X = Float64Array.from({ length: w }, (_, x) => x / w - 0.5);
  for (let y = 0; y < h; y++) {
    const Y = y / h - 0.5;
    for (let c = 0; c < 3; c++) {
      const p = planes[c];
      if (!p) {
        for (let x = 0; x < w; x++) gain[3 * x + c] = 1;
        continue;
      }
      const { a, b, mean } = p,
        cy = p.c * Y;
      for (let x = 0; x < w; x++) {
        const fit = a + b * X[x] + cy;
        gain[3 * x + c] = fit > 0 ? Math.min(hi, Math.max(lo, mean / fit)) : 1;
      }
    }
    const o = 3 * y * w;
    for (let k = 0; k < 3 * w; k++) out[o + k] = rgb[o + k] * gain[k];
  }
  return new Uint8Array(out.buffer);
}
