// npm run bench:robustness [-- <folder> ...]   (default: ../shared/real and the grain samples of ../shared/samples)
//
// Generality of the grain-size model without new data: every image is measured again after transforms that must
// not change the true G when the pixel size follows them (geometric: scaling 0.5–2.5×, a crop to half, rotation,
// mirroring) or that only
// change how the boundaries look (photometric: inverted grey levels as in a BSE image, grey instead of colour,
// noise, defocus, gamma, uneven light, JPEG). Printed per image and transform: G (intercept and planimetric) and
// the shift from the untransformed image; then the largest |ΔG| per transform. A crop to half is another field,
// whose true G differs from the whole's by the specimen's own variation (up to ±0.6 on the 256×512 TBM crops):
// its row "same field" gives that variation and the method's shift (the crop's grains against the whole image's
// grains on the same quarter, both counted from the grain masks), and the summary holds the method's shift.
// The summary keeps the images segmented by boundary lines (grey path) apart from the colour (tint) etched ones.
// "grey" of a colour image takes away what the colour path sees: a tint etch in grey shows grains by tone only.
// Synthetic extra cases (exact truth, not in the sample folder): annealing twins, bright SEM-like boundaries on
// grains of channelling contrast, elongated (rolled) grains, fine grains with thin lines, coarse grains with wide lines.
// BENCH_VERSION=20261123 measures another model version; ROBUST_ONLY=name,name limits the images; ROBUST_TRANSFORMS=name,name
// limits the transforms (by the start of their names, e.g. "crop,rotate"); BENCH_NETWORK=<.onnx>
// measures a candidate grain-boundary network. A folder of development tiles that is not ../shared/real:
// `npm run bench:dev-tiles` (bench/analysis/dev-tiles.ts), then pass its folder.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { runModel } from '../../packages/analysis/src/registry.js';
import { components } from '../../packages/analysis/src/cvops.js';
import { e112Intercept } from '../../packages/analysis/src/measure/e112.js';
import { terminateOcr } from '../../packages/analysis/src/ocr.js';
import { grainImage } from '../../packages/analysis/src/synth/index.js';
import { rng } from '../../packages/analysis/src/random.js';
import { lamellarImage } from '../../packages/analysis/src/synth/lamellar.js';
import type { ModelVersion } from '../../packages/analysis/src/types.js';

const VERSION = process.env.BENCH_VERSION as ModelVersion | undefined;
const ONLY = process.env.ROBUST_ONLY?.split(',');
const ONLY_TRANSFORMS = process.env.ROBUST_TRANSFORMS?.split(',');
/** BENCH_NETWORK=<absolute path of a .onnx>: a candidate grain-boundary network instead of the version's own. */
const NETWORK = process.env.BENCH_NETWORK || null;
/** Synthetic samples are measured on a central crop of at most this many pixels (the 2× transform makes 4×). */
const MAX_SAMPLE_PX = 420_000;

interface Img {
  name: string;
  /** Raw 8-bit pixels, 1 (grey) or 3 (RGB) channels. */
  data: Uint8Array;
  w: number;
  h: number;
  ch: 1 | 3;
  px: number;
  /** Reference or exact truth of the untransformed image, when known. */
  ref?: number;
}

async function load(file: string, px: number, crop?: { width: number; height: number }, ref?: number): Promise<Img> {
  let s = sharp(readFileSync(file)).removeAlpha();
  const meta = await sharp(readFileSync(file)).metadata();
  const grey = meta.channels === 1 || meta.space === 'b-w';
  if (crop) {
    // the micrograph (not the SEM strip), central part
    const f = Math.min(1, Math.sqrt(MAX_SAMPLE_PX / (crop.width * crop.height)));
    const cw = Math.round(crop.width * f),
      chh = Math.round(crop.height * f);
    s = s.extract({ left: Math.round((crop.width - cw) / 2), top: Math.round((crop.height - chh) / 2), width: cw, height: chh });
  }
  if (grey) s = s.greyscale();
  const { data, info } = await s.raw().toBuffer({ resolveWithObject: true });
  const ch = info.channels === 1 ? 1 : 3;
  const out =
    ch === info.channels
      ? new Uint8Array(data)
      : new Uint8Array(info.width * info.height * 3).map((_, i) => data[Math.floor(i / 3) * info.channels + (i % 3)]);
  return { name: path.basename(file).replace(/\.[a-z]+$/, ''), data: out, w: info.width, h: info.height, ch, px, ref };
}

async function synthCases(): Promise<Img[]> {
  const toImg = async (name: string, png: Buffer, px: number, ref: number, f?: (v: Uint8Array, w: number, h: number) => void): Promise<Img> => {
    const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
    const d = new Uint8Array(data);
    f?.(d, info.width, info.height);
    return { name, data: d, w: info.width, h: info.height, ch: 1, px, ref };
  };
  const out: Img[] = [];
  const twins = await grainImage({ width: 720, height: 540, grainPx: 44, twins: true, noise: 5, seed: 7 });
  out.push(await toImg('synth-twins', twins.png, twins.pixelSizeUm, twins.truth.astmGIntercept));
  // SEM (BSE / channelling contrast): bright boundary ridges on grains of different grey, shot noise
  const sem = await grainImage({ width: 720, height: 540, grainPx: 32, noise: 9, seed: 11, lineWidth: 1.6 });
  out.push(await toImg('synth-sem-bright', sem.png, sem.pixelSizeUm, sem.truth.astmGIntercept, (d) => d.forEach((v, i) => (d[i] = 255 - v))));
  const fine = await grainImage({ width: 640, height: 480, grainPx: 16, noise: 4, seed: 5, lineWidth: 1.3 });
  out.push(await toImg('synth-fine-thin', fine.png, fine.pixelSizeUm, fine.truth.astmGIntercept));
  const coarse = await grainImage({ width: 720, height: 540, grainPx: 90, noise: 6, seed: 3, lineWidth: 5 });
  out.push(await toImg('synth-coarse-wide', coarse.png, coarse.pixelSizeUm, coarse.truth.astmGIntercept));
  // elongated (rolled) grains: a grain image squeezed to half its height (aspect 2); no exact intercept truth after the squeeze
  const rolled = await grainImage({ width: 720, height: 1000, grainPx: 44, noise: 5, seed: 9, lineWidth: 3 });
  const squeezed = await sharp(rolled.png).resize(720, 500, { fit: 'fill', kernel: 'cubic' }).png().toBuffer();
  out.push(await toImg('synth-rolled', squeezed, rolled.pixelSizeUm, NaN));
  // lamellar colonies (pearlite-like): truth = the colonies; 20261126 warns that its G is no E112 grain size, 20261127 measures the colonies ("lamellar" below)
  const lam = await lamellarImage({ width: 720, height: 540, colonyPx: 130, spacingPx: 9, noise: 5, seed: 4 });
  out.push(await toImg('synth-lamellar', lam.png, lam.pixelSizeUm, lam.truth.astmGIntercept));
  return out;
}

// ---------------------------------------------------------------------------------------------------- transforms

/**
 * `target`: the largest |ΔG| allowed. Issue 21 names rescaling 0.5×–2.5×, a crop to half, rotation by 90°, grey
 * conversion, JPEG q70 and uneven light: ≤ 0.3 each; mirroring is held to the same as rotation; the other looks
 * (inverted grey levels, noise, defocus, gamma) are extra checks at ≤ 0.5.
 */
type Transform = { name: string; kind: 'geometric' | 'photometric'; target: number; run(im: Img): Promise<{ png: Buffer; px: number } | null> };

const raw = (im: Img) => sharp(Buffer.from(im.data), { raw: { width: im.w, height: im.h, channels: im.ch } });
const png = (s: sharp.Sharp) => s.png({ compressionLevel: 1 }).toBuffer();
const mapPixels = (im: Img, f: (v: number, i: number) => number) => {
  const d = new Uint8Array(im.data.length);
  for (let i = 0; i < d.length; i++) d[i] = Math.max(0, Math.min(255, Math.round(f(im.data[i], Math.floor(i / im.ch)))));
  return png(sharp(Buffer.from(d), { raw: { width: im.w, height: im.h, channels: im.ch } }));
};
const gaussRng = (seed: number) => {
  const u = rng(seed);
  return () => Math.sqrt(-2 * Math.log(u() + 1e-12)) * Math.cos(2 * Math.PI * u());
};
const scale = (f: number): Transform => ({
  name: `scale ${f}×`,
  kind: 'geometric',
  target: 0.3,
  run: async (im) => ({
    png: await png(raw(im).resize(Math.round(im.w * f), Math.round(im.h * f), { kernel: f < 1 ? 'lanczos3' : 'cubic' })),
    px: im.px / f,
  }),
});

export const transforms: Transform[] = [
  scale(0.5),
  scale(1.5),
  scale(2),
  scale(2.5),
  {
    // the central half of the width and of the height (a quarter of the field)
    name: 'crop to half',
    kind: 'geometric',
    target: 0.3,
    run: async (im) => ({
      png: await png(
        raw(im).extract({ left: Math.floor(im.w / 4), top: Math.floor(im.h / 4), width: Math.floor(im.w / 2), height: Math.floor(im.h / 2) }),
      ),
      px: im.px,
    }),
  },
  { name: 'rotate 90°', kind: 'geometric', target: 0.3, run: async (im) => ({ png: await png(raw(im).rotate(90)), px: im.px }) },
  { name: 'mirror', kind: 'geometric', target: 0.3, run: async (im) => ({ png: await png(raw(im).flop()), px: im.px }) },
  { name: 'inverted', kind: 'photometric', target: 0.5, run: async (im) => ({ png: await mapPixels(im, (v) => 255 - v), px: im.px }) },
  { name: 'grey', kind: 'photometric', target: 0.3, run: async (im) => (im.ch === 3 ? { png: await png(raw(im).greyscale()), px: im.px } : null) },
  {
    name: 'noise σ8',
    kind: 'photometric',
    target: 0.5,
    run: async (im) => {
      const g = gaussRng(42);
      return { png: await mapPixels(im, (v) => v + 8 * g()), px: im.px };
    },
  },
  { name: 'blur σ1.5', kind: 'photometric', target: 0.5, run: async (im) => ({ png: await png(raw(im).blur(1.5)), px: im.px }) },
  {
    name: 'gamma 0.6',
    kind: 'photometric',
    target: 0.5,
    run: async (im) => ({ png: await mapPixels(im, (v) => 255 * (v / 255) ** 0.6), px: im.px }),
  },
  {
    name: 'gamma 1.6',
    kind: 'photometric',
    target: 0.5,
    run: async (im) => ({ png: await mapPixels(im, (v) => 255 * (v / 255) ** 1.6), px: im.px }),
  },
  {
    name: 'uneven light',
    kind: 'photometric',
    target: 0.3,
    // a smooth diagonal gradient from 55 % to 100 % brightness
    run: async (im) => ({
      png: await mapPixels(im, (v, p) => v * (0.55 + 0.45 * (((p % im.w) / im.w) * 0.6 + (Math.floor(p / im.w) / im.h) * 0.4))),
      px: im.px,
    }),
  },
  { name: 'JPEG q70', kind: 'photometric', target: 0.3, run: async (im) => ({ png: await raw(im).jpeg({ quality: 70 }).toBuffer(), px: im.px }) },
];

// ---------------------------------------------------------------------------------------------------- run

/** The grain mask of a result (segmentation.png: 1 on grain pixels, grains 1 px apart), w×h. */
type Mask = { data: Uint8Array; w: number; h: number };

async function measure(
  bytes: Buffer,
  px: number,
): Promise<{ gI: number; gP: number; colour: boolean; lamellar: boolean; mask: Mask | null } | string> {
  try {
    const r = await runModel('grain-size', VERSION, bytes, {}, { pixelSizeUm: px, network: NETWORK });
    const m = r.measurements;
    const lamellar = r.items.some((i) => i.type === 'message' && /^Lamellar/.test(i.title ?? ''));
    const seg = r.files.find((f) => f.filename === 'segmentation.png');
    let mask: Mask | null = null;
    if (seg) {
      const { data, info } = await sharp(seg.data).greyscale().raw().toBuffer({ resolveWithObject: true });
      mask = { data: new Uint8Array(data), w: info.width, h: info.height };
    }
    return { gI: Number(m.astmGIntercept), gP: Number(m.astmGPlanimetric), colour: m.segmentation === 'colour', lamellar, mask };
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  }
}

/**
 * Intercept G (px units; only differences are used) of the grains of `mask` inside the rectangle, counted alike for
 * any mask: its 4-connected grain pieces, E112 test lines at the model's spacing.
 */
function maskG(mask: Mask, x0: number, y0: number, cw: number, ch: number): number {
  const inside = new Uint8Array(cw * ch);
  for (let y = 0; y < ch; y++) for (let x = 0; x < cw; x++) inside[y * cw + x] = mask.data[(y0 + y) * mask.w + x0 + x] > 0 ? 1 : 0;
  const { labels } = components(inside, cw, ch, 4);
  const L = e112Intercept(labels, cw, ch, null, Math.max(4, Math.round(Math.min(cw, ch) / 150))).meanInterceptPx;
  return -6.643856 * Math.log10(L / 1000) - 3.288;
}
/** The central quarter of a w×h field (as the crop transform cuts it). */
const quarter = (w: number, h: number) => [Math.floor(w / 4), Math.floor(h / 4), Math.floor(w / 2), Math.floor(h / 2)] as const;

const folders = process.argv.slice(2);
const images: Img[] = [];
for (const dir of folders.length ? folders : ['/work/shared/real', '/work/shared/samples']) {
  for (const jf of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const t = JSON.parse(readFileSync(path.join(dir, jf), 'utf8'));
    if (t.kind !== 'grain') continue;
    const base = jf.replace(/\.json$/, '');
    const file = t.file ? path.join(dir, t.file) : ['.png', '.tif', '.jpg'].map((e) => path.join(dir, base + e)).find(existsSync);
    if (!file) continue;
    // samples: the micrograph above the SEM strip, cropped; real images: whole
    const crop = t.micrograph && !t.tolerances ? t.micrograph : undefined;
    images.push(await load(file, t.pixelSizeUm, crop, crop ? undefined : t.astmGIntercept));
  }
}
if (!folders.length) images.push(...(await synthCases()));

const fmt = (v: number, d = 2) => (Number.isFinite(v) ? v.toFixed(d) : '—');
const sgn = (v: number) => (Number.isFinite(v) ? (v >= 0 ? '+' : '') + v.toFixed(2) : '—');
const rows: string[][] = [['image', 'transform', 'G_I', 'ΔG_I', 'G_P', 'ΔG_P']];
/** Largest shifts per transform, apart for the images segmented by boundary lines and those segmented by colour. */
const worst = new Map<string, { dI: number; dP: number; at: string; kind: string; failed: number; sumI: number; n: number }>();
type Group = 'lines' | 'colour' | 'lamellar';
/** Lamellar structures (20261126: warned, G counts lamellae; 20261127: G of the colonies) are summarised apart from the grain structures. */
const groupOf = (b: { colour: boolean; lamellar: boolean }): Group => (b.lamellar ? 'lamellar' : b.colour ? 'colour' : 'lines');
for (const im of images) {
  if (ONLY && !ONLY.some((o) => im.name.includes(o))) continue;
  const base = await measure(await png(raw(im)), im.px);
  if (typeof base === 'string') {
    rows.push([im.name, 'original', base, '', '', '']);
    continue;
  }
  const refNote = im.ref !== undefined && Number.isFinite(im.ref) ? ` (ref ${fmt(im.ref)}, ${sgn(base.gI - im.ref)})` : '';
  rows.push([
    im.name + (base.colour ? ' (colour)' : '') + (base.lamellar ? ' (lamellar)' : ''),
    'original',
    fmt(base.gI) + refNote,
    '',
    fmt(base.gP),
    '',
  ]);
  for (const t of transforms) {
    if (ONLY_TRANSFORMS && !ONLY_TRANSFORMS.some((o) => t.name.startsWith(o))) continue;
    const out = await t.run(im);
    if (!out) continue;
    // progress on stderr (a whole run takes tens of minutes; the table comes at the end)
    process.stderr.write(`robustness: ${im.name} ${t.name}\n`);
    const r = await measure(out.png, out.px);
    const key = `${groupOf(base)}|${t.name}`;
    const w = worst.get(key) ?? { dI: 0, dP: 0, at: '', kind: t.kind, failed: 0, sumI: 0, n: 0 };
    if (typeof r === 'string') {
      rows.push([im.name, t.name, r, '', '', '']);
      w.failed++;
    } else {
      let dI = r.gI - base.gI;
      const dP = r.gP - base.gP;
      rows.push([im.name, t.name, fmt(r.gI), sgn(dI), fmt(r.gP), sgn(dP)]);
      if (t.name === 'crop to half' && base.mask && r.mask && base.mask.w === im.w && base.mask.h === im.h) {
        // a quarter of the field is another field: its true G differs from the whole's by the specimen's own
        // variation. The method's shift is the crop's G against the whole image's grains on that same quarter
        // (both from the grain masks, counted alike); the target holds that one.
        const whole = maskG(base.mask, ...quarter(im.w, im.h));
        const own = maskG(r.mask, 0, 0, r.mask.w, r.mask.h);
        dI = own - whole;
        rows.push([im.name, '  same field', `whole's grains on it ${sgn(whole - maskG(base.mask, 0, 0, im.w, im.h))}`, sgn(dI), '', '']);
      }
      w.sumI += Math.abs(dI);
      w.n++;
      if (Math.abs(dI) > Math.abs(w.dI)) {
        w.dI = dI;
        w.at = im.name;
      }
      if (Math.abs(dP) > Math.abs(w.dP)) w.dP = dP;
    }
    worst.set(key, w);
  }
}
await terminateOcr();
const print = (rs: string[][]) => {
  const widths = rs[0].map((_, i) => Math.max(...rs.map((r) => (r[i] ?? '').length)));
  for (const r of rs) console.log(r.map((c, i) => (c ?? '').padEnd(widths[i])).join('  '));
};
print(rows);
console.log(`\nsummary (model version ${VERSION ?? 'current'}): largest shift from the untransformed image over all images`);
const sum: string[][] = [['images', 'transform', 'kind', 'max |ΔG_I|', 'at', 'mean |ΔG_I|', 'max |ΔG_P|', 'failed', 'target']];
for (const g of ['lines', 'colour', 'lamellar'] as Group[])
  for (const t of transforms) {
    const w = worst.get(`${g}|${t.name}`);
    if (!w) continue;
    const target = t.target;
    const ok = Math.abs(w.dI) <= target && !w.failed;
    const group = { lines: 'boundary lines (grey)', colour: 'colour (tint) segmentation', lamellar: 'lamellar (colonies)' }[g];
    sum.push([
      group,
      t.name,
      t.kind,
      sgn(w.dI),
      w.at,
      fmt(w.sumI / Math.max(w.n, 1)),
      sgn(w.dP),
      String(w.failed),
      `≤ ${target} ${ok ? 'ok' : 'MISSED'}`,
    ]);
  }
print(sum);
