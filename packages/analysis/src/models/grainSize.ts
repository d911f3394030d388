// Grain size (ASTM E112 / ISO 643): boundary segmentation, Jeffries planimetric count and mean
// lineal intercept.
import { blackHat, components, distanceTransform, resize, watershed } from '../cvops.js';
import { blurGray, encodePng, overlayRgb, type Gray } from '../image.js';
import { astmGFromIntercept, astmGFromNA, jeffriesCount, meanIntercept, type InterceptResult } from '../measure/astm.js';
import { e112Intercept } from '../measure/e112.js';
import { colourStats, isColourEtched, segmentColourGrains } from './grainColour.js';
import { dynamicSeeds } from './seeds.js';

export { dynamicSeeds };
import { AnalysisError } from '../errors.js';
import { addSegmentationFile, type Context } from './common.js';
import { calibrationRows, fmt, hex, histOf, histogram, histMedian, mean, otsu, rgb255, row, table, tr } from './common.js';

export interface GrainSegmentation {
  labels: Int32Array;
  count: number;
  boundary: Uint8Array;
}

/**
 * Thin-line response of the boundaries (black-hat, 11 px) and its threshold. 20261123 also looks for bright
 * boundaries (BSE images, some etches): the polarity whose line response is stronger (98th percentile) wins, so a
 * bright boundary is traced on its ridge, not on the dark shading beside it.
 */
async function boundaryResponse(img: Gray, valid: Uint8Array, version: string): Promise<{ resp: Gray; t: number }> {
  const g = await blurGray(img, 1.2);
  const brightLines = version >= '20261123' && brightBoundaries(g);
  const resp = blackHat(brightLines ? { width: g.width, height: g.height, data: g.data.map((v) => 255 - v) } : g, 11);
  // threshold: midway between the background response and the boundary response (Otsu split)
  const h = histOf(resp.data, valid);
  const t0 = Math.max(otsu(h), 4);
  const lo = histMedian(h, 0, t0),
    hi = histMedian(h, t0 + 1, 255);
  return { resp, t: Math.max(3, (lo + hi) / 2) };
}

/**
 * 20250101: black-hat boundary map → seeds = interior cores (distance to boundary ≥ r, so that
 * small boundary gaps do not merge grains) → marker watershed on the boundary relief.
 * 20241025: connected components of the non-boundary pixels (no gap closing).
 */
export async function segmentGrains(img: Gray, valid: Uint8Array, version: string): Promise<GrainSegmentation> {
  const { width: w, height: h } = img;
  const { resp, t } = await boundaryResponse(img, valid, version);
  const boundary = new Uint8Array(w * h);
  const interior = new Uint8Array(w * h);
  for (let i = 0; i < boundary.length; i++) {
    boundary[i] = resp.data[i] > t ? 1 : 0;
    interior[i] = valid[i] && !boundary[i] ? 255 : 0;
  }
  if (version === '20241025') {
    const cc = components(interior, w, h, 4);
    const labels = new Int32Array(cc.labels);
    for (let l = 1; l <= cc.count; l++) if (cc.area[l] < 10) cc.area[l] = -1;
    for (let i = 0; i < labels.length; i++) if (cc.area[labels[i]] < 0) labels[i] = 0;
    return { labels, count: cc.count, boundary };
  }
  const dist = distanceTransform(interior, w, h);
  const { seeds, count: n } = dynamicSeeds(dist, w, h);
  const excludedLabel = n + 1;
  const markers = new Int32Array(w * h);
  for (let i = 0; i < markers.length; i++) markers[i] = valid[i] ? seeds[i] : excludedLabel;
  const ws = watershed(resp, markers);
  for (let i = 0; i < ws.length; i++) if (ws[i] === excludedLabel || ws[i] < 0) ws[i] = 0;
  if (version >= '20261123') {
    // The boundary band belongs to no grain: a basin that flooded along it first would otherwise own thin strands
    // of band between other grains, and every test line crossing such a band would meet two boundaries.
    for (let i = 0; i < ws.length; i++) if (boundary[i]) ws[i] = 0;
    dropSlivers(ws, w, h, n);
  }
  return { labels: ws, count: n, boundary };
}

/**
 * Regions no thicker than a boundary line (largest inscribed radius under 2 px) are slivers of a wide boundary
 * band that the watershed left between two grains, not grains: they become boundary (label 0), so a test line
 * crossing the band meets one boundary, not two.
 */
export function dropSlivers(labels: Int32Array, w: number, h: number, count: number): void {
  const inner = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const l = labels[i];
      if (l <= 0) continue;
      const same =
        (x === 0 || labels[i - 1] === l) &&
        (x === w - 1 || labels[i + 1] === l) &&
        (y === 0 || labels[i - w] === l) &&
        (y === h - 1 || labels[i + w] === l);
      inner[i] = same ? 255 : 0;
    }
  const dist = distanceTransform(inner, w, h);
  const peak = new Float32Array(count + 2);
  for (let i = 0; i < labels.length; i++) {
    const l = labels[i];
    if (l > 0 && l <= count && dist[i] > peak[l]) peak[l] = dist[i];
  }
  for (let i = 0; i < labels.length; i++) {
    const l = labels[i];
    if (l > 0 && l <= count && peak[l] < 2) labels[i] = 0;
  }
}

export async function runGrainSize(ctx: Context): Promise<void> {
  const { img, valid, lang, pixelSizeUm: px, settings } = ctx;
  const { width: w, height: h } = img;
  let seg: GrainSegmentation;
  if (ctx.mask) {
    const inside = new Uint8Array(w * h);
    for (let i = 0; i < inside.length; i++) inside[i] = valid[i] && ctx.mask[i] ? 1 : 0;
    const cc = components(inside, w, h, 4);
    const boundary = new Uint8Array(w * h);
    for (let i = 0; i < boundary.length; i++) boundary[i] = cc.labels[i] ? 0 : 1;
    seg = { labels: cc.labels, count: cc.count, boundary };
  } else {
    const rgb = ctx.version >= '20261123' ? await ctx.colour() : null;
    const stats = rgb ? colourStats(rgb, valid) : null;
    if (rgb && stats && isColourEtched(stats)) {
      const c = await segmentColourGrains(rgb, img, valid);
      seg = { labels: c.labels, count: c.count, boundary: new Uint8Array(w * h).map((_, i) => (c.labels[i] > 0 ? 0 : 1)) };
      ctx.measurements.segmentation = 'colour';
    } else seg = await segmentGrains(img, valid, ctx.version);
  }
  const J = jeffriesCount(seg.labels, w, h, valid, seg.count, ctx.mask ? 0 : 2);
  const areaMm2 = ctx.validCount * px * px * 1e-6;
  const nA = J.jeffries / areaMm2;
  const meanArea = 1e6 / nA;
  const spacing = Math.max(4, Math.round(Math.min(w, h) / 150));
  const I = interceptOf(seg.labels, w, h, valid, spacing, ctx.version);
  // the model's own segmentation with too few grains is refused; a user's mask is measured as drawn (E112's warning says why it is weak)
  if (ctx.version >= '20261123' && !ctx.mask && J.jeffries < MIN_GRAINS)
    throw new AnalysisError(
      'TOO_FEW_FEATURES',
      tr(lang, {
        en: `Only ${fmt(J.jeffries, 1)} grains were found in the analysed area: at least ${MIN_GRAINS} are needed for a grain size. Analyse a larger area or a lower magnification.`,
        de: `Im ausgewerteten Bereich wurden nur ${fmt(J.jeffries, 1)} Körner gefunden: für eine Korngröße sind mindestens ${MIN_GRAINS} nötig. Werten Sie einen größeren Bereich oder eine kleinere Vergrößerung aus.`,
      }),
    );
  const lUm = I.meanInterceptPx * px;
  const gP = astmGFromNA(nA),
    gI = astmGFromIntercept(lUm / 1000);
  const m = ctx.measurements;
  Object.assign(m, {
    grainCount: J.jeffries,
    grainsInside: J.inside,
    grainsOnBorder: J.border,
    grainsPerMm2: nA,
    meanGrainAreaUm2: meanArea,
    astmGPlanimetric: gP,
    meanInterceptUm: lUm,
    astmGIntercept: gI,
    interceptCount: I.intersections,
  });
  // grain areas (inside grains only, for the distributions)
  const areas: number[] = [];
  for (let l = 1; l <= seg.count; l++) if (J.kind[l] === 1) areas.push(J.area[l] * px * px);
  const diam = areas.map((a) => 2 * Math.sqrt(a / Math.PI));
  const bins = settings.layer.histogramBins;
  ctx.items.push(
    table([
      row(
        tr(lang, { en: 'ASTM grain size G (planimetric)', de: 'ASTM-Korngröße G (Flächenverfahren)' }),
        gP,
        '',
        tr(lang, { en: 'E112 Jeffries: G = 3.321928·log10(N_A) − 2.954', de: 'E112 Jeffries: G = 3,321928·log10(N_A) − 2,954' }),
        2,
      ),
      row(
        tr(lang, { en: 'ASTM grain size G (intercept)', de: 'ASTM-Korngröße G (Linienschnitt)' }),
        gI,
        '',
        tr(lang, { en: 'E112: G = −6.643856·log10(L̄ mm) − 3.288', de: 'E112: G = −6,643856·log10(L̄ mm) − 3,288' }),
        2,
      ),
      row(
        tr(lang, { en: 'Grains counted (Jeffries)', de: 'Gezählte Körner (Jeffries)' }),
        J.jeffries,
        '',
        tr(lang, { en: `${J.inside} inside + ${J.border} on the border counted half`, de: `${J.inside} innen + ${J.border} am Rand (halb gezählt)` }),
      ),
      row(tr(lang, { en: 'Grains per mm²', de: 'Körner pro mm²' }), nA, '1/mm²', '', 4),
      row(tr(lang, { en: 'Mean grain area', de: 'Mittlere Kornfläche' }), meanArea, 'µm²', '', 4),
      row(
        tr(lang, { en: 'Mean lineal intercept', de: 'Mittlere Sehnenlänge' }),
        lUm,
        'µm',
        tr(lang, {
          en: `${I.intersections} intersections on horizontal and vertical test lines`,
          de: `${I.intersections} Schnittpunkte auf horizontalen und vertikalen Messlinien`,
        }),
        4,
      ),
      ...calibrationRows(ctx),
    ]),
  );
  if (ctx.version >= '20261123') e112Items(ctx, { grains: J.jeffries, intersections: I.intersections, lengthPx: I.lengthPx, spacing, gP, gI });
  // ALA (E930): one grain far larger than the rest
  if (areas.length > 10) {
    const sorted = [...areas].sort((a, b) => a - b);
    const med = sorted[sorted.length >> 1];
    const largest = sorted[sorted.length - 1];
    // E930: ALA grain size number vs mean; flag a grain ≥ 3 ASTM numbers coarser (area ratio ≥ 2^3 ≈ 8 per G number step ×… )
    const gLargest = astmGFromNA(1e6 / largest);
    if (gP - gLargest >= 3) {
      ctx.items.push({
        type: 'message',
        status: 'warning',
        title: tr(lang, { en: 'ALA: as-large-as grain present', de: 'ALA: Einzelkorn deutlich größer' }),
        content: tr(lang, {
          en: `The largest grain (${fmt(largest, 0)} µm², ALA G ${fmt(gLargest, 1)}) is ${fmt(largest / med, 0)}× the median grain area; report it per ASTM E930 in addition to the mean G.`,
          de: `Das größte Korn (${fmt(largest, 0)} µm², ALA G ${fmt(gLargest, 1)}) ist ${fmt(largest / med, 0)}× so groß wie der Median der Kornflächen; nach ASTM E930 zusätzlich zum mittleren G angeben.`,
        }),
      });
      m.alaGrainAreaUm2 = largest;
      m.alaAstmG = gLargest;
    }
  }
  const col = hex(settings.colours.boundary);
  ctx.items.push(
    histogram(
      areas,
      bins,
      tr(lang, { en: 'Grain area distribution', de: 'Verteilung der Kornfläche' }),
      tr(lang, { en: 'Grain area', de: 'Kornfläche' }),
      tr(lang, { en: 'Count', de: 'Anzahl' }),
      'µm²',
      col,
    ),
  );
  ctx.items.push(
    histogram(
      diam,
      bins,
      tr(lang, { en: 'Equivalent diameter distribution', de: 'Verteilung des Äquivalentdurchmessers' }),
      tr(lang, { en: 'Equivalent diameter', de: 'Äquivalentdurchmesser' }),
      tr(lang, { en: 'Count', de: 'Anzahl' }),
      'µm',
      col,
    ),
  );
  m.meanEquivalentDiameterUm = diam.length ? mean(diam) : NaN;
  // overlay: watershed lines / label changes
  const lines = new Uint8Array(w * h);
  const L = seg.labels;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!valid[i]) continue;
      if (L[i] <= 0 || (x + 1 < w && L[i + 1] !== L[i] && L[i + 1] > 0) || (y + 1 < h && L[i + w] !== L[i] && L[i + w] > 0)) lines[i] = 1;
    }
  const filename = 'grain-boundaries.png';
  ctx.files.push({ filename, data: await encodePng(overlayRgb(img, [{ mask: lines, color: rgb255(settings.colours.boundary), alpha: 0.9 }]), w, h) });
  // grain interiors; a pixel touching another grain is boundary, so that grains stay apart as mask components
  const apart = (i: number, j: number) => j < 0 || j >= L.length || L[j] <= 0 || L[j] === L[i];
  await addSegmentationFile(ctx, (i) => L[i] > 0 && apart(i, i - 1) && apart(i, i + 1) && apart(i, i - w) && apart(i, i + w));
  ctx.items.push({ type: 'image', filename });
}

/**
 * The intercept count of each version. 20261123: E112's intersections P on the test lines (crossings 1,
 * triple points 1½, tangents 1, line ends on a boundary ½; measure/e112.ts). 20250101: changes of grain label,
 * dropping runs shorter than 15 % of L̄ as boundary flicker. 20241025: changes of grain label.
 */
function interceptOf(labels: Int32Array, w: number, h: number, valid: Uint8Array, spacing: number, version: string): InterceptResult {
  if (version >= '20261123') {
    const r = e112Intercept(labels, w, h, valid, spacing);
    return { lengthPx: r.lengthPx, intersections: r.intersections, meanInterceptPx: r.meanInterceptPx };
  }
  const I0 = meanIntercept(labels, w, h, valid, spacing);
  if (version < '20250101' || !Number.isFinite(I0.meanInterceptPx)) return I0;
  return meanIntercept(labels, w, h, valid, spacing, Math.max(3, Math.round(I0.meanInterceptPx * 0.15)));
}

/** E112 asks for at least 50 grains (planimetric) and 50 intersections (intercept) per field; fewer are refused below this. */
export const MIN_GRAINS = 5;
const E112_MIN_COUNT = 50;

/** The method statement of E112 and its warnings: few grains or intersections, planimetric and intercept apart. */
function e112Items(ctx: Context, r: { grains: number; intersections: number; lengthPx: number; spacing: number; gP: number; gI: number }) {
  const { lang, pixelSizeUm: px } = ctx;
  const lengthMm = (r.lengthPx * px) / 1000;
  ctx.items.push({
    type: 'message',
    status: 'info',
    title: tr(lang, { en: 'Method: ASTM E112-13', de: 'Verfahren: ASTM E112-13' }),
    content: tr(lang, {
      en: `Planimetric (Jeffries): grains inside the field count 1, grains cut by its border ½. Intercept: horizontal and vertical test lines every ${r.spacing} px (total length ${fmt(lengthMm, 3)} mm), P = ${fmt(r.intersections, 1)} intersections; a crossing counts 1, a triple point 1½, a tangent 1, a line end on a boundary ½.`,
      de: `Flächenverfahren (Jeffries): Körner im Feld zählen 1, vom Rand geschnittene ½. Linienschnitt: waagrechte und senkrechte Messlinien alle ${r.spacing} px (Gesamtlänge ${fmt(lengthMm, 3)} mm), P = ${fmt(r.intersections, 1)} Schnittpunkte; ein Schnitt zählt 1, ein Tripelpunkt 1½, eine Tangente 1, ein Linienende auf einer Korngrenze ½.`,
    }),
  });
  if (r.grains < E112_MIN_COUNT || r.intersections < E112_MIN_COUNT)
    ctx.items.push({
      type: 'message',
      status: 'warning',
      title: tr(lang, { en: 'Fewer than 50 counts (ASTM E112)', de: 'Weniger als 50 Zählungen (ASTM E112)' }),
      content: tr(lang, {
        en: `E112 asks for at least 50 grains or 50 intersections per field; this field has ${fmt(r.grains, 1)} grains and ${fmt(r.intersections, 1)} intersections. Measure more fields or a larger area for a reliable G.`,
        de: `E112 verlangt mindestens 50 Körner bzw. 50 Schnittpunkte je Feld; dieses Feld hat ${fmt(r.grains, 1)} Körner und ${fmt(r.intersections, 1)} Schnittpunkte. Messen Sie mehr Felder oder eine größere Fläche für ein verlässliches G.`,
      }),
    });
  if (Number.isFinite(r.gP) && Number.isFinite(r.gI) && Math.abs(r.gP - r.gI) > 0.5)
    ctx.items.push({
      type: 'message',
      status: 'warning',
      title: tr(lang, { en: 'Planimetric and intercept G differ', de: 'G aus Flächen- und Linienschnittverfahren weichen ab' }),
      content: tr(lang, {
        en: `G planimetric ${fmt(r.gP, 2)} and G intercept ${fmt(r.gI, 2)} are more than 0.5 apart: the structure may be elongated, duplex or not fully segmented. Check the overlay.`,
        de: `G Flächenverfahren ${fmt(r.gP, 2)} und G Linienschnitt ${fmt(r.gI, 2)} liegen mehr als 0,5 auseinander: das Gefüge kann gestreckt, zweiphasig oder unvollständig segmentiert sein. Prüfen Sie die Überlagerung.`,
      }),
    });
}

/**
 * Whether the boundaries are bright lines: the thin-line response of the inverted image is stronger (98th
 * percentile) than that of the image itself. Decided at half resolution (kernel 7), where it costs a fraction.
 */
function brightBoundaries(g: Gray): boolean {
  const w = Math.max(1, g.width >> 1),
    h = Math.max(1, g.height >> 1);
  const half = resize(g, w, h);
  const all = new Uint8Array(w * h).fill(1);
  const dark = blackHat(half, 7);
  const bright = blackHat({ width: w, height: h, data: half.data.map((v) => 255 - v) }, 7);
  return percentile(histOf(bright.data, all), 0.98) > percentile(histOf(dark.data, all), 0.98);
}

/** The value below which a fraction q of a histogram's mass lies. */
function percentile(hist: ArrayLike<number>, q: number): number {
  let total = 0;
  for (let i = 0; i < hist.length; i++) total += hist[i];
  let acc = 0;
  for (let i = 0; i < hist.length; i++) {
    acc += hist[i];
    if (acc >= q * total) return i;
  }
  return hist.length - 1;
}
