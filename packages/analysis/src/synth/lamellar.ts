// Synthetic lamellar micrographs (pearlite-like) with exact ground truth: colonies — jittered-grid Voronoi cells —
// each filled with parallel dark lamellae (cementite) on a bright matrix (ferrite) at its own orientation. The truth
// is the colonies' (their boundaries are where the lamellae change direction), not the lamellae's.
import sharp from 'sharp';
import { rng, type GrainTruth, type Synth } from './index.js';
import { grainTruth, nearestSite } from './tint.js';

export interface LamellarTruth extends GrainTruth {
  /** True interlamellar spacing (perpendicular, centre to centre), µm. */
  lamellarSpacingUm: number;
}

const gauss = (r: () => number) => Math.sqrt(-2 * Math.log(r() + 1e-12)) * Math.cos(2 * Math.PI * r());

/**
 * Colonies `colonyPx` apart, lamellae `spacingPx` apart (± 15 % per colony), dark over `darkFraction` of the
 * period (anti-aliased), at a random orientation per colony; `noise` Gaussian σ (8-bit), `boundary` the
 * darkening of a 1 px line on the colony boundaries (0: none, as often after a nital etch of pearlite).
 */
export async function lamellarImage(
  o: {
    width?: number;
    height?: number;
    colonyPx?: number;
    spacingPx?: number;
    darkFraction?: number;
    seed?: number;
    pixelSizeUm?: number;
    noise?: number;
    boundary?: number;
    /** Share of the cells that are proeutectoid ferrite grains (bright, no lamellae, a dark 1 px boundary line). */
    ferrite?: number;
  } = {},
): Promise<Synth<LamellarTruth>> {
  const w = o.width ?? 640,
    h = o.height ?? 480,
    d = o.colonyPx ?? 120,
    sp = o.spacingPx ?? 8,
    dark = o.darkFraction ?? 0.3,
    r = rng(o.seed ?? 1),
    px = o.pixelSizeUm ?? 0.2;
  const gx = Math.ceil(w / d) + 2,
    gy = Math.ceil(h / d) + 2;
  const sites: [number, number][] = [];
  for (let j = 0; j < gy; j++) for (let i = 0; i < gx; i++) sites.push([(i - 1 + 0.15 + 0.7 * r()) * d, (j - 1 + 0.15 + 0.7 * r()) * d]);
  const colony = sites.map(() => ({ a: r() * Math.PI, period: sp * (0.85 + 0.3 * r()), phase: r(), ferrite: r() < (o.ferrite ?? 0) }));
  const label = nearestSite(sites, gx, gy, d, w, h);
  const grey = new Uint8Array(w * h);
  let spacing = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const c = colony[label[i] - 1];
      spacing += c.period;
      // distance (in periods) from the centre of the nearest dark lamella; 1 px of anti-aliasing at its edges
      const t = (x * Math.cos(c.a) + y * Math.sin(c.a)) / c.period + c.phase;
      const dist = Math.abs(t - Math.round(t)) * c.period;
      const cover = c.ferrite ? 0 : Math.max(0, Math.min(1, (dark * c.period) / 2 + 0.5 - dist));
      let v = 200 - 140 * cover;
      const right = x + 1 < w && label[i + 1] !== label[i] ? label[i + 1] : 0,
        below = y + 1 < h && label[i + w] !== label[i] ? label[i + w] : 0;
      const ferriteEdge = (right || below) && (c.ferrite || colony[(right || below) - 1].ferrite);
      if (ferriteEdge) v *= 0.5;
      else if ((o.boundary ?? 0) > 0 && (right || below)) v *= 1 - (o.boundary ?? 0);
      if (o.noise) v += o.noise * gauss(r);
      grey[i] = v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
    }
  const png = await sharp(Buffer.from(grey), { raw: { width: w, height: h, channels: 1 } })
    .png()
    .toBuffer();
  return {
    png,
    width: w,
    height: h,
    micrograph: { width: w, height: h },
    pixelSizeUm: px,
    scaleBar: null,
    truth: { ...grainTruth(label, w, h, px), lamellarSpacingUm: (spacing / (w * h)) * px },
  };
}
