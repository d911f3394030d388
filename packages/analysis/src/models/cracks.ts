// Cracks: thin dark lines on a textured surface → skeleton → networks, lengths, widths.
import { blackHat, components, gaussianBlur, morph } from '../cvops.js';
import { overlayRgb, type Gray } from '../image.js';
import { wholeImageOverlayPng } from './overlayImage.js';
import { skeletonize, skeletonLength } from '../measure/skeleton.js';
import { addSegmentationFile, warnIfColour, type Context } from './common.js';
import { AnalysisError } from '../errors.js';
import { colourStats, isColourEtched } from './grainColour.js';
import { RECIPE_CRACKS, recipeCrackMask, spreadLabels } from './crackShape.js';
import { calibrationRows, hex, histMedian, histOf, histogram, mean, otsu, rgb255, row, table, tr } from './common.js';

/**
 * 20250101: black-hat line response, hysteresis threshold (weak pixels kept when connected to strong
 * ones), small closing to bridge 1–2 px interruptions, removal of short specks.
 * 20241025: single threshold on the black-hat response.
 */
export function segmentCracks(
  img: Gray,
  valid: Uint8Array,
  version: string,
): { mask: Uint8Array; labels: Int32Array; count: number; resp: Gray; background: number } {
  const { width: w, height: h } = img;
  const g = gaussianBlur(img, 0.8);
  const resp = blackHat(g, 15);
  const hist = histOf(resp.data, valid);
  // background texture response: robust level + spread from the lower part of the histogram
  let n = 0;
  for (let i = 0; i < 256; i++) n += hist[i];
  let acc = 0,
    p50 = 0,
    p90 = 0;
  for (let i = 0; i < 256; i++) {
    acc += hist[i];
    if (!p50 && acc >= n * 0.5) p50 = i;
    if (!p90 && acc >= n * 0.9) {
      p90 = i;
      break;
    }
  }
  const t0 = otsu(hist);
  const crack = histMedian(hist, t0 + 1, 255);
  // geometry at half depth between the texture and the crack response
  const weak = Math.max(p90 + 2 * (p90 - p50 + 1), (p50 + crack) / 2);
  const strong = version >= '20250101' ? Math.max(weak, p90 + 4 * (p90 - p50 + 1)) : weak;
  let m: Uint8Array = new Uint8Array(w * h);
  for (let i = 0; i < m.length; i++) m[i] = valid[i] && resp.data[i] > weak ? 1 : 0;
  if (version >= '20250101') m = morph(m, w, h, 'close', 3);
  const cc = components(m, w, h, 8);
  const keep = new Uint8Array(cc.count + 1);
  for (let i = 0; i < m.length; i++) if (m[i] && resp.data[i] > strong) keep[cc.labels[i]] = 1;
  const minExtent = Math.max(12, Math.round(Math.min(w, h) * 0.01));
  for (let l = 1; l <= cc.count; l++) {
    const bw = cc.bbox[l * 4 + 2],
      bh = cc.bbox[l * 4 + 3];
    if (Math.hypot(bw, bh) < minExtent) keep[l] = 0;
  }
  // kept components are whole 8-connected components of the mask, so they are also the components of
  // the result: renumbered in order they carry the labels a new labelling would give (computed once)
  const relabel = new Int32Array(cc.count + 1);
  let count = 0;
  for (let l = 1; l <= cc.count; l++) if (keep[l]) relabel[l] = ++count;
  const out = new Uint8Array(w * h);
  const labels = cc.labels;
  for (let i = 0; i < out.length; i++) {
    const l = relabel[labels[i]];
    out[i] = l ? 1 : 0;
    labels[i] = l;
  }
  return { mask: out, labels, count, resp, background: p50 };
}

export async function runCracks(ctx: Context): Promise<void> {
  const { img, valid, lang, pixelSizeUm: px, settings } = ctx;
  const { width: w, height: h } = img;
  await warnIfColour(ctx, (rgb, v) => isColourEtched(colourStats(rgb, v)));
  let mask: Uint8Array;
  let cc: { labels: Int32Array; count: number };
  let deficit: { resp: Gray; background: number } | null = null;
  if (ctx.mask) {
    mask = new Uint8Array(w * h);
    for (let i = 0; i < mask.length; i++) mask[i] = valid[i] && ctx.mask[i] ? 1 : 0;
    // from RECIPE_CRACKS.from (issue 22): a recipe's crack class is read as cracks are drawn by hand, its dashes
    // joined, pore rims, interface seams and specks left out (crackShape.ts)
    const measures = ctx.recipe?.run.measures;
    if (ctx.recipe && measures && Number.isInteger(measures.crack) && RECIPE_CRACKS.from !== null && ctx.version >= RECIPE_CRACKS.from) {
      const region = Number.isInteger(measures.crackRegion) ? measures.crackRegion! : null;
      mask = recipeCrackMask(ctx.recipe.labels, valid, measures.crack!, region, w, h, img.data).mask;
    }
    cc = components(mask, w, h, 8);
  } else {
    const seg = segmentCracks(img, valid, ctx.version);
    mask = seg.mask;
    cc = seg;
    if (ctx.version >= '20261123') deficit = seg;
  }
  const skel = skeletonize(mask, w, h);
  const { perPixel } = skeletonLength(skel, w, h);
  const len = new Float64Array(cc.count + 1),
    area = new Float64Array(cc.count + 1),
    ends = new Float64Array(cc.count + 1);
  const nbs = [-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1];
  for (let i = 0; i < mask.length; i++) {
    const l = cc.labels[i];
    if (!l) continue;
    area[l]++;
    if (skel[i]) {
      len[l] += perPixel[i];
      let nb = 0;
      for (const d of nbs) if (skel[i + d]) nb++;
      if (nb === 1) ends[l]++;
    }
  }
  // Thin cracks are narrower than the blur and threshold make their mask: their true area is the darkness they
  // take from the surface (integrated below the background response) over the full depth of a resolved crack.
  if (deficit) {
    const sharp = sharpArea(mask, skel, cc.labels, cc.count, deficit.resp, deficit.background, w, h);
    if (sharp) for (let l = 1; l <= cc.count; l++) area[l] = sharp[l];
  }
  // 20261201 (issue 22): cracks are long and thin; when the dark features found are compact (pores, gaps between
  // splats, grains) the image has no crack-like ridges and the model says so rather than counting them
  if (ctx.version >= '20261201' && (!ctx.mask || ctx.recipe)) {
    let all = 0,
      thin = 0,
      features = 0;
    for (let l = 1; l <= cc.count; l++) {
      if (len[l] <= 0) continue;
      features++;
      all += len[l];
      if (len[l] * len[l] >= 6 * area[l]) thin += len[l];
    }
    if (features >= 3 && thin < 0.3 * all)
      throw new AnalysisError(
        'NOT_CRACK_LIKE',
        tr(lang, {
          en: `No crack-like lines were found: ${Math.round((100 * (all - thin)) / all)} % of the dark features are compact (pores, gaps or grains), not long thin cracks. This image does not look like a cracked surface or coating.`,
          de: `Es wurden keine rissartigen Linien gefunden: ${Math.round((100 * (all - thin)) / all)} % der dunklen Merkmale sind kompakt (Poren, Spalten oder Körner), keine langen dünnen Risse. Das Bild sieht nicht wie eine gerissene Oberfläche oder Schicht aus.`,
        }),
      );
  }
  const cracks: { lengthUm: number; widthUm: number }[] = [];
  let totalArea = 0;
  for (let l = 1; l <= cc.count; l++) {
    if (len[l] <= 0) continue;
    // thinning shortens each free end by about half the crack width
    const width0 = area[l] / len[l];
    const lengthPx = len[l] + (ends[l] * width0) / 2;
    cracks.push({ lengthUm: lengthPx * px, widthUm: (area[l] / lengthPx) * px });
    totalArea += area[l];
  }
  const total = cracks.reduce((s, c) => s + c.lengthUm, 0);
  const m = ctx.measurements;
  Object.assign(m, {
    crackCount: cracks.length,
    totalLengthUm: total,
    meanCrackLengthUm: cracks.length ? total / cracks.length : 0,
    meanWidthUm: cracks.length ? (totalArea * px * px) / total : 0,
    crackAreaFraction: totalArea / ctx.validCount,
    crackDensityMmPerMm2: total / 1000 / (ctx.validCount * px * px * 1e-6),
  });
  ctx.items.push(
    table([
      row(
        tr(lang, { en: 'Crack networks', de: 'Rissnetzwerke' }),
        cracks.length,
        '',
        tr(lang, { en: 'Connected cracks count as one', de: 'Verbundene Risse zählen als einer' }),
      ),
      row(
        tr(lang, { en: 'Total crack length', de: 'Gesamte Risslänge' }),
        total,
        'µm',
        tr(lang, { en: 'Centre-line (skeleton) length', de: 'Länge der Mittellinie (Skelett)' }),
      ),
      row(tr(lang, { en: 'Mean crack length', de: 'Mittlere Risslänge' }), m.meanCrackLengthUm as number, 'µm'),
      row(
        tr(lang, { en: 'Mean crack width', de: 'Mittlere Rissbreite' }),
        m.meanWidthUm as number,
        'µm',
        tr(lang, { en: 'Crack area / centre-line length', de: 'Rissfläche / Mittellinienlänge' }),
      ),
      row(tr(lang, { en: 'Area fraction', de: 'Flächenanteil' }), 100 * (m.crackAreaFraction as number), '%'),
      row(tr(lang, { en: 'Crack density', de: 'Rissdichte' }), m.crackDensityMmPerMm2 as number, 'mm/mm²'),
      ...calibrationRows(ctx),
    ]),
  );
  const color = hex(settings.colours.cracks);
  ctx.items.push({
    type: 'bar-chart',
    data: cracks.map((c, i) => ({ crack: i + 1, length: Number(c.lengthUm.toFixed(2)), width: Number(c.widthUm.toFixed(3)) })),
    keys: ['length'],
    xLabel: tr(lang, { en: 'Crack', de: 'Riss' }),
    yLabels: [tr(lang, { en: 'Length (µm)', de: 'Länge (µm)' })],
  });
  ctx.items.push(
    histogram(
      cracks.map((c) => c.lengthUm),
      settings.layer.histogramBins,
      tr(lang, { en: 'Crack length distribution', de: 'Verteilung der Risslänge' }),
      tr(lang, { en: 'Length', de: 'Länge' }),
      tr(lang, { en: 'Count', de: 'Anzahl' }),
      'µm',
      color,
    ),
  );
  m.meanCrackWidthUm = cracks.length ? mean(cracks.map((c) => c.widthUm)) : 0;
  const filename = 'cracks-overlay.png';
  ctx.files.push({
    filename,
    // on the whole image, outside the analysis hatched (overlayImage.ts): the results page fades it into the original
    data: await wholeImageOverlayPng(
      ctx,
      overlayRgb(img, [
        { mask, color: rgb255(settings.colours.cracks), alpha: 0.45 },
        { mask: morph(skel, w, h, 'dilate', 2), color: [255, 255, 0], alpha: 1 },
      ]),
    ),
  });
  ctx.items.push({ type: 'image', filename });
  await addSegmentationFile(ctx, (i) => mask[i] > 0);
}

/**
 * Sub-pixel crack area from the integrated response: per crack, the sum over its mask widened by 3 px of
 * (response − background level), divided by the full depth of a crack (the 90th percentile of the response on
 * the centre lines of all cracks). Blur spreads a crack's darkness but keeps its integral, so this measures a
 * 1–3 px crack's area where a thresholded mask counts its blurred halo. Null when there is no usable depth.
 */
function sharpArea(
  mask: Uint8Array,
  skel: Uint8Array,
  labels: Int32Array,
  count: number,
  resp: Gray,
  background: number,
  w: number,
  h: number,
): Float64Array | null {
  const onLine: number[] = [];
  for (let i = 0; i < skel.length; i++) if (skel[i] && labels[i]) onLine.push(resp.data[i]);
  if (!onLine.length) return null;
  onLine.sort((a, b) => a - b);
  const depth = onLine[Math.floor(0.99 * (onLine.length - 1))] - background;
  if (depth <= 2) return null;
  // each pixel of the widened zone belongs to the nearest crack label (spread by 3 dilation steps)
  const own = spreadLabels(labels, w, h, 3);
  // the texture's mean response off the cracks is the level a crack's darkness is measured from: the signed sum
  // then adds no bias from the texture's noise, which a sum of positive parts would
  let offSum = 0,
    offN = 0;
  for (let i = 0; i < own.length; i++)
    if (!own[i]) {
      offSum += resp.data[i];
      offN++;
    }
  const level = offN ? offSum / offN : background;
  const out = new Float64Array(count + 1);
  for (let i = 0; i < own.length; i++) {
    const l = own[i];
    if (l) out[l] += Math.min(1, (resp.data[i] - level) / depth);
  }
  for (let l = 1; l <= count; l++) out[l] = Math.max(0, out[l]);
  // never more than the mask itself holds
  const maskArea = new Float64Array(count + 1);
  for (let i = 0; i < mask.length; i++) if (mask[i] && labels[i]) maskArea[labels[i]]++;
  for (let l = 1; l <= count; l++) out[l] = Math.min(out[l], maskArea[l]);
  return out;
}
