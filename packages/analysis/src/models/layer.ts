// Layer thickness in a cross-section: resin (dark, top), coating (bright), substrate (below).
import { components, morph } from '../cvops.js';
import { blurGray, overlayRgb } from '../image.js';
import { wholeImageOverlayPng } from './overlayImage.js';
import { crossing, perpendicularThickness, runningMedian } from '../measure/thickness.js';
import { addSegmentationFile, warnIfColour, type Context } from './common.js';
import { AnalysisError } from '../errors.js';
import { colourStats, isColourEtched } from './grainColour.js';
import { calibrationRows, hex, histMedian, histOf, histogram, mean, otsu, rgb255, row, std, table, tr } from './common.js';

export async function runLayer(ctx: Context): Promise<void> {
  const { img, valid, lang, pixelSizeUm: px, settings } = ctx;
  const { width: w, height: h } = img;
  await warnIfColour(ctx, (rgb, v) => isColourEtched(colourStats(rgb, v)));
  const g = await blurGray(img, ctx.version >= '20250101' ? 2 : 1);
  // three grey classes: resin < substrate < coating
  const hist = histOf(g.data, valid);
  const t1 = otsu(hist);
  const upper = new Float64Array(256);
  for (let i = t1 + 1; i < 256; i++) upper[i] = hist[i];
  const t2o = otsu(upper);
  const resinLevel = histMedian(hist, 0, t1),
    subLevel = histMedian(hist, t1 + 1, t2o),
    coatLevel = histMedian(hist, t2o + 1, 255);
  const tTop = (resinLevel + coatLevel) / 2,
    tBottom = (subLevel + coatLevel) / 2;
  let coat: Uint8Array = new Uint8Array(w * h);
  if (ctx.mask) for (let i = 0; i < coat.length; i++) coat[i] = valid[i] && ctx.mask[i] ? 1 : 0;
  else {
    for (let i = 0; i < coat.length; i++) coat[i] = valid[i] && g.data[i] > tBottom ? 1 : 0;
    coat = morph(coat, w, h, 'close', 7);
    coat = morph(coat, w, h, 'open', 5);
  }
  // keep the largest component (the coating)
  const cc = components(coat, w, h, 8);
  let best = 0;
  for (let l = 1; l <= cc.count; l++) if (!best || cc.area[l] > cc.area[best]) best = l;
  for (let i = 0; i < coat.length; i++) coat[i] = best && cc.labels[i] === best ? 1 : 0;
  const xs: number[] = [],
    tops: number[] = [],
    bottoms: number[] = [];
  // first and last coating row of every column, in one row-major pass
  const firstY = new Int32Array(w).fill(-1),
    lastY = new Int32Array(w).fill(-1);
  for (let y = 0, i = 0; y < h; y++)
    for (let x = 0; x < w; x++, i++)
      if (coat[i]) {
        if (firstY[x] < 0) firstY[x] = y;
        lastY[x] = y;
      }
  for (let x = 0; x < w; x++) {
    const y0 = firstY[x],
      y1 = lastY[x];
    if (y0 <= 0 || y1 < 0 || y1 >= h - 1) continue;
    let ok = true;
    for (let y = y0 - 1; y <= y1 + 1 && ok; y++) if (!valid[y * w + x]) ok = false;
    if (!ok) continue;
    let top = y0 - 0.5,
      bottom = y1 + 0.5;
    if (!ctx.mask && ctx.version >= '20250101') {
      // sub-pixel edges at the mid-grey between the adjacent phases
      let yt = y0;
      while (yt > 0 && g.data[(yt - 1) * w + x] > tTop) yt--;
      if (yt > 0) top = yt - 1 + crossing(g.data[(yt - 1) * w + x], g.data[yt * w + x], tTop);
      let yb = y1;
      while (yb < h - 1 && g.data[(yb + 1) * w + x] > tBottom) yb++;
      if (yb < h - 1) bottom = yb + crossing(g.data[yb * w + x], g.data[(yb + 1) * w + x], tBottom);
    } else if (ctx.recipe) {
      // a recipe's band: each edge moves to the steepest grey step within 4 px of the classifier's edge (the
      // interface itself; the classifier's class boundary may sit a pixel or two inside or outside it)
      top = steepestStep(g.data, w, h, x, y0 - 1, 4) ?? top;
      bottom = steepestStep(g.data, w, h, x, y1, 4) ?? bottom;
    }
    xs.push(x);
    tops.push(top);
    bottoms.push(bottom);
  }
  const m = ctx.measurements;
  let analysedColumns = 0;
  for (let x = 0; x < w; x++) if (valid[Math.floor(h / 2) * w + x]) analysedColumns++;
  // a recipe's layer is checked as the model's own segmentation is (a user mask is measured as it is)
  const ownSegmentation = !ctx.mask || !!ctx.recipe;
  if (ctx.version >= '20261123' && ownSegmentation && xs.length < 0.5 * analysedColumns)
    throw new AnalysisError(
      'NO_LAYER_FOUND',
      tr(lang, {
        en: `A coating between resin and substrate was found in only ${xs.length} of ${analysedColumns} columns: this image does not look like a layer cross-section.`,
        de: `Eine Schicht zwischen Einbettmittel und Substrat wurde nur in ${xs.length} von ${analysedColumns} Spalten gefunden: das Bild sieht nicht wie ein Schichtquerschliff aus.`,
      }),
    );
  // 20261201 (issue 22): a band is solid across its thickness; the largest bright region of a grain or phase
  // structure is a network with holes in most columns (a tint-etched grain image gave "52.1 µm")
  if (ctx.version >= '20261201' && ownSegmentation && xs.length >= 3) {
    const fill: number[] = [];
    for (const x of xs) {
      const y0 = firstY[x],
        y1 = lastY[x];
      let n = 0;
      for (let y = y0; y <= y1; y++) n += coat[y * w + x];
      fill.push(n / (y1 - y0 + 1));
    }
    fill.sort((a, b) => a - b);
    const medianFill = fill[Math.floor(fill.length / 2)];
    if (medianFill < 0.75)
      throw new AnalysisError(
        'NO_LAYER_FOUND',
        tr(lang, {
          en: `No band spans most columns: the region found is only ${Math.round(100 * medianFill)} % solid across its height, as grains or a phase network are, not a layer. This image does not look like a layer cross-section.`,
          de: `Kein Band erstreckt sich über die meisten Spalten: der gefundene Bereich ist über seine Höhe nur zu ${Math.round(100 * medianFill)} % geschlossen, wie Körner oder ein Phasennetzwerk, nicht wie eine Schicht. Das Bild sieht nicht wie ein Schichtquerschliff aus.`,
        }),
      );
  }
  if (xs.length < 3) {
    ctx.items.push({
      type: 'message',
      status: 'error',
      title: tr(lang, { en: 'No layer found', de: 'Keine Schicht gefunden' }),
      content: tr(lang, {
        en: 'No bright coating between resin and substrate was found.',
        de: 'Zwischen Einbettmittel und Substrat wurde keine helle Schicht gefunden.',
      }),
    });
    Object.assign(m, { meanThicknessUm: null, minThicknessUm: null, maxThicknessUm: null, stdThicknessUm: null });
    return;
  }
  const { thickness, tiltDeg } = perpendicularThickness(xs, tops, bottoms);
  const tUm = Array.from(thickness, (t) => t * px);
  const smooth = runningMedian(tUm, 2);
  Object.assign(m, {
    meanThicknessUm: mean(tUm),
    minThicknessUm: Math.min(...smooth),
    maxThicknessUm: Math.max(...smooth),
    stdThicknessUm: std(tUm),
    tiltDeg,
    columnsMeasured: xs.length,
  });
  ctx.items.push(
    table([
      row(
        tr(lang, { en: 'Mean thickness', de: 'Mittlere Dicke' }),
        m.meanThicknessUm as number,
        'µm',
        tr(lang, { en: 'Perpendicular to the layer', de: 'Senkrecht zur Schicht' }),
      ),
      row(tr(lang, { en: 'Minimum thickness', de: 'Minimale Dicke' }), m.minThicknessUm as number, 'µm'),
      row(tr(lang, { en: 'Maximum thickness', de: 'Maximale Dicke' }), m.maxThicknessUm as number, 'µm'),
      row(tr(lang, { en: 'Standard deviation', de: 'Standardabweichung' }), m.stdThicknessUm as number, 'µm'),
      row(tr(lang, { en: 'Layer tilt', de: 'Schichtneigung' }), tiltDeg, '°'),
      row(tr(lang, { en: 'Measured columns', de: 'Gemessene Spalten' }), xs.length, ''),
      ...calibrationRows(ctx),
    ]),
  );
  ctx.items.push(
    histogram(
      tUm,
      settings.layer.histogramBins,
      tr(lang, { en: 'Thickness distribution', de: 'Dickenverteilung' }),
      tr(lang, { en: 'Thickness', de: 'Dicke' }),
      tr(lang, { en: 'Columns', de: 'Spalten' }),
      'µm',
      hex(settings.colours.feature),
    ),
  );
  const resin = new Uint8Array(w * h),
    edges = new Uint8Array(w * h);
  for (let i = 0; i < resin.length; i++) resin[i] = valid[i] && !coat[i] && g.data[i] < (resinLevel + subLevel) / 2 ? 1 : 0;
  for (let k = 0; k < xs.length; k++) {
    const x = xs[k];
    for (const y of [Math.round(tops[k]), Math.round(bottoms[k])]) if (y >= 0 && y < h) edges[y * w + x] = 1;
  }
  const filename = 'layer-overlay.png';
  ctx.files.push({
    filename,
    // on the whole image, outside the analysis hatched (overlayImage.ts): the results page fades it into the original
    data: await wholeImageOverlayPng(
      ctx,
      overlayRgb(img, [
        { mask: resin, color: rgb255(settings.colours.resin), alpha: 0.35 },
        { mask: coat, color: rgb255(settings.colours.feature), alpha: 0.35 },
        { mask: morph(edges, w, h, 'dilate', 3), color: [255, 0, 0], alpha: 1 },
      ]),
    ),
  });
  ctx.items.push({ type: 'image', filename });
  await addSegmentationFile(ctx, (i) => coat[i] > 0);
}

/**
 * The sub-pixel row of the steepest grey step between rows j and j + 1 of column x, for j within `r` of `j0`
 * (parabolic interpolation of the step sizes); null when no step stands out of the noise (3 grey levels).
 */
function steepestStep(g: Uint8Array, w: number, h: number, x: number, j0: number, r: number): number | null {
  const step = (j: number) => (j >= 0 && j + 1 < h ? Math.abs(g[(j + 1) * w + x] - g[j * w + x]) : 0);
  let best = -1,
    bestJ = j0;
  for (let j = Math.max(0, j0 - r); j <= Math.min(h - 2, j0 + r); j++) {
    const d = step(j);
    if (d > best) {
      best = d;
      bestJ = j;
    }
  }
  if (best < 3) return null;
  const a = step(bestJ - 1),
    c = step(bestJ + 1);
  const den = a - 2 * best + c;
  const off = den < 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (a - c)) / den)) : 0;
  return bestJ + 0.5 + off;
}
