// Synthetic micrographs with exact ground truth, for tests, benchmarks and README images.
import sharp from 'sharp';
import { rng } from '../random.js';

export interface ScaleBarSpec {
  value: number;
  unit: 'µm' | 'μm' | 'nm' | 'mm' | 'um';
  lengthPx: number;
  style: 'sem' | 'overlay';
}
export interface Synth<T> {
  png: Buffer;
  width: number;
  height: number;
  micrograph: { width: number; height: number };
  pixelSizeUm: number;
  scaleBar: ScaleBarSpec | null;
  truth: T;
}

export { rng };
const gauss = (r: () => number) => Math.sqrt(-2 * Math.log(r() + 1e-12)) * Math.cos(2 * Math.PI * r());

function clamp8(v: number) {
  return v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
}

/** Adds the scale bar (SEM strip below, or plate bottom right) and encodes PNG. */
async function finish(
  gray: Float32Array,
  w: number,
  h: number,
  sb: ScaleBarSpec | null,
  jpegQuality?: number,
): Promise<{ png: Buffer; width: number; height: number }> {
  const px = new Uint8Array(w * h);
  for (let i = 0; i < px.length; i++) px[i] = clamp8(gray[i]);
  let img = sharp(Buffer.from(px), { raw: { width: w, height: h, channels: 1 } });
  let H = h;
  if (sb) {
    const font = Math.max(14, Math.round(sb.lengthPx * 0.16));
    const label = `${sb.value} ${sb.unit}`;
    if (sb.style === 'sem') {
      const stripH = Math.round(font * 3.2);
      H = h + stripH;
      const svg = `<svg width="${w}" height="${stripH}" xmlns="http://www.w3.org/2000/svg"><rect width="100%" height="100%" fill="black"/>
        <text x="${Math.round(w * 0.04)}" y="${Math.round(font * 1.3)}" font-family="DejaVu Sans" font-size="${font}" fill="white">${label}</text>
        <rect x="${Math.round(w * 0.04)}" y="${Math.round(font * 1.8)}" width="${sb.lengthPx}" height="${Math.max(4, Math.round(font * 0.35))}" fill="white"/>
        <text x="${Math.round(w * 0.45)}" y="${Math.round(font * 1.3)}" font-family="DejaVu Sans" font-size="${font}" fill="white">EHT = 15.00 kV   WD = 6.5 mm</text>
        <text x="${Math.round(w * 0.45)}" y="${Math.round(font * 2.7)}" font-family="DejaVu Sans" font-size="${font}" fill="white">Mag = 500 X   Signal A = SE2</text></svg>`;
      const strip = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer();
      const all = new Uint8Array(w * H);
      all.set(px);
      for (let i = 0; i < w * stripH; i++) all[w * h + i] = strip[i * (strip.length / (w * stripH))];
      img = sharp(Buffer.from(all), { raw: { width: w, height: H, channels: 1 } });
    } else {
      const pw = sb.lengthPx + 2 * Math.round(font * 0.8),
        ph = Math.round(font * 2.6);
      const svg = `<svg width="${pw}" height="${ph}" xmlns="http://www.w3.org/2000/svg"><rect width="100%" height="100%" fill="black"/>
        <text x="${pw / 2}" y="${Math.round(font * 1.35)}" text-anchor="middle" font-family="DejaVu Sans" font-weight="bold" font-size="${font}" fill="white">${label}</text>
        <rect x="${Math.round(font * 0.8)}" y="${Math.round(font * 1.75)}" width="${sb.lengthPx}" height="${Math.max(4, Math.round(font * 0.3))}" fill="white"/></svg>`;
      const plate = await sharp(Buffer.from(svg)).png().toBuffer();
      const buf = await img
        .png()
        .composite([{ input: plate, left: w - pw - Math.round(w * 0.04), top: h - ph - Math.round(h * 0.05) }])
        .greyscale()
        .raw()
        .toBuffer();
      const one = new Uint8Array(w * h);
      const ch = buf.length / (w * h);
      for (let i = 0; i < one.length; i++) one[i] = buf[i * ch];
      img = sharp(Buffer.from(one), { raw: { width: w, height: h, channels: 1 } });
    }
  }
  const png = jpegQuality ? await img.jpeg({ quality: jpegQuality }).toBuffer() : await img.png().toBuffer();
  return { png, width: w, height: H };
}

export interface GrainTruth {
  grainsInside: number;
  grainsOnBorder: number;
  grainsJeffries: number;
  grainsPerMm2: number;
  astmGPlanimetric: number;
  meanInterceptUm: number;
  astmGIntercept: number;
}

/**
 * Voronoi grains (jittered grid sites) with dark boundary lines. Truth from the exact label map:
 * Jeffries count (border grains ½) and mean intercept on horizontal + vertical lines (label changes).
 * Options: illumination gradient, noise, low contrast, twin bands (brighter bands inside grains, no
 * boundary line), JPEG compression.
 */
export async function grainImage(
  o: {
    width?: number;
    height?: number;
    grainPx?: number;
    seed?: number;
    pixelSizeUm?: number;
    noise?: number;
    contrast?: number;
    illumination?: number;
    twins?: boolean;
    /** Twin bands drawn with visible straight lines along both sides (annealing twins in an FCC metal); not boundaries. */
    twinLines?: boolean;
    jpeg?: number;
    scaleBar?: ScaleBarSpec | null;
    lineWidth?: number;
  } = {},
): Promise<Synth<GrainTruth>> {
  const w = o.width ?? 800,
    h = o.height ?? 600,
    d = o.grainPx ?? 40,
    r = rng(o.seed ?? 1),
    px = o.pixelSizeUm ?? 0.5;
  const gx = Math.ceil(w / d) + 2,
    gy = Math.ceil(h / d) + 2;
  const sites: [number, number][] = [];
  for (let j = 0; j < gy; j++) for (let i = 0; i < gx; i++) sites.push([(i - 1 + 0.15 + 0.7 * r()) * d, (j - 1 + 0.15 + 0.7 * r()) * d]);
  const tone = sites.map(() => 120 + 90 * r());
  const twin = sites.map(() => (o.twins && r() < 0.35 ? { a: r() * Math.PI, off: (r() - 0.5) * d * 0.4, wd: d * (0.12 + 0.1 * r()) } : null));
  const label = new Int32Array(w * h);
  const gray = new Float32Array(w * h);
  const lw = o.lineWidth ?? 2.2,
    contrast = o.contrast ?? 1;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const ci = Math.floor(x / d) + 1,
        cj = Math.floor(y / d) + 1;
      let b1 = Infinity,
        b2 = Infinity,
        k1 = 0,
        k2 = 0;
      for (let dj = -2; dj <= 2; dj++)
        for (let di = -2; di <= 2; di++) {
          const i = ci + di,
            j = cj + dj;
          if (i < 0 || j < 0 || i >= gx || j >= gy) continue;
          const k = j * gx + i;
          const dd = (sites[k][0] - x) ** 2 + (sites[k][1] - y) ** 2;
          if (dd < b1) {
            b2 = b1;
            k2 = k1;
            b1 = dd;
            k1 = k;
          } else if (dd < b2) {
            b2 = dd;
            k2 = k;
          }
        }
      label[y * w + x] = k1 + 1;
      // distance to the bisector between the two nearest sites
      const [ax, ay] = sites[k1],
        [bx, by] = sites[k2];
      const dist = (b2 - b1) / (2 * Math.hypot(bx - ax, by - ay));
      let v = tone[k1];
      const t = twin[k1];
      let twinLine = 0;
      if (t) {
        const s = (x - ax) * Math.cos(t.a) + (y - ay) * Math.sin(t.a) - t.off;
        if (Math.abs(s) < t.wd) v = v > 165 ? v - 45 : v + 45;
        if (o.twinLines) twinLine = Math.max(0, Math.min(1, lw / 2 + 0.5 - Math.abs(Math.abs(s) - t.wd)));
      }
      const line = Math.max(0, Math.min(1, lw / 2 + 0.5 - dist), twinLine);
      v = v * (1 - line) + 35 * line;
      v = 128 + (v - 128) * contrast;
      if (o.illumination) v *= 1 + o.illumination * (x / w - 0.5 + 0.6 * (y / h - 0.5));
      if (o.noise) v += o.noise * gauss(r);
      gray[y * w + x] = v;
    }
  const sb = o.scaleBar === undefined ? null : o.scaleBar;
  const out = await finish(gray, w, h, sb, o.jpeg);
  return {
    ...out,
    micrograph: { width: w, height: h },
    pixelSizeUm: px,
    scaleBar: sb,
    truth: grainTruth(label, w, h, px),
  };
}

/**
 * ASTM E112 truth of a label map: Jeffries count (grains touching the field's edge ½), and the mean lineal
 * intercept on horizontal and vertical lines every 5 px (label changes), as grainImage computes it.
 */
export function grainTruth(label: Int32Array, w: number, h: number, px: number): GrainTruth {
  let n = 0;
  for (let i = 0; i < label.length; i++) if (label[i] > n) n = label[i];
  const seen = new Uint8Array(n + 1);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const l = label[y * w + x];
      if (x === 0 || y === 0 || x === w - 1 || y === h - 1) seen[l] = 2;
      else if (!seen[l]) seen[l] = 1;
    }
  let inside = 0,
    border = 0;
  for (let l = 1; l <= n; l++) {
    if (seen[l] === 1) inside++;
    else if (seen[l] === 2) border++;
  }
  const jeff = inside + border / 2;
  const nA = jeff / (w * h * px * px * 1e-6);
  let len = 0,
    hits = 0;
  for (let y = 2; y < h; y += 5) {
    for (let x = 1; x < w; x++) if (label[y * w + x] !== label[y * w + x - 1]) hits++;
    len += w;
  }
  for (let x = 2; x < w; x += 5) {
    for (let y = 1; y < h; y++) if (label[y * w + x] !== label[(y - 1) * w + x]) hits++;
    len += h;
  }
  const L = (len / hits) * px;
  return {
    grainsInside: inside,
    grainsOnBorder: border,
    grainsJeffries: jeff,
    grainsPerMm2: nA,
    astmGPlanimetric: 3.321928 * Math.log10(nA) - 2.954,
    meanInterceptUm: L,
    astmGIntercept: -6.643856 * Math.log10(L / 1000) - 3.288,
  };
}

export interface PoreTruth {
  areaFractionPercent: number;
  poreCount: number;
}

/** Dark circular pores on a bright matrix; touching pores merge (truth counts connected pores). */
export async function poreImage(
  o: {
    width?: number;
    height?: number;
    count?: number;
    seed?: number;
    pixelSizeUm?: number;
    noise?: number;
    illumination?: number;
    scaleBar?: ScaleBarSpec | null;
    maxR?: number;
  } = {},
): Promise<Synth<PoreTruth>> {
  const w = o.width ?? 800,
    h = o.height ?? 600,
    r = rng(o.seed ?? 2),
    px = o.pixelSizeUm ?? 1;
  const circles: [number, number, number][] = [];
  const N = o.count ?? 60;
  const maxR = o.maxR ?? 25;
  for (let i = 0; i < N; i++) circles.push([r() * w, r() * h, 3 + (maxR - 3) * r() ** 2]);
  const mask = new Uint8Array(w * h);
  const gray = new Float32Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let cov = 0;
      for (const [cx, cy, cr] of circles) {
        const dd = Math.hypot(x - cx, y - cy) - cr;
        if (dd < 0.5) cov = Math.max(cov, Math.min(1, 0.5 - dd));
      }
      if (cov >= 0.5) mask[y * w + x] = 1;
      let v = 180 * (1 - cov) + 30 * cov;
      if (o.illumination) v *= 1 + o.illumination * (x / w - 0.5);
      if (o.noise) v += o.noise * gauss(r);
      gray[y * w + x] = v;
    }
  // connected components (8) of the truth mask
  let area = 0,
    count = 0;
  const lab = new Int32Array(w * h);
  const stack: number[] = [];
  for (let i = 0; i < mask.length; i++) {
    if (mask[i]) area++;
    if (!mask[i] || lab[i]) continue;
    count++;
    lab[i] = count;
    stack.push(i);
    while (stack.length) {
      const p = stack.pop()!;
      const x = p % w,
        y = (p / w) | 0;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx,
            ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const q = ny * w + nx;
          if (mask[q] && !lab[q]) {
            lab[q] = count;
            stack.push(q);
          }
        }
    }
  }
  const sb = o.scaleBar === undefined ? null : o.scaleBar;
  const out = await finish(gray, w, h, sb);
  return {
    ...out,
    micrograph: { width: w, height: h },
    pixelSizeUm: px,
    scaleBar: sb,
    truth: { areaFractionPercent: (100 * area) / (w * h), poreCount: count },
  };
}

export interface LayerTruth {
  meanThicknessUm: number;
  minThicknessUm: number;
  maxThicknessUm: number;
  stdThicknessUm: number;
  tiltDeg: number;
}

/** Resin (dark) / coating (bright, wavy thickness t(s)) / substrate, optionally tilted. */
export async function layerImage(
  o: {
    width?: number;
    height?: number;
    thicknessPx?: number;
    amplitude?: number;
    tiltDeg?: number;
    seed?: number;
    pixelSizeUm?: number;
    noise?: number;
    scaleBar?: ScaleBarSpec | null;
  } = {},
): Promise<Synth<LayerTruth>> {
  const w = o.width ?? 800,
    h = o.height ?? 600,
    r = rng(o.seed ?? 3),
    px = o.pixelSizeUm ?? 0.5;
  const T = o.thicknessPx ?? 80,
    A = o.amplitude ?? 0.15,
    tilt = ((o.tiltDeg ?? 0) * Math.PI) / 180;
  const ph1 = r() * 6.28,
    ph2 = r() * 6.28,
    ph3 = r() * 6.28;
  const topOff = (s: number) => 0.05 * T * Math.sin(s / 53 + ph3);
  const thick = (s: number) => T * (1 + A * (0.6 * Math.sin(s / 71 + ph1) + 0.4 * Math.sin(s / 23 + ph2)));
  const y0 = h * 0.3;
  const c = Math.cos(tilt),
    sn = Math.sin(tilt);
  const gray = new Float32Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      // layer frame: s along the layer, n down across it
      const s = (x - w / 2) * c + (y - y0) * sn + w / 2;
      const nn = -(x - w / 2) * sn + (y - y0) * c;
      const top = topOff(s),
        bot = top + thick(s);
      const inC = Math.max(0, Math.min(1, nn - top + 0.5)) * Math.max(0, Math.min(1, bot - nn + 0.5));
      const below = Math.max(0, Math.min(1, nn - bot + 0.5));
      let v = 25 * (1 - inC - below) + 215 * inC + 125 * below;
      if (o.noise) v += o.noise * gauss(r);
      gray[y * w + x] = v;
    }
  // truth: thickness over the s range fully visible in the image
  const ts: number[] = [];
  for (let x = 0; x < w; x++) ts.push(thick(x * c + (w / 2) * (1 - c)));
  const mean = ts.reduce((a, b) => a + b, 0) / ts.length;
  const sd = Math.sqrt(ts.reduce((a, b) => a + (b - mean) ** 2, 0) / (ts.length - 1));
  const sb = o.scaleBar === undefined ? null : o.scaleBar;
  const out = await finish(gray, w, h, sb);
  return {
    ...out,
    micrograph: { width: w, height: h },
    pixelSizeUm: px,
    scaleBar: sb,
    truth: {
      meanThicknessUm: mean * px,
      minThicknessUm: Math.min(...ts) * px,
      maxThicknessUm: Math.max(...ts) * px,
      stdThicknessUm: sd * px,
      tiltDeg: o.tiltDeg ?? 0,
    },
  };
}

export interface CrackTruth {
  crackCount: number;
  totalLengthUm: number;
}

/** Wandering dark cracks (polylines, width 1.5–3 px) on a textured surface; cracks do not cross. */
export async function crackImage(
  o: { width?: number; height?: number; cracks?: number; seed?: number; pixelSizeUm?: number; noise?: number; scaleBar?: ScaleBarSpec | null } = {},
): Promise<Synth<CrackTruth>> {
  const w = o.width ?? 800,
    h = o.height ?? 600,
    r = rng(o.seed ?? 4),
    px = o.pixelSizeUm ?? 1;
  const n = o.cracks ?? 6;
  const polys: { pts: [number, number][]; wd: number }[] = [];
  const cols = Math.ceil(Math.sqrt((n * w) / h)),
    rows = Math.ceil(n / cols);
  for (let k = 0; k < n; k++) {
    const cx = ((k % cols) + 0.5) * (w / cols),
      cy = (Math.floor(k / cols) + 0.5) * (h / rows);
    let a = r() * Math.PI * 2;
    const segs = 12,
      step = (Math.min(w / cols, h / rows) * 0.6) / segs;
    let x = cx - (Math.cos(a) * step * segs) / 2,
      y = cy - (Math.sin(a) * step * segs) / 2;
    const pts: [number, number][] = [[x, y]];
    for (let i = 0; i < segs; i++) {
      a += (r() - 0.5) * 0.7;
      x += Math.cos(a) * step;
      y += Math.sin(a) * step;
      pts.push([x, y]);
    }
    polys.push({ pts, wd: 1.5 + 1.5 * r() });
  }
  const gray = new Float32Array(w * h);
  for (let i = 0; i < gray.length; i++) gray[i] = 160;
  // texture: smooth random blobs + noise
  const tex = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) tex[y * w + x] = 8 * Math.sin(x / 17 + 3 * Math.sin(y / 29)) * Math.cos(y / 13);
  for (const { pts, wd } of polys) {
    for (let i = 0; i + 1 < pts.length; i++) {
      const [ax, ay] = pts[i],
        [bx, by] = pts[i + 1];
      const x0 = Math.max(0, Math.floor(Math.min(ax, bx) - 4)),
        x1 = Math.min(w - 1, Math.ceil(Math.max(ax, bx) + 4));
      const y0 = Math.max(0, Math.floor(Math.min(ay, by) - 4)),
        y1 = Math.min(h - 1, Math.ceil(Math.max(ay, by) + 4));
      const dx = bx - ax,
        dy = by - ay,
        L2 = dx * dx + dy * dy;
      for (let y = y0; y <= y1; y++)
        for (let x = x0; x <= x1; x++) {
          const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / L2));
          const dd = Math.hypot(x - ax - t * dx, y - ay - t * dy);
          const cov = Math.max(0, Math.min(1, wd / 2 + 0.5 - dd));
          const v = 160 * (1 - cov) + 40 * cov;
          if (v < gray[y * w + x]) gray[y * w + x] = v;
        }
    }
  }
  for (let i = 0; i < gray.length; i++) {
    gray[i] += tex[i];
    if (o.noise) gray[i] += o.noise * gauss(r);
  }
  let total = 0;
  for (const { pts } of polys) for (let i = 0; i + 1 < pts.length; i++) total += Math.hypot(pts[i + 1][0] - pts[i][0], pts[i + 1][1] - pts[i][1]);
  const sb = o.scaleBar === undefined ? null : o.scaleBar;
  const out = await finish(gray, w, h, sb);
  return { ...out, micrograph: { width: w, height: h }, pixelSizeUm: px, scaleBar: sb, truth: { crackCount: n, totalLengthUm: total * px } };
}
