// Grain size (ASTM E112 / ISO 643): the segmentation of each version (grain/lines.ts: grey lines; grainColour.ts:
// colour and tone; colonies.ts + grain/lamellar.ts: lamellar structures; ../learned/: the trained network of
// 20261201), then the shared measuring: Jeffries planimetric count, E112 intercept (grain/report.ts), distributions,
// overlay and segmentation file.
import { components } from '../cvops.js';
import { astmGFromIntercept, astmGFromNA, jeffriesCount } from '../measure/astm.js';
import { colourStats, isColourEtched, segmentColourGrains } from './grainColour.js';
import { joinColonies, segmentColonies, type Colonies } from './colonies.js';
import { AnalysisError } from '../errors.js';
import { addSegmentationFile, calibrationRows, type Context, fmt, fmtIn, hex, histogram, mean, row, table, tr } from './common.js';
import { type GrainSegmentation, fromLabels, BORDER_MARGIN, onePiecePerGrain, fillMergedLines, fillToEdge, grainInteriors } from './grain/labels.js';
import { segmentGrains, segmentGrainsAtOwnScale } from './grain/lines.js';
import { lamellarItem, LAMELLAR_FRACTION, lamellarity } from './grain/lamellar.js';
import { TONE_NETWORK, greyToRgb, toneItem, interceptOf, MIN_GRAINS, e112Items, weightedP } from './grain/report.js';
import { segmentGrainsLearned } from '../learned/grains.js';
import { learnedChecks } from './grainLearned.js';
import { grainOverlays } from './grain/overlay.js';

// The grain modules, for the tests and callers that import them from here
export { dynamicSeeds } from './seeds.js';
export { BORDER_MARGIN, fillMergedLines, fillToEdge, keepLargestPieces, type GrainSegmentation } from './grain/labels.js';
export {
  boundaryWidth,
  dropSlivers,
  GREY_TARGET_RUN_PX,
  kernelFor,
  lineNetwork,
  mergeUnmarkedSplits,
  segmentGrains,
  segmentGrainsAtOwnScale,
  type GrainScale,
} from './grain/lines.js';
export { LAMELLAR_FRACTION, lamellarity, type Lamellarity } from './grain/lamellar.js';
export { MIN_GRAINS, TONE_NETWORK } from './grain/report.js';

export async function runGrainSize(ctx: Context): Promise<void> {
  const { img, valid, lang, pixelSizeUm: px, settings } = ctx;
  const { width: w, height: h } = img;
  let seg: GrainSegmentation;
  let colour = false;
  // 20261126: lamellar structures are recognised (and warned of); 20261127 measures their colonies (colonies.ts)
  const lamellar = ctx.version >= '20261126' && !ctx.mask ? await lamellarity(img, valid, ctx.version) : null;
  const isLamellar = !!lamellar && lamellar.coherentFraction > LAMELLAR_FRACTION;
  let colonies: Colonies | null = null;
  if (ctx.mask) {
    const inside = new Uint8Array(w * h);
    for (let i = 0; i < inside.length; i++) inside[i] = valid[i] && ctx.mask[i] ? 1 : 0;
    const cc = components(inside, w, h, 4);
    seg = fromLabels(cc.labels, cc.count);
  } else if (lamellar && isLamellar && ctx.version >= '20261127') {
    // the colonies first; the grains of the area without lamellae (proeutectoid ferrite) are segmented on their own,
    // so that their scale is theirs and not the lamellae's
    const col = segmentColonies(img, valid, lamellar.windowPx);
    const rest = new Uint8Array(w * h);
    let nRest = 0;
    for (let i = 0; i < rest.length; i++) nRest += rest[i] = valid[i] && !col.labels[i] ? 1 : 0;
    const grains = nRest >= MIN_REST * ctx.validCount ? await segmentGrains(img, rest, ctx.version) : null;
    colonies = joinColonies(col, grains, valid, w, h);
    seg = fromLabels(colonies.labels, colonies.count);
    ctx.measurements.segmentation = 'colonies';
    ctx.measurements.lamellarShare = colonies.lamellarShare;
    ctx.measurements.lamellarSpacingUm = lamellar.spacingPx * px;
  } else {
    const rgb = ctx.version >= '20261123' ? await ctx.colour() : null;
    const stats = rgb && ctx.version < '20261201' ? colourStats(rgb, valid) : null;
    if (ctx.version >= '20261201') {
      // 20261201: boundaries from the trained network, one path for grey and colour (learned/grains.ts)
      const g = await segmentGrainsLearned(rgb ?? greyToRgb(img), w, h, valid, {
        countTwins: settings.grain?.countTwins,
        network: ctx.network,
        version: ctx.version,
      });
      learnedChecks(ctx, g);
      seg = fromLabels(g.labels, g.count);
      ctx.measurements.segmentation = 'learned';
    } else if (rgb && stats && isColourEtched(stats)) {
      const c = await segmentColourGrains(rgb, img, valid, ctx.version);
      seg = fromLabels(c.labels, c.count);
      ctx.measurements.segmentation = 'colour';
      colour = true;
    } else if (ctx.version >= '20261127') {
      // 20261127: grains that differ by tone only (no boundary lines: the thin-line response is specks, not a
      // network) are segmented by merging on their tone, as tint-etched grains on their colour
      const own = await segmentGrainsAtOwnScale(img, valid, ctx.version);
      if (own.scale.network < TONE_NETWORK) {
        const tone = rgb ?? greyToRgb(img);
        const c = await segmentColourGrains(tone, img, valid, ctx.version);
        seg = fromLabels(c.labels, c.count);
        ctx.measurements.segmentation = 'tone';
        colour = true;
        toneItem(ctx, own.scale.network);
      } else seg = own.seg;
    } else seg = await segmentGrains(img, valid, ctx.version);
    // (20261125: grey grains are one piece each, see segmentGrainsAtOwnScale; the colour path's merged grains keep the
    // watershed lines between their regions, which the file leaves out: see fillMergedLines)
  }
  // A grain within BORDER_MARGIN px of the field's edge (or of the excluded strip) is cut by it and counts ½. The
  // model's own labels never reach the edge (the watershed keeps its outer ring), hence the margin; 20261125 applies
  // the same margin to a mask, so re-running with the model's own segmentation.png gives the model's own count
  // (before: margin 0 for masks, and the unchanged mask read ~15 % more grains).
  const margin = ctx.mask && ctx.version < '20261125' ? 0 : BORDER_MARGIN;
  const J = jeffriesCount(seg.labels, w, h, valid, seg.count, margin);
  const areaMm2 = ctx.validCount * px * px * 1e-6;
  const nA = J.jeffries / areaMm2;
  const meanArea = 1e6 / nA;
  const spacing = Math.max(4, Math.round(Math.min(w, h) / 150));
  const I = interceptOf(seg.labels, w, h, valid, spacing, ctx.version);
  // the model's own segmentation with too few grains is refused; a user's mask is measured as drawn (E112's warning says why it is weak)
  // 20261126: a lamellar structure with a finite G is not refused for few grains: the warning below says what its G
  // is and what to do
  const measurable = J.jeffries > 0 && I.intersections > 0;
  if (ctx.version >= '20261123' && !ctx.mask && J.jeffries < MIN_GRAINS && !(isLamellar && measurable))
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
        I.marks === undefined
          ? tr(lang, {
              en: `${I.intersections} intersections on horizontal and vertical test lines`,
              de: `${fmtIn('de', I.intersections, 1)} Schnittpunkte auf horizontalen und vertikalen Messlinien`,
            })
          : tr(lang, {
              en: `${weightedP('en', I.intersections, I.marks)} on horizontal and vertical test lines (a triple point counts 1½, a line end ½)`,
              de: `${weightedP('de', I.intersections, I.marks)} auf horizontalen und vertikalen Messlinien (ein Tripelpunkt zählt 1½, ein Linienende ½)`,
            }),
        4,
      ),
      ...calibrationRows(ctx),
    ]),
  );
  if (ctx.version >= '20261123')
    e112Items(ctx, { grains: J.jeffries, intersections: I.intersections, marks: I.marks, lengthPx: I.lengthPx, spacing, gP, gI });
  if (lamellar && isLamellar) lamellarItem(ctx, lamellar, colonies);
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
        // without a calibration no area or G is given (the area ratio needs none)
        content:
          ctx.calibrationSource === 'none'
            ? tr(lang, {
                en: `The largest grain is ${fmt(largest / med, 0)}× the median grain area; report it per ASTM E930 in addition to the mean G.`,
                de: `Das größte Korn ist ${fmt(largest / med, 0)}× so groß wie der Median der Kornflächen; nach ASTM E930 zusätzlich zum mittleren G angeben.`,
              })
            : tr(lang, {
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
  // overlays (grain/overlay.ts): 1-px boundaries on the image's colours, border grains and ignored areas apart, the
  // E112 test lines with their counted intersections
  const L = seg.labels;
  // the overlays are drawn; their PNGs encode off the main thread while the mask file's grains are worked out
  const overlays = await grainOverlays(ctx, L, J.kind, ctx.version >= '20261123' ? spacing : null, I.counted);
  // grain interiors; a pixel touching another grain is boundary, so that grains stay apart as mask components
  // 20261125: grains run up to the field's edge in the file (the watershed's outer ring of label 0 is filled from the
  // first grain pixel inward, up to BORDER_MARGIN px), so the mask shows border grains as cut by the edge
  const F = ctx.version >= '20261125' ? fillToEdge(colour ? fillMergedLines(L, w, h, valid) : L, w, h, valid) : L;
  const interior = grainInteriors(F, w);
  const inFile = (i: number) => interior[i] === 1;
  const keep = ctx.version >= '20261125' && !ctx.mask ? onePiecePerGrain(F, w, h, seg.count, inFile) : null;
  await overlays.encoded;
  await addSegmentationFile(ctx, keep ? (i) => keep[i] === 1 : inFile);
}

/** 20261127: the area without lamellae is segmented for grains when it is at least this share of the field. */
const MIN_REST = 0.02;
