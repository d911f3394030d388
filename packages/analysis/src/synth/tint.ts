// Synthetic colour (tint) etched micrographs with exact ground truth: grains told apart by their tint, not by
// boundary lines, as after a colour etch (Klemm, Beraha). For the colour path of the grain-size model.
import sharp from 'sharp';
import { grainTruth, rng, type GrainTruth, type Synth } from './index.js';

export { grainTruth };

const gauss = (r: () => number) => Math.sqrt(-2 * Math.log(r() + 1e-12)) * Math.cos(2 * Math.PI * r());

/** Tints of a colour etch (RGB): blues, violets, yellows, browns, in random lightness. */
const TINTS: [number, number, number][] = [
  [70, 110, 190],
  [110, 130, 210],
  [120, 90, 160],
  [170, 160, 80],
  [200, 180, 110],
  [150, 100, 70],
  [90, 150, 200],
  [140, 120, 190],
];

/**
 * Jittered-grid Voronoi grains `grainPx` apart, each one tint; `mottle` is the amplitude of a smooth texture
 * inside the grains (value noise of period about grainPx / 4, as an uneven tint film), `noise` a per-pixel Gaussian
 * noise (σ, 8-bit units, per channel), `line` the darkening (0..1) of a 1 px boundary line (0: none).
 */
export async function tintGrainImage(
  o: { width?: number; height?: number; grainPx?: number; seed?: number; pixelSizeUm?: number; mottle?: number; noise?: number; line?: number } = {},
): Promise<Synth<GrainTruth> & { labels: Int32Array }> {
  const w = o.width ?? 640,
    h = o.height ?? 480,
    d = o.grainPx ?? 40,
    r = rng(o.seed ?? 1),
    px = o.pixelSizeUm ?? 1;
  const gx = Math.ceil(w / d) + 2,
    gy = Math.ceil(h / d) + 2;
  const sites: [number, number][] = [];
  for (let j = 0; j < gy; j++) for (let i = 0; i < gx; i++) sites.push([(i - 1 + 0.15 + 0.7 * r()) * d, (j - 1 + 0.15 + 0.7 * r()) * d]);
  // neighbouring grains of one tint would be one grain to the eye too: tints are drawn until they differ from the
  // left and upper neighbours' on the grid
  const tint: [number, number, number][] = [];
  for (let k = 0; k < sites.length; k++) {
    const i = k % gx;
    let t: [number, number, number];
    for (let tries = 0; ; tries++) {
      const base = TINTS[Math.floor(r() * TINTS.length)];
      const l = 0.8 + 0.4 * r();
      t = [base[0] * l, base[1] * l, base[2] * l];
      const near = [i > 0 ? tint[k - 1] : null, k >= gx ? tint[k - gx] : null, k >= gx && i > 0 ? tint[k - gx - 1] : null];
      if (tries > 20 || near.every((n) => !n || Math.hypot(n[0] - t[0], n[1] - t[1], n[2] - t[2]) > 45)) break;
    }
    tint.push(t);
  }
  const label = nearestSite(sites, gx, gy, d, w, h);
  const mottle = valueNoise(w, h, Math.max(3, d / 4), r);
  const rgb = new Uint8Array(w * h * 3);
  const m = o.mottle ?? 0,
    sd = o.noise ?? 0,
    line = o.line ?? 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const l = label[i];
      const edge = line > 0 && ((x + 1 < w && label[i + 1] !== l) || (y + 1 < h && label[i + w] !== l));
      const t = tint[l - 1];
      for (let c = 0; c < 3; c++) {
        let v = t[c] * (1 + m * mottle[i]);
        if (edge) v *= 1 - line;
        if (sd) v += sd * gauss(r);
        rgb[3 * i + c] = v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
      }
    }
  const png = await sharp(Buffer.from(rgb), { raw: { width: w, height: h, channels: 3 } })
    .png()
    .toBuffer();
  return {
    png,
    width: w,
    height: h,
    micrograph: { width: w, height: h },
    pixelSizeUm: px,
    scaleBar: null,
    truth: grainTruth(label, w, h, px),
    labels: label,
  };
}

/** Label (1-based site index) of the nearest site of a jittered grid (cells `d` px, sites in grid order). */
export function nearestSite(sites: [number, number][], gx: number, gy: number, d: number, w: number, h: number): Int32Array {
  const label = new Int32Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const ci = Math.floor(x / d) + 1,
        cj = Math.floor(y / d) + 1;
      let best = Infinity,
        k1 = 0;
      for (let dj = -2; dj <= 2; dj++)
        for (let di = -2; di <= 2; di++) {
          const i = ci + di,
            j = cj + dj;
          if (i < 0 || j < 0 || i >= gx || j >= gy) continue;
          const k = j * gx + i;
          const dd = (sites[k][0] - x) ** 2 + (sites[k][1] - y) ** 2;
          if (dd < best) {
            best = dd;
            k1 = k;
          }
        }
      label[y * w + x] = k1 + 1;
    }
  return label;
}

/** Smooth value noise in −1..1 with features about `period` px across (bilinear between random lattice values). */
export function valueNoise(w: number, h: number, period: number, r: () => number): Float32Array {
  const nx = Math.ceil(w / period) + 2,
    ny = Math.ceil(h / period) + 2;
  const lat = Float32Array.from({ length: nx * ny }, () => 2 * r() - 1);
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const fx = x / period,
        fy = y / period;
      const i = Math.floor(fx),
        j = Math.floor(fy);
      const u = fx - i,
        v = fy - j;
      const s = (a: number) => a * a * (3 - 2 * a);
      const su = s(u),
        sv = s(v);
      const a = lat[j * nx + i],
        b = lat[j * nx + i + 1],
        c = lat[(j + 1) * nx + i],
        e = lat[(j + 1) * nx + i + 1];
      out[y * w + x] = (a * (1 - su) + b * su) * (1 - sv) + (c * (1 - su) + e * su) * sv;
    }
  return out;
}
