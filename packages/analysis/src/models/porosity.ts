// Porosity (ASTM E562 / E1245): dark-phase area fraction, pore count, pore-size distribution.
import { components, gaussianBlur, medianBlur, resize } from '../cvops.js';
import { overlayRgb, type Gray } from '../image.js';
import { addSegmentationFile, warnIfColour, type Context } from './common.js';
import { wholeImageOverlayPng } from './overlayImage.js';
import { colourStats, isColourEtched } from './grainColour.js';
import { segmentDarkPhaseClassical } from './darkPhase.js';
import { classNetwork, segmentClasses } from '../learned/classes.js';
import { WORKING_SCALE } from '../learned/tunables.js';
import { greyToRgb } from './grain/report.js';
import { calibrationRows, hex, histMedian, histOf, histogram, mean, otsu, rgb255, row, table, tr } from './common.js';

/** Binary dark-phase segmentation: threshold midway between the matrix and pore grey levels. */
export function segmentDarkPhase(img: Gray, valid: Uint8Array, version: string): Uint8Array {
  let g = medianBlur(img, 3);
  if (version >= '20250101') g = flattenBackground(g);
  const h = histOf(g.data, valid);
  const t0 = otsu(h);
  const dark = histMedian(h, 0, t0),
    bright = histMedian(h, t0 + 1, 255);
  const t = version >= '20250101' ? (dark + bright) / 2 : t0;
  const out = new Uint8Array(g.data.length);
  for (let i = 0; i < out.length; i++) out[i] = valid[i] && g.data[i] <= t ? 1 : 0;
  return out;
}

/**
 * When the default segmentation of 20261202 hands the image to the dark-phase network: the classical dark phase
 * covers at least this share of the analysed area (%). Isolated pores rarely reach it (porosity of sound material
 * is a few per cent; the samples 3 and 12 %); a two-phase structure of precipitates in a matrix does (the 12 γ′
 * training images read 28–62 % classically, 44–57 % by hand).
 */
export const PHASE_STRUCTURE_PERCENT = 20;
/**
 * Feature scale (mean chord of the classical dark phase, px) the network was trained at: the 12 γ′ images read
 * 16–34 px. An image whose feature scale lies within half to twice this runs at the network's working scale;
 * otherwise it is resampled so that its features come out at this size (working scale 0.25–4).
 */
export const NETWORK_FEATURE_SCALE = 25;

/**
 * The dark-phase network's working scale for features of mean chord `L` px in a w×h image, for a network trained at
 * working scale `trained` (on images whose features were NETWORK_FEATURE_SCALE px): `trained` within half to twice
 * NETWORK_FEATURE_SCALE, else `trained` times the factor that brings them to it (0.25–4), never enlarging past the
 * learned engines' pixel budget (WORKING_SCALE.maxWorkingPixels: a 4 MP field of fine precipitates at 4× would be 64 MP).
 */
export function darkPhaseNetworkScale(L: number, w: number, h: number, trained = 1): number {
  const k = L >= NETWORK_FEATURE_SCALE / 2 && L <= 2 * NETWORK_FEATURE_SCALE ? 1 : Math.min(4, Math.max(0.25, NETWORK_FEATURE_SCALE / L));
  const wanted = k * trained;
  if (wanted <= 1) return wanted;
  return Math.max(1, Math.min(wanted, Math.sqrt(WORKING_SCALE.maxWorkingPixels / (w * h))));
}

export interface DarkPhaseDefault {
  mask: Uint8Array;
  method: 'network' | 'classical';
  /** Share of the analysed area (%) the classical segmentation reads (the rule's input). */
  classicalPercent: number;
  /** Feature scale L of the classical segmentation (px). */
  featureScale: number;
  /** Working scale the network ran at (network px per image px), when it ran. */
  networkScale?: number;
}

/**
 * The default dark-phase segmentation of 20261202 (no recipe, no mask; 20261207 with the network trained at working
 * scale 0.5, learned/classes.ts): the classical one (darkPhase.ts: background
 * flattened, edge-preserving denoising, local threshold, specks and holes relative to the feature scale); where it
 * finds a two-phase structure (dark phase ≥ PHASE_STRUCTURE_PERCENT of the analysed area), the dark-phase network
 * (learned/classes.ts, trained on γ′ in Ni superalloys) segments the image instead, at a working scale chosen from
 * the feature scale (NETWORK_FEATURE_SCALE).
 */
export async function segmentDarkPhaseDefault(img: Gray, valid: Uint8Array, validCount: number, version: string): Promise<DarkPhaseDefault> {
  const { width: w, height: h } = img;
  const classical = segmentDarkPhaseClassical(flattenBackground(img), valid);
  let dark = 0;
  for (let i = 0; i < classical.mask.length; i++) dark += classical.mask[i];
  const classicalPercent = (100 * dark) / Math.max(1, validCount);
  const L = classical.featureScale;
  const base = { classicalPercent, featureScale: L };
  if (classicalPercent < PHASE_STRUCTURE_PERCENT || !(L > 0)) return { mask: classical.mask, method: 'classical', ...base };
  const scale = darkPhaseNetworkScale(L, w, h, classNetwork('phase', version).workingScale);
  const seg = await segmentClasses('phase', version, greyToRgb(img), w, h, valid, scale);
  return { mask: seg.classes, method: 'network', networkScale: seg.scale, ...base };
}

/** Divides out uneven illumination: background = heavily blurred, bright-biased downsample. */
export function flattenBackground(img: Gray): Gray {
  const { width: w, height: h } = img;
  const s = Math.max(1, Math.round(Math.max(w, h) / 64));
  const sw = Math.max(1, Math.round(w / s)),
    sh = Math.max(1, Math.round(h / s));
  // max-pool style: 90th percentile per block approximated by resize of a dilated image
  const small = resize(img, sw, sh);
  const bg = resize(gaussianBlur(small, 3), w, h);
  let gmean = 0;
  for (let i = 0; i < bg.data.length; i++) gmean += bg.data[i];
  gmean /= bg.data.length;
  // out = round(v · mean / max(1, bg)) tabulated over all (bg, v) pairs: the same arithmetic, one lookup per pixel
  const lut = new Uint8Array(65536);
  for (let b = 0; b < 256; b++)
    for (let v = 0; v < 256; v++) {
      const q = (v * gmean) / Math.max(1, b);
      lut[(b << 8) | v] = q > 255 ? 255 : Math.round(q);
    }
  const out = new Uint8Array(w * h);
  const src = img.data,
    bgd = bg.data;
  for (let i = 0; i < out.length; i++) out[i] = lut[(bgd[i] << 8) | src[i]];
  return { width: w, height: h, data: out };
}

export async function runPorosity(ctx: Context): Promise<void> {
  const { img, valid, lang, pixelSizeUm: px, settings } = ctx;
  const { width: w, height: h } = img;
  await warnIfColour(ctx, (rgb, v) => isColourEtched(colourStats(rgb, v)));
  let mask: Uint8Array;
  let byNetwork: DarkPhaseDefault | null = null;
  if (ctx.mask) {
    mask = new Uint8Array(w * h);
    for (let i = 0; i < mask.length; i++) mask[i] = valid[i] && ctx.mask[i] ? 1 : 0;
  } else if (ctx.version >= '20261202') {
    const d = await segmentDarkPhaseDefault(img, valid, ctx.validCount, ctx.version);
    mask = d.mask;
    if (d.method === 'network') byNetwork = d;
  } else mask = segmentDarkPhase(img, valid, ctx.version);
  const cc = components(mask, w, h, 8);
  const minArea = 3;
  const areasUm2: number[] = [];
  let poreArea = 0;
  const keep = new Uint8Array(cc.count + 1);
  for (let l = 1; l <= cc.count; l++) {
    if (cc.area[l] >= minArea) {
      keep[l] = 1;
      areasUm2.push(cc.area[l] * px * px);
    }
  }
  const clean = new Uint8Array(w * h);
  for (let i = 0; i < clean.length; i++)
    if (keep[cc.labels[i]]) {
      clean[i] = 1;
      poreArea++;
    }
  const fraction = (100 * poreArea) / ctx.validCount;
  const eqd = areasUm2.map((a) => 2 * Math.sqrt(a / Math.PI));
  const m = ctx.measurements;
  m.areaFractionPercent = fraction;
  m.poreCount = areasUm2.length;
  m.meanPoreAreaUm2 = areasUm2.length ? mean(areasUm2) : 0;
  m.meanPoreDiameterUm = eqd.length ? mean(eqd) : 0;
  m.maxPoreDiameterUm = eqd.length ? Math.max(...eqd) : 0;
  m.poresPerMm2 = areasUm2.length / (ctx.validCount * px * px * 1e-6);
  if (ctx.version >= '20261201' && (!ctx.mask || ctx.recipe)) {
    if (grainShapedPores(clean, cc.labels, keep, cc.count, w, h, ctx.validCount, fraction, ctx.version >= '20261202' ? valid : null))
      ctx.items.push({
        type: 'message',
        status: 'warning',
        code: 'PORES_LOOK_LIKE_GRAINS',
        title: tr(lang, { en: 'These may not be pores', de: 'Das sind womöglich keine Poren' }),
        content: tr(lang, {
          en: `The dark phase covers ${fraction.toFixed(1)} % of the image in regions shaped like grains and grain boundaries. Porosity is rarely that high: this looks like a grain or phase structure. Use the grain size model, or a recipe that names the phase to measure.`,
          de: `Die dunkle Phase bedeckt ${fraction.toFixed(1)} % des Bildes in Bereichen, die wie Körner und Korngrenzen geformt sind. So hohe Porosität ist selten: das sieht nach einem Korn- oder Phasengefüge aus. Verwenden Sie das Korngrößenmodell oder ein Rezept, das die zu messende Phase benennt.`,
        }),
      });
  }
  if (byNetwork) {
    const pct = byNetwork.classicalPercent.toFixed(0);
    // the network's mean error on the training images held out by image (its cross-validation)
    const err = classNetwork('phase', ctx.version).heldOutErrorPoints.toFixed(1);
    ctx.items.push({
      type: 'message',
      status: 'info',
      code: 'DARK_PHASE_NETWORK',
      title: tr(lang, { en: 'Measured as a two-phase structure', de: 'Als zweiphasiges Gefüge gemessen' }),
      content: tr(lang, {
        en: `A threshold finds the dark phase on about ${pct} % of the image, more than isolated pores cover: it was segmented by the dark-phase network, trained on γ′ precipitates in Ni-base superalloys (SEM). On those images, held out by image, it reads the area fraction ${err} points off on average. For another material, a recipe that names the phase measures it as you mark it.`,
        de: `Ein Schwellwert findet die dunkle Phase auf etwa ${pct} % des Bildes, mehr als einzelne Poren bedecken: sie wurde vom Netz für dunkle Phasen segmentiert, trainiert auf γ′-Ausscheidungen in Nickelbasis-Superlegierungen (REM). Auf diesen Bildern, bildweise zurückgehalten, liegt der Flächenanteil im Mittel ${err.replace('.', ',')} Punkte daneben. Für einen anderen Werkstoff misst ein Rezept, das die Phase benennt, sie so, wie Sie sie markieren.`,
      }),
    });
  }
  const col = settings.colours.feature;
  // a two-phase structure (measured by the dark-phase network) is a phase, not pores: its rows say so
  const phase = !!byNetwork;
  ctx.items.push(
    table([
      row(
        phase
          ? tr(lang, { en: 'Area fraction (dark phase)', de: 'Flächenanteil (dunkle Phase)' })
          : tr(lang, { en: 'Area fraction (porosity)', de: 'Flächenanteil (Porosität)' }),
        fraction,
        '%',
        tr(lang, { en: 'Dark-phase area / analysed area (ASTM E562/E1245)', de: 'Fläche der dunklen Phase / analysierte Fläche (ASTM E562/E1245)' }),
      ),
      row(
        phase ? tr(lang, { en: 'Dark-phase regions', de: 'Bereiche der dunklen Phase' }) : tr(lang, { en: 'Pore count', de: 'Anzahl Poren' }),
        areasUm2.length,
        '',
        phase
          ? tr(lang, {
              en: 'Connected dark regions (touching particles merge)',
              de: 'Zusammenhängende dunkle Bereiche (sich berührende Teilchen verschmelzen)',
            })
          : tr(lang, {
              en: 'Connected dark regions (touching pores merge)',
              de: 'Zusammenhängende dunkle Bereiche (sich berührende Poren verschmelzen)',
            }),
      ),
      row(
        phase ? tr(lang, { en: 'Regions per mm²', de: 'Bereiche pro mm²' }) : tr(lang, { en: 'Pores per mm²', de: 'Poren pro mm²' }),
        m.poresPerMm2 as number,
        '1/mm²',
      ),
      row(
        phase ? tr(lang, { en: 'Mean region area', de: 'Mittlere Bereichsfläche' }) : tr(lang, { en: 'Mean pore area', de: 'Mittlere Porenfläche' }),
        m.meanPoreAreaUm2 as number,
        'µm²',
      ),
      row(tr(lang, { en: 'Mean equivalent diameter', de: 'Mittlerer Äquivalentdurchmesser' }), m.meanPoreDiameterUm as number, 'µm'),
      row(tr(lang, { en: 'Largest equivalent diameter', de: 'Größter Äquivalentdurchmesser' }), m.maxPoreDiameterUm as number, 'µm'),
      ...calibrationRows(ctx),
    ]),
  );
  ctx.items.push(
    histogram(
      eqd,
      settings.layer.histogramBins,
      phase
        ? tr(lang, { en: 'Size distribution of the dark phase', de: 'Größenverteilung der dunklen Phase' })
        : tr(lang, { en: 'Pore size distribution', de: 'Porengrößenverteilung' }),
      tr(lang, { en: 'Equivalent diameter', de: 'Äquivalentdurchmesser' }),
      tr(lang, { en: 'Count', de: 'Anzahl' }),
      'µm',
      hex(col),
    ),
  );
  const filename = 'porosity-overlay.png';
  // on the whole image, outside the analysis hatched (overlayImage.ts): the results page fades it into the original
  ctx.files.push({ filename, data: await wholeImageOverlayPng(ctx, overlayRgb(img, [{ mask: clean, color: rgb255(col), alpha: 0.6 }])) });
  await addSegmentationFile(ctx, (i) => clean[i] > 0);
  ctx.items.push({ type: 'image', filename });
}

/**
 * 20261201 (issue 22): "pores" that cover a third of the image or more, shaped like grains: either one network
 * that spans the image with most of the dark area (the boundaries and dark grains of an etched grain structure,
 * perimeter² / 4π·area over 100), or many separate compact regions (at least 8 of over 0.1 % of the image each,
 * area-weighted perimeter² / 4π·area ≤ 2.5). Porosity is rarely that high; a grain or phase structure is.
 * From 20261202 (`valid` given), an etched grain structure's boundary network is also recognised from 20 % dark
 * area (thin boundaries cover 20–35 %): the spanning network cuts the bright phase into closed cells (at least 20
 * pieces of over 0.05 % of the image holding 80 % of the bright area), where the solid of a porous material stays
 * one connected piece around its pores, however connected the pores are.
 */
export function grainShapedPores(
  mask: Uint8Array,
  labels: Int32Array,
  keep: Uint8Array,
  count: number,
  w: number,
  h: number,
  validCount: number,
  fractionPercent: number,
  valid: Uint8Array | null = null,
): boolean {
  if (fractionPercent < (valid ? 20 : 35)) return false;
  const area = new Float64Array(count + 1),
    perim = new Float64Array(count + 1);
  const box = new Int32Array((count + 1) * 4);
  for (let l = 0; l <= count; l++) box.set([w, h, -1, -1], l * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const l = labels[i];
      if (!l || !keep[l]) continue;
      area[l]++;
      if (x === 0 || y === 0 || x === w - 1 || y === h - 1 || !mask[i - 1] || !mask[i + 1] || !mask[i - w] || !mask[i + w]) perim[l]++;
      const b = l * 4;
      if (x < box[b]) box[b] = x;
      if (y < box[b + 1]) box[b + 1] = y;
      if (x > box[b + 2]) box[b + 2] = x;
      if (y > box[b + 3]) box[b + 3] = y;
    }
  let dark = 0,
    big = 0,
    weighted = 0,
    total = 0;
  for (let l = 1; l <= count; l++) dark += area[l];
  for (let l = 1; l <= count; l++) {
    if (area[l] < 0.001 * validCount) continue;
    const compactness = (perim[l] * perim[l]) / (4 * Math.PI * area[l]);
    const b = l * 4;
    const spans = box[b + 2] - box[b] >= 0.9 * (w - 1) && box[b + 3] - box[b + 1] >= 0.9 * (h - 1);
    if (spans && area[l] >= 0.5 * dark && compactness > 100 && (fractionPercent >= 35 || (valid && brightCells(mask, valid, w, h, validCount))))
      return true;
    if (fractionPercent < 35) continue;
    big++;
    weighted += area[l] * compactness;
    total += area[l];
  }
  return fractionPercent >= 35 && big >= 8 && weighted / total <= 2.5;
}

/** The bright phase (valid, not `mask`) in closed cells: ≥ 20 pieces (4-connected) of over 0.05 % of the image with 80 % of its area. */
function brightCells(mask: Uint8Array, valid: Uint8Array, w: number, h: number, validCount: number): boolean {
  const bright = new Uint8Array(w * h);
  for (let i = 0; i < bright.length; i++) bright[i] = valid[i] && !mask[i] ? 255 : 0;
  const cc = components(bright, w, h, 4);
  let total = 0,
    inCells = 0,
    cells = 0;
  for (let l = 1; l <= cc.count; l++) {
    total += cc.area[l];
    if (cc.area[l] >= 0.0005 * validCount) {
      cells++;
      inCells += cc.area[l];
    }
  }
  return cells >= 20 && inCells >= 0.8 * total;
}
