// A multilayer coating cross-section (issue 22): resin (dark) / a bright porous top coat / a grey oxide layer
// (the layer to measure) / a textured bond coat / the substrate. The default layer model measures the brightest
// band (the top coat); a recipe says "the grey band". Truth: the oxide thickness per column.
import sharp from 'sharp';
import { rng } from './index.js';

export interface MultilayerTruth {
  /** Mean oxide thickness in pixels (perpendicular = vertical: the layers are horizontal). */
  oxideMeanPx: number;
  /** Rows of the oxide's top and bottom edge per column. */
  oxideTop: Float32Array;
  oxideBottom: Float32Array;
  /** 0 resin, 1 top coat, 2 oxide, 3 bond coat, 4 substrate; per pixel. */
  labels: Uint8Array;
}

export function multilayerGray(o: { width?: number; height?: number; seed?: number; oxidePx?: number } = {}): {
  width: number;
  height: number;
  data: Uint8Array;
  truth: MultilayerTruth;
} {
  const w = o.width ?? 800,
    h = o.height ?? 600,
    r = rng(o.seed ?? 7);
  const s = h / 600;
  const T = (o.oxidePx ?? 40) * 1;
  const ph = [r() * 6.28, r() * 6.28, r() * 6.28, r() * 6.28];
  const topCoatTop = (x: number) => h * 0.18 + 10 * s * Math.sin(x / (90 * s) + ph[0]);
  const oxideTop = (x: number) => h * 0.45 + 8 * s * Math.sin(x / (130 * s) + ph[1]);
  const oxideBottom = (x: number) => oxideTop(x) + T * (1 + 0.12 * Math.sin(x / (60 * s) + ph[2]));
  const bondBottom = (x: number) => h * 0.8 + 6 * s * Math.sin(x / (110 * s) + ph[3]);
  // pores of the top coat: dark ellipses
  const pores: Array<[number, number, number, number]> = [];
  const nPores = Math.round((w * h) / 2500);
  for (let k = 0; k < nPores; k++) pores.push([r() * w, h * 0.15 + r() * h * 0.32, (2 + r() * 7) * s, (1 + r() * 3) * s]);
  const poreMask = new Uint8Array(w * h);
  for (const [cx, cy, ax, ay] of pores)
    for (let y = Math.max(0, Math.floor(cy - ay)); y <= Math.min(h - 1, Math.ceil(cy + ay)); y++)
      for (let x = Math.max(0, Math.floor(cx - ax)); x <= Math.min(w - 1, Math.ceil(cx + ax)); x++)
        if (((x - cx) / ax) ** 2 + ((y - cy) / ay) ** 2 <= 1) poreMask[y * w + x] = 1;
  const data = new Uint8Array(w * h),
    labels = new Uint8Array(w * h);
  const oxTop = new Float32Array(w),
    oxBot = new Float32Array(w);
  let sumT = 0;
  for (let x = 0; x < w; x++) {
    oxTop[x] = oxideTop(x);
    oxBot[x] = oxideBottom(x);
    sumT += oxBot[x] - oxTop[x];
  }
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      let v: number, l: number;
      if (y < topCoatTop(x)) [v, l] = [28, 0];
      else if (y < oxTop[x]) [v, l] = poreMask[i] ? [45, 1] : [205, 1];
      else if (y < oxBot[x]) [v, l] = [118, 2];
      else if (y < bondBottom(x)) [v, l] = [165 + 18 * Math.sin(x / (5 * s)) * Math.sin(y / (4 * s)), 3];
      else [v, l] = [140, 4];
      v += (r() + r() + r() - 1.5) * 18;
      data[i] = Math.max(0, Math.min(255, Math.round(v)));
      labels[i] = l;
    }
  return { width: w, height: h, data, truth: { oxideMeanPx: sumT / w, oxideTop: oxTop, oxideBottom: oxBot, labels } };
}

/** The image as a grey PNG. */
export function multilayerPng(img: { width: number; height: number; data: Uint8Array }): Promise<Buffer> {
  return sharp(Buffer.from(img.data), { raw: { width: img.width, height: img.height, channels: 1 } })
    .png()
    .toBuffer();
}

/**
 * Twenty strokes as a user marks them after a first preview: eight along the oxide (class 0), twelve on the
 * other layers (class 1): the top coat, the bond coat, the resin, the substrate and the resin/top-coat edge,
 * whose grey transition the first preview took for oxide.
 */
export function multilayerStrokes(
  t: MultilayerTruth,
  width: number,
  height: number,
): Array<{ classIndex: number; width: number; points: Array<[number, number]> }> {
  const out: Array<{ classIndex: number; width: number; points: Array<[number, number]> }> = [];
  const bw = Math.max(3, Math.round(width / 300));
  const s = height / 600;
  // along the middle, and near the top and the bottom edge (a user paints the whole band)
  const at = [0.5, 0.15, 0.85];
  for (let k = 0; k < 8; k++) {
    const mid = (x: number) => t.oxideTop[x] + at[k % 3] * (t.oxideBottom[x] - t.oxideTop[x]);
    const x0 = Math.round(((k + 0.2) * width) / 8),
      x1 = Math.round(((k + 0.7) * width) / 8),
      xm = Math.round((x0 + x1) / 2);
    out.push({
      classIndex: 0,
      width: Math.max(2, Math.round(bw / 2)),
      points: [
        [x0, mid(x0)],
        [xm, mid(xm)],
        [x1, mid(x1)],
      ],
    });
  }
  // the resin/top-coat edge wanders ±10 px about 18 % of the height: a stroke across it
  const coatTop = height * 0.18;
  for (let k = 0; k < 12; k++) {
    const x0 = Math.round(((k + 0.1) * width) / 12),
      x1 = Math.round(((k + 0.6) * width) / 12);
    const band = k % 6;
    if (band === 5) {
      // across the resin/top-coat edge, a short vertical stroke
      out.push({
        classIndex: 1,
        width: bw,
        points: [
          [x0, coatTop - 25 * s],
          [x0, coatTop + 25 * s],
        ],
      });
      continue;
    }
    const y =
      band === 0
        ? (height * 0.2 + t.oxideTop[x0]) / 2
        : band === 1
          ? (t.oxideBottom[x0] + height * 0.8) / 2
          : band === 2
            ? height * 0.06
            : band === 3
              ? height * 0.92
              : k % 2
                ? t.oxideBottom[x0] + 4 * s
                : t.oxideTop[x0] - 4 * s;
    out.push({
      classIndex: 1,
      width: bw,
      points: [
        [x0, y],
        [x1, y],
      ],
    });
  }
  return out;
}
