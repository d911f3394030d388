// Recipes in a model run (issue 22): the recipe's classifier segments the analysed area, and the model measures
// the class the recipe names for it (the layer, the phases, the cracks or the region cracks are looked for in).
// The result names the recipe and its version, gives every class's area fraction with E562 field statistics,
// and an overlay of the classes.
import { components, morph } from '../cvops.js';
import { skeletonize, skeletonLength } from '../measure/skeleton.js';
import { encodePng, type Gray } from '../image.js';
import { AnalysisError } from '../errors.js';
import { fmtIn, tr } from '../models/common.js';
import type { Lang } from '../types.js';
import { applyClassifier, checkClassifier, ClassifierError, type PixelClassifier } from './pixelClassifier.js';
import { recipeMeasures, type RecipeMeasures } from './measures.js';
import { RECIPE_EDGE, settleLayerPixels } from './recipeEdge.js';

export type { RecipeMeasures };

export interface RecipeClass {
  name: string;
  /** #rrggbb */
  colour: string;
}

export interface RecipeRun {
  id: string;
  name: string;
  version: number;
  classes: RecipeClass[];
  measures: RecipeMeasures;
  classifier: PixelClassifier;
}

export interface RecipeContext {
  run: RecipeRun;
  /** Class of every analysed pixel. */
  labels: Uint8Array;
  /** The classifier's vote for each pixel's class, 0..255 (absent for labels not from a classifier). */
  confidence?: Uint8Array;
}

/** The minimal Context this module reads and writes (models/common.ts Context has it all). */
interface Ctx {
  lang: Lang;
  /** The model version (Context.version). */
  version?: string;
  img: Gray;
  valid: Uint8Array;
  validCount: number;
  mask?: Uint16Array;
  recipe?: RecipeContext;
  items: Array<unknown>;
  files: Array<{ filename: string; data: Buffer }>;
  measurements: Record<string, number | string | boolean | null>;
}

/**
 * Segments ctx.img with the recipe and sets what the model measures: ctx.mask (the measured class) and, for
 * cracks inside a region, ctx.valid limited to that region.
 */
export async function applyRecipe(ctx: Ctx, model: string, run: RecipeRun): Promise<void> {
  try {
    checkClassifier(run.classifier);
  } catch (e) {
    throw new AnalysisError('INVALID_SETTINGS', (e as Error).message);
  }
  const K = run.classes.length;
  const inRange = (c: unknown) => Number.isInteger(c) && (c as number) >= 0 && (c as number) < K;
  const m = run.measures ?? {};
  if (!recipeMeasures(model, m) || ![m.layer, m.crack, m.crackRegion, ...(m.phase ?? [])].every((c) => c === null || c === undefined || inRange(c)))
    throw new AnalysisError('INVALID_SETTINGS', `The recipe "${run.name}" names no class for the model ${model}`);
  let seg;
  try {
    seg = applyClassifier(run.classifier, ctx.img, ctx.valid);
  } catch (e) {
    if (e instanceof ClassifierError) throw new AnalysisError('INVALID_SETTINGS', e.message);
    throw e;
  }
  await useRecipeLabels(ctx, model, run, seg.labels, seg.confidence);
  if (seg.outOfRange !== undefined && ctx.version !== undefined && ctx.version >= RECIPE_UNLIKE.from && seg.outOfRange > RECIPE_UNLIKE.share)
    unlikeWarning(ctx, run, seg.outOfRange);
}

/**
 * When an image is unlike the images a recipe's strokes were drawn on (from 20261204): the share of its analysed
 * area whose smoothed grey, at the recipe's scales, none of the strokes showed (Segmentation.outOfRange), above which
 * the result warns. On the cross-validation of ../shared/training (bench/recipes/cv.ts, 19 images) it is at most
 * 2.5 % with strokes from the image itself or from other images of the material; a γ′ image whose precipitates show
 * no contrast of their own read 27 % (and −36.5 points), an image at 3× the others' magnification 4.5 % (+1.4 points,
 * no warning). A synthetic image of another kind (pixel noise) reads 17 %.
 */
export const RECIPE_UNLIKE = { from: '20261204', share: 0.1 };

function unlikeWarning(ctx: Ctx, run: RecipeRun, share: number): void {
  const pct = fmtIn(ctx.lang, 100 * share, 1);
  ctx.items.push({
    type: 'message',
    status: 'warning',
    code: 'RECIPE_IMAGE_UNLIKE',
    title: tr(ctx.lang, { en: 'This image is unlike the recipe’s strokes', de: 'Dieses Bild ähnelt den Strichen des Rezepts nicht' }),
    content: tr(ctx.lang, {
      en: `${pct} % of the analysed area has grey levels that none of the strokes of the recipe "${run.name}" showed, so its classes may be wrong here. Check the classes overlay; if it is wrong, add strokes on this image to the recipe.`,
      de: `${pct} % des ausgewerteten Bereichs haben Grauwerte, die keiner der Striche des Rezepts „${run.name}“ zeigte; seine Klassen können hier daher falsch sein. Prüfen Sie die Klassen-Überlagerung; stimmt sie nicht, ergänzen Sie das Rezept um Striche auf diesem Bild.`,
    }),
  });
}

/**
 * What a recipe's segmentation sets for the model (applyRecipe after the classifier): ctx.mask, ctx.valid, the
 * recipe's message, every class's area fraction and the class overlay. Exported so that a benchmark can hand it
 * hand-drawn labels and measure them with the same code (bench/recipes/cv.ts). `confidence`: the classifier's vote
 * for each pixel's class (Segmentation.confidence); without it every pixel counts as decided.
 */
export async function useRecipeLabels(ctx: Ctx, model: string, run: RecipeRun, labels: Uint8Array, confidence?: Uint8Array): Promise<void> {
  const { lang } = ctx;
  const K = run.classes.length;
  const inRange = (c: unknown) => Number.isInteger(c) && (c as number) >= 0 && (c as number) < K;
  const m = run.measures ?? {};
  const { width: w, height: h } = ctx.img;
  ctx.recipe = { run, labels, ...(confidence ? { confidence } : {}) };
  const n = w * h;
  const classMask = (classes: number[]) => {
    const out = new Uint8Array(n);
    const want = new Uint8Array(256);
    for (const c of classes) want[c] = 1;
    for (let i = 0; i < n; i++) out[i] = ctx.valid[i] && want[labels[i]] ? 1 : 0;
    return out;
  };
  let measured: Uint8Array | null = null;
  if (model === 'layer-thickness') {
    // from RECIPE_EDGE.from (layer-thickness version): undecided layer pixels outside the confident layer's grey
    // range are not the layer (recipeEdge.ts: pores resting on the layer, halos the forest's large-σ features spread)
    const layer =
      confidence && RECIPE_EDGE.from !== null && ctx.version !== undefined && ctx.version >= RECIPE_EDGE.from
        ? settleLayerPixels(ctx.img, labels, confidence, m.layer!, ctx.valid)
        : classMask([m.layer!]);
    // specks of the class elsewhere and small holes inside the band do not move its edges
    measured = morph(morph(layer, w, h, 'open', 3), w, h, 'close', 5);
  } else if (model === 'porosity') measured = classMask(m.phase!);
  else if (model === 'cracks') {
    if (Number.isInteger(m.crackRegion)) {
      // the region, closed over the cracks it holds (they are another class)
      const region = morph(classMask([m.crackRegion!, ...(Number.isInteger(m.crack) ? [m.crack!] : [])]), w, h, 'close', 7);
      let count = 0;
      for (let i = 0; i < n; i++) {
        if (!region[i]) ctx.valid[i] = 0;
        count += ctx.valid[i];
      }
      if (count < 100)
        throw new AnalysisError(
          'NO_LAYER_FOUND',
          tr(lang, {
            en: `The recipe found almost no "${run.classes[m.crackRegion!].name}" in this image, so there is nothing to look for cracks in.`,
            de: `Das Rezept hat in diesem Bild fast kein „${run.classes[m.crackRegion!].name}“ gefunden; es gibt daher nichts, worin Risse gesucht werden könnten.`,
          }),
        );
      ctx.validCount = count;
    }
    if (Number.isInteger(m.crack)) {
      measured = classMask([m.crack!]);
      // classifiers with post-processing (recipes trained since it): the crack class is read as the model reads its
      // own crack segmentation: 1–2 px interruptions bridged, fragments shorter than 1 % of the image (12 px at
      // least) and compact dark spots are not cracks (crackFragments)
      if (run.classifier.kind === 'forest' && run.classifier.post) measured = crackFragments(measured, ctx.valid, w, h);
    }
  }
  if (measured) ctx.mask = Uint16Array.from(measured);
  const measuredClasses = model === 'layer-thickness' ? [m.layer] : model === 'porosity' ? (m.phase ?? []) : [m.crack ?? m.crackRegion];
  const measuredNames = measuredClasses.filter((c) => inRange(c)).map((c) => run.classes[c as number].name);
  Object.assign(ctx.measurements, { recipeId: run.id, recipeName: run.name, recipeVersion: run.version });
  ctx.items.push({
    type: 'message',
    status: 'info',
    code: 'RECIPE',
    title: tr(lang, { en: `Recipe "${run.name}", version ${run.version}`, de: `Rezept „${run.name}“, Version ${run.version}` }),
    content: tr(lang, {
      en: `Segmented by the recipe's trained classifier; measured: ${measuredNames.join(', ')}.`,
      de: `Vom trainierten Klassifikator des Rezepts segmentiert; gemessen: ${measuredNames.join(', ')}.`,
    }),
  });
  // every class's area fraction, with E562-style statistics over a 5 × 5 grid of fields
  const stats = fieldStatistics(labels, ctx.valid, w, h, K, 5);
  for (let c = 0; c < K; c++) ctx.measurements[`recipeClass${c + 1}AreaPercent`] = stats[c].percent;
  ctx.items.push({
    type: 'data-table',
    rows: run.classes.map((cl, c) => ({
      label: tr(lang, { en: `Area fraction: ${cl.name}`, de: `Flächenanteil: ${cl.name}` }),
      labelTooltip: tr(lang, {
        en: `Mean of ${stats[c].fields} fields ± 95 % confidence interval ${stats[c].ci95.toFixed(2)} %, relative accuracy ${stats[c].relativeAccuracy.toFixed(1)} % (ASTM E562)`,
        de: `Mittel aus ${stats[c].fields} Feldern ± 95-%-Vertrauensbereich ${stats[c].ci95.toFixed(2)} %, relative Genauigkeit ${stats[c].relativeAccuracy.toFixed(1)} % (ASTM E562)`,
      }),
      value: Number(stats[c].percent.toFixed(2)),
      unit: '%',
    })),
  });
  const rgb = new Uint8Array(n * 3);
  const colours = run.classes.map((c) => {
    const v = /^#?([0-9a-f]{6})$/i.exec(c.colour)?.[1] ?? '808080';
    return [parseInt(v.slice(0, 2), 16), parseInt(v.slice(2, 4), 16), parseInt(v.slice(4, 6), 16)];
  });
  for (let i = 0; i < n; i++) {
    const g = ctx.img.data[i];
    const col = colours[labels[i]] ?? [g, g, g];
    const a = ctx.valid[i] ? 0.45 : 0;
    for (let k = 0; k < 3; k++) rgb[i * 3 + k] = Math.round(g * (1 - a) + col[k] * a);
  }
  const filename = 'recipe-classes.png';
  ctx.files.push({ filename, data: await encodePng(rgb, w, h) });
  ctx.items.push({ type: 'image', filename });
}

/**
 * The crack mask closed by 3 px (inside the valid area) without the components that are not cracks: an extent
 * under 1 % of the image (12 px at least), or compact, not long and thin (centre-line length² < 6 × area, the
 * cracks model's own test of a crack-like feature): a dark pore the classifier took for the crack class.
 */
export function crackFragments(mask: Uint8Array, valid: Uint8Array, w: number, h: number): Uint8Array {
  const closed = morph(mask, w, h, 'close', 3);
  for (let i = 0; i < closed.length; i++) if (!valid[i]) closed[i] = 0;
  const cc = components(closed, w, h, 8);
  const minExtent = Math.max(12, Math.round(Math.min(w, h) * 0.01));
  const skel = skeletonize(closed, w, h);
  const { perPixel } = skeletonLength(skel, w, h);
  const len = new Float64Array(cc.count + 1);
  for (let i = 0; i < skel.length; i++) if (skel[i]) len[cc.labels[i]] += perPixel[i];
  const keep = new Uint8Array(cc.count + 1);
  for (let l = 1; l <= cc.count; l++)
    keep[l] = Math.hypot(cc.bbox[l * 4 + 2], cc.bbox[l * 4 + 3]) >= minExtent && len[l] * len[l] >= 6 * cc.area[l] ? 1 : 0;
  const out = new Uint8Array(w * h);
  for (let i = 0; i < out.length; i++) out[i] = keep[cc.labels[i]];
  return out;
}

export interface FieldStats {
  percent: number;
  fields: number;
  std: number;
  ci95: number;
  relativeAccuracy: number;
}

/** ASTM E562-style statistics of each class's area fraction over a g × g grid of fields (valid pixels only). */
export function fieldStatistics(labels: Uint8Array, valid: Uint8Array, w: number, h: number, K: number, g: number): FieldStats[] {
  const per: number[][] = Array.from({ length: K }, () => []);
  const total = new Float64Array(K);
  let all = 0;
  for (let fy = 0; fy < g; fy++)
    for (let fx = 0; fx < g; fx++) {
      const counts = new Float64Array(K);
      let n = 0;
      for (let y = Math.floor((fy * h) / g); y < Math.floor(((fy + 1) * h) / g); y++)
        for (let x = Math.floor((fx * w) / g); x < Math.floor(((fx + 1) * w) / g); x++) {
          const i = y * w + x;
          if (!valid[i]) continue;
          counts[labels[i]]++;
          n++;
        }
      if (n < 16) continue;
      for (let c = 0; c < K; c++) {
        per[c].push((100 * counts[c]) / n);
        total[c] += counts[c];
      }
      all += n;
    }
  // Student t (two-sided 95 %) for the usual field counts
  const t95 = (df: number) => (df >= 30 ? 2.042 : ([12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228][df - 1] ?? 2.1));
  return per.map((v, c) => {
    const k = v.length;
    const mean = k ? v.reduce((a, b) => a + b, 0) / k : 0;
    const std = k > 1 ? Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / (k - 1)) : 0;
    const ci95 = k > 1 ? (t95(k - 1) * std) / Math.sqrt(k) : 0;
    return { percent: all ? (100 * total[c]) / all : 0, fields: k, std, ci95, relativeAccuracy: mean > 0 ? (100 * ci95) / mean : 0 };
  });
}
