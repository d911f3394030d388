// Issue 22 (recipes, crack count): which parts of a recipe's crack class are cracks, and which are one crack.
//
// A pixel classifier's crack class is noisy in ways a crack detector's ridges are not: one crack comes out as
// several dashes along its length (the votes dip where the crack narrows), and the class also takes the dark rims
// of pores and the dark seam along the layer's interfaces, which are long and thin enough to pass for cracks.
// recipeCrackMask reads the class as a crack is drawn by hand: dashes that continue each other are one crack,
// and a crack lies inside the layer (the recipe's crack region on both sides of it), encloses no pore and is
// long and thin.
import { components, morph } from '../cvops.js';
import { skeletonize, skeletonLength } from '../measure/skeleton.js';

export const RECIPE_CRACKS = {
  /** First model version that reads a recipe's crack class with recipeCrackMask (null: none). */
  from: '20261204' as string | null,
  /** Dashes join when the gap between their facing ends is at most this many crack widths… */
  gapWidths: 3,
  /** …and at least this many pixels (a 1–2 px crack's dashes). */
  minGap: 6,
  /** Directions agree within this angle (degrees): of the two dashes, and of each dash and the gap between them. */
  maxTurnDeg: 30,
  /** A dash is directional (its direction counts) when it is this many times longer than wide. */
  directional: 2,
  /** Long and thin: centre-line length² ≥ this × area (the cracks model's test of a crack-like feature). */
  thin: 6,
  /** Specks: a piece whose box diagonal is under this share of the image's smaller side (12 px at least). */
  minExtent: 0.01,
  /** The rim of a pore: a piece that encloses more than this × its own area. */
  rim: 1,
  /** A crack lies inside the region: at least this share of its surroundings is the region's material. */
  inside: 2 / 3,
  /** The surroundings looked at: from this many px off the crack (its own dark halo is nearer)… */
  ringInner: 4,
  /** …to this many. */
  ringOuter: 7,
  /** The region's material: its class, grey within this many robust standard deviations (1.4826 × MAD) of its median. */
  material: 3,
};

export interface CrackPiece {
  /** Label of the piece in the joined mask's components. */
  label: number;
  area: number;
  lengthPx: number;
  /** Area enclosed by the piece (holes of the mask it surrounds). */
  enclosed: number;
  /** Share of the pixels around the piece (within 3 px) that are the region or the crack class. */
  inside: number;
  kept: boolean;
}

interface Dash {
  cx: number;
  cy: number;
  /** unit direction of the principal axis */
  ux: number;
  uy: number;
  /** ends: the pixels of extreme projection on the axis */
  ends: [number, number][];
  length: number;
  width: number;
}

/** Principal axis, extreme pixels and length/width of each component. */
function dashes(labels: Int32Array, count: number, w: number): Dash[] {
  const n = new Float64Array(count + 1),
    sx = new Float64Array(count + 1),
    sy = new Float64Array(count + 1),
    sxx = new Float64Array(count + 1),
    syy = new Float64Array(count + 1),
    sxy = new Float64Array(count + 1);
  for (let i = 0; i < labels.length; i++) {
    const l = labels[i];
    if (!l) continue;
    const x = i % w,
      y = (i - x) / w;
    n[l]++;
    sx[l] += x;
    sy[l] += y;
    sxx[l] += x * x;
    syy[l] += y * y;
    sxy[l] += x * y;
  }
  const out: Dash[] = [{ cx: 0, cy: 0, ux: 1, uy: 0, ends: [], length: 0, width: 0 }];
  for (let l = 1; l <= count; l++) {
    const cx = sx[l] / n[l],
      cy = sy[l] / n[l];
    const a = sxx[l] / n[l] - cx * cx,
      b = sxy[l] / n[l] - cx * cy,
      c = syy[l] / n[l] - cy * cy;
    const th = 0.5 * Math.atan2(2 * b, a - c);
    out.push({ cx, cy, ux: Math.cos(th), uy: Math.sin(th), ends: [], length: 0, width: 0 });
  }
  const lo = new Float64Array(count + 1).fill(Infinity),
    hi = new Float64Array(count + 1).fill(-Infinity),
    loAt = new Int32Array(count + 1),
    hiAt = new Int32Array(count + 1);
  for (let i = 0; i < labels.length; i++) {
    const l = labels[i];
    if (!l) continue;
    const x = i % w,
      y = (i - x) / w,
      d = out[l];
    const t = (x - d.cx) * d.ux + (y - d.cy) * d.uy;
    if (t < lo[l]) {
      lo[l] = t;
      loAt[l] = i;
    }
    if (t > hi[l]) {
      hi[l] = t;
      hiAt[l] = i;
    }
  }
  for (let l = 1; l <= count; l++) {
    const d = out[l];
    d.ends = [loAt[l], hiAt[l]].map((i) => [i % w, Math.floor(i / w)] as [number, number]);
    d.length = hi[l] - lo[l] + 1;
    d.width = n[l] / d.length;
  }
  return out;
}

/** Draws a segment of the given half-width into the mask. */
function drawSegment(mask: Uint8Array, w: number, h: number, a: [number, number], b: [number, number], r: number): void {
  const steps = Math.max(1, Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1])));
  const ri = Math.ceil(r);
  for (let s = 0; s <= steps; s++) {
    const x = a[0] + ((b[0] - a[0]) * s) / steps,
      y = a[1] + ((b[1] - a[1]) * s) / steps;
    for (let dy = -ri; dy <= ri; dy++)
      for (let dx = -ri; dx <= ri; dx++) {
        if (dx * dx + dy * dy > r * r + 0.25) continue;
        const xi = Math.round(x + dx),
          yi = Math.round(y + dy);
        if (xi >= 0 && yi >= 0 && xi < w && yi < h) mask[yi * w + xi] = 1;
      }
  }
}

/**
 * Dashes of one crack joined: two components join when an end of one is within the gap (RECIPE_CRACKS.gapWidths
 * crack widths, RECIPE_CRACKS.minGap px at least) of an end of the other, the other lies beyond that end, and the
 * directions agree (each directional dash's axis with the gap, and the two axes with each other); the gap is drawn
 * into the mask as the crack's continuation. `width`: the image's crack width (px).
 */
export function joinDashes(mask: Uint8Array, w: number, h: number, width: number, t = RECIPE_CRACKS): Uint8Array {
  const out = Uint8Array.from(mask);
  const cc = components(mask, w, h, 8);
  if (cc.count < 2) return out;
  const ds = dashes(cc.labels, cc.count, w);
  const gap = Math.max(t.minGap, t.gapWidths * width);
  const cosMax = Math.cos((t.maxTurnDeg * Math.PI) / 180);
  const directional = (d: Dash) => d.length >= t.directional * Math.max(1, d.width);
  // pairs whose boxes are within the gap (a grid of cells of the gap's size keeps it linear in practice)
  const cell = Math.max(8, Math.ceil(gap));
  const grid = new Map<number, number[]>();
  const gw = Math.ceil(w / cell) + 1;
  for (let l = 1; l <= cc.count; l++) {
    const x0 = Math.floor(cc.bbox[l * 4] / cell),
      y0 = Math.floor(cc.bbox[l * 4 + 1] / cell),
      x1 = Math.floor((cc.bbox[l * 4] + cc.bbox[l * 4 + 2]) / cell),
      y1 = Math.floor((cc.bbox[l * 4 + 1] + cc.bbox[l * 4 + 3]) / cell);
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++) {
        const k = y * gw + x;
        const list = grid.get(k);
        if (list) list.push(l);
        else grid.set(k, [l]);
      }
  }
  const tried = new Set<number>();
  for (let a = 1; a <= cc.count; a++) {
    const da = ds[a];
    for (const [ex, ey] of da.ends) {
      const near = new Set<number>();
      for (let y = Math.floor((ey - gap) / cell); y <= Math.floor((ey + gap) / cell); y++)
        for (let x = Math.floor((ex - gap) / cell); x <= Math.floor((ex + gap) / cell); x++)
          for (const b of grid.get(y * gw + x) ?? []) if (b !== a) near.add(b);
      for (const b of near) {
        const db = ds[b];
        for (const [fx, fy] of db.ends) {
          const key = a < b ? a * (cc.count + 1) + b : b * (cc.count + 1) + a;
          if (tried.has(key)) continue;
          const gx = fx - ex,
            gy = fy - ey,
            g = Math.hypot(gx, gy);
          if (g > gap) continue;
          // the other dash lies beyond this end, and this dash beyond the other's end
          if ((ex - da.cx) * gx + (ey - da.cy) * gy < 0 || (fx - db.cx) * -gx + (fy - db.cy) * -gy < 0) continue;
          const dirA = directional(da),
            dirB = directional(db);
          if (!dirA && !dirB) continue;
          if (dirA && dirB && Math.abs(da.ux * db.ux + da.uy * db.uy) < cosMax) continue;
          // a gap of a pixel or two has no direction of its own
          if (g > 2) {
            if (dirA && Math.abs(da.ux * gx + da.uy * gy) < cosMax * g) continue;
            if (dirB && Math.abs(db.ux * gx + db.uy * gy) < cosMax * g) continue;
          }
          tried.add(key);
          drawSegment(out, w, h, [ex, ey], [fx, fy], Math.max(0.5, Math.min(da.width, db.width) / 2));
        }
      }
    }
  }
  return out;
}

/**
 * The cracks of a recipe's crack class: the class (inside `valid`) closed by 3 px, its dashes joined (joinDashes),
 * then kept when the joined piece is long and thin (RECIPE_CRACKS.thin), not a speck (RECIPE_CRACKS.minExtent),
 * encloses no more than its own area (not the rim of a pore) and lies inside the region: RECIPE_CRACKS.inside of
 * the pixels 4–7 px around it (off the crack class) are the region's material (regionMaterial). The classifier
 * gives the region's class to the dark inside of a pore whose rim it takes for a crack, and a seam along an
 * interface has the other side's class along one side. Returns the mask, each joined piece's figures and the
 * pieces' labels.
 */
export function recipeCrackMask(
  labels: Uint8Array,
  valid: Uint8Array,
  crack: number,
  region: number | null,
  w: number,
  h: number,
  grey: Uint8Array | null = null,
  t = RECIPE_CRACKS,
): { mask: Uint8Array; pieces: CrackPiece[]; labels: Int32Array } {
  const n = w * h;
  const raw = new Uint8Array(n);
  for (let i = 0; i < n; i++) raw[i] = valid[i] && labels[i] === crack ? 1 : 0;
  const closed = morph(raw, w, h, 'close', 3);
  for (let i = 0; i < n; i++) if (!valid[i]) closed[i] = 0;
  const joined = joinDashes(closed, w, h, crackWidth(closed, w, h, t.thin), t);
  for (let i = 0; i < n; i++) if (!valid[i]) joined[i] = 0;
  const material = regionMaterial(labels, valid, crack, region, grey, t.material);
  const cc = components(joined, w, h, 8);
  const skel = skeletonize(joined, w, h);
  const { perPixel } = skeletonLength(skel, w, h);
  const len = new Float64Array(cc.count + 1);
  for (let i = 0; i < n; i++) if (skel[i]) len[cc.labels[i]] += perPixel[i];
  const enclosed = enclosedArea(joined, cc.labels, cc.count, w, h);
  // the surroundings: pixels ringInner..ringOuter 4-neighbour steps off a piece and off the crack class, each
  // given to the piece that reached it first
  const around = new Float64Array(cc.count + 1),
    inRegion = new Float64Array(cc.count + 1);
  const reached = new Uint8Array(n);
  const own = spreadLabels(cc.labels, w, h, t.ringOuter, reached);
  for (let i = 0; i < n; i++) {
    const l = own[i];
    if (!l || joined[i] || reached[i] < t.ringInner || (valid[i] && labels[i] === crack)) continue;
    around[l]++;
    inRegion[l] += material[i];
  }
  const minExtent = Math.max(12, Math.round(Math.min(w, h) * t.minExtent));
  const pieces: CrackPiece[] = [];
  const keep = new Uint8Array(cc.count + 1);
  for (let l = 1; l <= cc.count; l++) {
    const inside = around[l] ? inRegion[l] / around[l] : 1;
    const kept =
      len[l] > 0 &&
      len[l] * len[l] >= t.thin * cc.area[l] &&
      Math.hypot(cc.bbox[l * 4 + 2], cc.bbox[l * 4 + 3]) >= minExtent &&
      enclosed[l] <= t.rim * cc.area[l] &&
      inside >= t.inside;
    keep[l] = kept ? 1 : 0;
    pieces.push({ label: l, area: cc.area[l], lengthPx: len[l], enclosed: enclosed[l], inside, kept });
  }
  const mask = new Uint8Array(n);
  for (let i = 0; i < n; i++) mask[i] = keep[cc.labels[i]];
  return { mask, pieces, labels: cc.labels };
}

/**
 * 1 where a pixel is the region's material: analysed, of the region's class (any class but the crack's without a
 * region class) and, with `grey` and k > 0, within k robust standard deviations (1.4826 × MAD) of the median grey
 * of the region's pixels.
 */
export function regionMaterial(
  labels: Uint8Array,
  valid: Uint8Array,
  crack: number,
  region: number | null,
  grey: Uint8Array | null,
  k: number,
): Uint8Array {
  const n = labels.length;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = valid[i] && labels[i] !== crack && (region === null || labels[i] === region) ? 1 : 0;
  if (!grey || k <= 0) return out;
  const hist = new Float64Array(256);
  let m = 0;
  for (let i = 0; i < n; i++)
    if (out[i]) {
      hist[grey[i]]++;
      m++;
    }
  if (!m) return out;
  const med = histQuantile(hist, m, 0.5);
  const dev = new Float64Array(256);
  for (let g = 0; g < 256; g++) dev[Math.abs(g - med)] += hist[g];
  const sigma = Math.max(1, 1.4826 * histQuantile(dev, m, 0.5));
  for (let i = 0; i < n; i++) if (out[i] && Math.abs(grey[i] - med) > k * sigma) out[i] = 0;
  return out;
}

/** The q-quantile of a 256-bin histogram holding n values. */
function histQuantile(hist: Float64Array, n: number, q: number): number {
  let acc = 0;
  for (let g = 0; g < hist.length; g++) {
    acc += hist[g];
    if (acc >= q * n) return g;
  }
  return hist.length - 1;
}

/**
 * Labels spread by `steps` 4-neighbour steps over unlabelled pixels (each taking the first labelled neighbour of
 * left, right, up, down); `reached`, when given, gets the step that reached each pixel.
 */
export function spreadLabels(labels: Int32Array, w: number, h: number, steps: number, reached?: Uint8Array): Int32Array {
  let own = Int32Array.from(labels);
  for (let step = 0; step < steps; step++) {
    const next = Int32Array.from(own);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        if (own[i]) continue;
        const l = (x > 0 && own[i - 1]) || (x + 1 < w && own[i + 1]) || (y > 0 && own[i - w]) || (y + 1 < h && own[i + w]) || 0;
        if (l) {
          next[i] = l;
          if (reached) reached[i] = step + 1;
        }
      }
    own = next;
  }
  return own;
}

/** Median width (area / centre-line length) of the long thin components of a mask; 2 px when there are none. */
export function crackWidth(mask: Uint8Array, w: number, h: number, thin = RECIPE_CRACKS.thin): number {
  const cc = components(mask, w, h, 8);
  const skel = skeletonize(mask, w, h);
  const { perPixel } = skeletonLength(skel, w, h);
  const len = new Float64Array(cc.count + 1);
  for (let i = 0; i < skel.length; i++) if (skel[i]) len[cc.labels[i]] += perPixel[i];
  const widths: number[] = [];
  for (let l = 1; l <= cc.count; l++) if (len[l] > 0 && len[l] * len[l] >= thin * cc.area[l]) widths.push(cc.area[l] / len[l]);
  if (!widths.length) return 2;
  widths.sort((a, b) => a - b);
  return widths[Math.floor((widths.length - 1) / 2)];
}

/** Per component, the area of the mask's holes it surrounds (4-connected background not reaching the border). */
function enclosedArea(mask: Uint8Array, labels: Int32Array, count: number, w: number, h: number): Float64Array {
  const out = new Float64Array(count + 1);
  const bg = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) bg[i] = mask[i] ? 0 : 1;
  const holes = components(bg, w, h, 4);
  const border = new Uint8Array(holes.count + 1);
  const owner = new Int32Array(holes.count + 1);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x,
        k = holes.labels[i];
      if (!k) continue;
      if (x === 0 || y === 0 || x === w - 1 || y === h - 1) border[k] = 1;
      else if (!owner[k]) owner[k] = labels[i - 1] || labels[i + 1] || labels[i - w] || labels[i + w] || 0;
    }
  for (let k = 1; k <= holes.count; k++) if (!border[k] && owner[k]) out[owner[k]] += holes.area[k];
  return out;
}
