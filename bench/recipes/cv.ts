// bench:recipes-cv (issue 22 item 5): recipes cross-validated by image on the hand-annotated real micrographs of
// ../shared/training (EBC coating cross-sections: oxide layer and cracks; Ni superalloys: γ′). For each held-out
// image a recipe is trained as a user would, from about 20 strokes per class: short polylines placed inside the
// hand-labelled regions (seeded) of the OTHER images of the set; it is applied to the held-out image through the
// product's model run (runModel with the recipe) and measured by the product's models: the oxide's mean thickness
// (px, perpendicular to the interface), the cracks inside the oxide, the γ′ area fraction (classes 1 + 2). Truth:
// the same models measuring the hand labels (useRecipeLabels, then the model). The "own strokes" case trains on
// strokes from the held-out image's own labels (the user marks the image they measure) and is reported apart.
// Targets: thickness within 3 %, crack count within ±15 %, γ′ within 2 points. Writes training/cv-recipes.json.
//
// CV_SETS=ebc,superalloy selects sets, CV_ONLY=name (substring) one held-out image, CV_OWN=0 skips the own case,
// CV_OUT=path writes the table elsewhere (- not at all), CV_DUMP=folder writes each held-out image's hand labels
// beside the recipe's classes. CV_RECIPE_EDGE=1 measures the recipes with the undecided layer pixels settled by
// their grey (classifier/recipeEdge.ts, not shipped in any version: RECIPE_EDGE.from is set to this bench's version
// for the run; the hand labels carry no votes and read as before). CV_VERSION=... measures with another model version
// (default: the current one; a recipe's crack class is read with crackShape.ts from 20261204).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeImage, decodeMask, encodePng, type Gray } from '../../packages/analysis/src/image.ts';
import { rng } from '../../packages/analysis/src/random.ts';
import {
  applyClassifier,
  givenLabelsClassifier,
  trainClassifier,
  trainClassifierImages,
  type Stroke,
} from '../../packages/analysis/src/classifier/pixelClassifier.ts';
import { useRecipeLabels, type RecipeRun } from '../../packages/analysis/src/classifier/recipe.ts';
import type { RecipeMeasures } from '../../packages/analysis/src/classifier/measures.ts';
import { getModel, runModel, type ModelName } from '../../packages/analysis/src/registry.ts';
import { prepare, type Context } from '../../packages/analysis/src/models/common.ts';
import { runLayer } from '../../packages/analysis/src/models/layer.ts';
import { runCracks } from '../../packages/analysis/src/models/cracks.ts';
import { runPorosity } from '../../packages/analysis/src/models/porosity.ts';
import type { ModelVersion } from '../../packages/analysis/src/types.ts';
import { RECIPE_EDGE } from '../../packages/analysis/src/classifier/recipeEdge.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const dataDir = join(root, '../shared/training');
const VERSION = (process.env.CV_VERSION ?? getModel('cracks').currentVersion) as ModelVersion;
if (process.env.CV_RECIPE_EDGE === '1') RECIPE_EDGE.from = VERSION;
const STROKES_PER_CLASS = 20;
/** CV_STROKES=corrective: of the 20 strokes per class, this many are placed where the first classifier was wrong. */
const CORRECTIVE = 8;

interface Measure {
  key: string;
  model: ModelName;
  measures: RecipeMeasures;
  /** The measurement read from the model's result. */
  field: string;
  /** 'relative' (%) or 'points' (absolute difference). */
  error: 'relative' | 'points';
  target: number;
}
interface DataSet {
  name: string;
  classes: string[];
  measures: Measure[];
}

const SETS: DataSet[] = [
  {
    name: 'ebc',
    classes: ['background', 'oxide', 'crack'],
    measures: [
      { key: 'thicknessPx', model: 'layer-thickness', measures: { layer: 1 }, field: 'meanThicknessUm', error: 'relative', target: 3 },
      { key: 'crackCount', model: 'cracks', measures: { crack: 2, crackRegion: 1 }, field: 'crackCount', error: 'relative', target: 15 },
    ],
  },
  {
    name: 'superalloy',
    classes: ['matrix', 'secondary γ′', 'tertiary γ′'],
    measures: [
      { key: 'gammaPrimePercent', model: 'porosity', measures: { phase: [1, 2] }, field: 'areaFractionPercent', error: 'points', target: 2 },
    ],
  },
];
const COLOURS = ['#4060ff', '#30c030', '#ff3030', '#ffd000'];

interface Item {
  name: string;
  bytes: Buffer;
  img: Gray;
  labels: Uint8Array;
}

async function load(set: DataSet): Promise<Item[]> {
  const dir = join(dataDir, set.name);
  const names = readdirSync(dir)
    .filter((f) => f.endsWith('.labels.png'))
    .map((f) => f.slice(0, -'.labels.png'.length))
    .sort();
  const out: Item[] = [];
  for (const name of names) {
    const bytes = readFileSync(join(dir, `${name}.png`));
    const img = await decodeImage(bytes);
    const labels = Uint8Array.from(await decodeMask(readFileSync(join(dir, `${name}.labels.png`)), img.width, img.height));
    out.push({ name, bytes, img: { width: img.width, height: img.height, data: img.data }, labels });
  }
  return out;
}

/** Chamfer (3-4) distance of every pixel of the class to the nearest pixel outside it, in pixels. */
function insideDistance(labels: Uint8Array, cls: number, w: number, h: number): Float32Array {
  const d = new Float32Array(w * h);
  const BIG = 1e9;
  for (let i = 0; i < d.length; i++) d[i] = labels[i] === cls ? BIG : 0;
  const at = (x: number, y: number) => (x < 0 || y < 0 || x >= w || y >= h ? 0 : d[y * w + x]);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!d[i]) continue;
      d[i] = Math.min(d[i], at(x - 1, y) + 3, at(x, y - 1) + 3, at(x - 1, y - 1) + 4, at(x + 1, y - 1) + 4);
    }
  for (let y = h - 1; y >= 0; y--)
    for (let x = w - 1; x >= 0; x--) {
      const i = y * w + x;
      if (!d[i]) continue;
      d[i] = Math.min(d[i], at(x + 1, y) + 3, at(x, y + 1) + 3, at(x + 1, y + 1) + 4, at(x - 1, y + 1) + 4);
    }
  for (let i = 0; i < d.length; i++) d[i] /= 3;
  return d;
}

/**
 * `count` strokes of class `cls` on an image, as a user paints them: short polylines (about 4 % of the image's
 * side, 4 segments that turn a little) whose brush stays inside the labelled region. The brush is as wide as the
 * class's typical inner half-width allows (2–8 px): a thin crack gets a fine brush, a layer a broad one.
 */
function simulateStrokes(labels: Uint8Array, w: number, h: number, cls: number, count: number, seed: number): Stroke[] {
  const d = insideDistance(labels, cls, w, h);
  const inner: number[] = [];
  for (let i = 0; i < d.length; i++) if (d[i] > 0) inner.push(d[i]);
  if (!inner.length || count <= 0) return [];
  inner.sort((a, b) => a - b);
  const q90 = inner[Math.floor(0.9 * (inner.length - 1))];
  const width = Math.max(2, Math.min(8, Math.round(q90)));
  const need = width / 2 + 0.5;
  const ok = (x: number, y: number) => {
    const xi = Math.round(x),
      yi = Math.round(y);
    return xi >= 0 && yi >= 0 && xi < w && yi < h && d[yi * w + xi] >= need;
  };
  const starts: number[] = [];
  for (let i = 0; i < d.length; i++) if (d[i] >= need) starts.push(i);
  // too thin for the brush everywhere: the deepest pixels, with a 2 px brush
  const fallback = !starts.length;
  if (fallback) for (let i = 0; i < d.length; i++) if (d[i] >= inner[inner.length - 1] - 0.01) starts.push(i);
  const rand = rng(seed);
  const seg = Math.max(3, Math.round((0.04 * Math.max(w, h)) / 4));
  const out: Stroke[] = [];
  for (let k = 0; k < count; k++) {
    const s = starts[Math.floor(rand() * starts.length)];
    const pts: Array<[number, number]> = [[s % w, Math.floor(s / w)]];
    let dir = rand() * 2 * Math.PI;
    for (let step = 0; step < 4 && !fallback; step++) {
      const [px, py] = pts[pts.length - 1];
      let moved = false;
      for (let t = 0; t < 16 && !moved; t++) {
        // small turns first, then wider ones, then back along the line
        const a = dir + (rand() - 0.5) * (0.5 + t * 0.4);
        const nx = px + Math.cos(a) * seg,
          ny = py + Math.sin(a) * seg;
        let inside = true;
        for (let u = 1; u <= seg && inside; u++) inside = ok(px + ((nx - px) * u) / seg, py + ((ny - py) * u) / seg);
        if (inside) {
          pts.push([Math.round(nx), Math.round(ny)]);
          dir = a;
          moved = true;
        }
      }
      if (!moved) break;
    }
    out.push({ classIndex: cls, width: fallback ? 2 : width, points: pts });
  }
  return out;
}

/** Where a classifier's labels are wrong: the true class there, 255 elsewhere. */
function wrongRegions(it: Item, predicted: Uint8Array): Uint8Array {
  const out = new Uint8Array(predicted.length);
  for (let i = 0; i < out.length; i++) out[i] = predicted[i] === it.labels[i] ? 255 : it.labels[i];
  return out;
}

/** Strokes of class c inside the regions where c was taken for another class (random ones where there are none). */
function correctiveStrokes(it: Item, wrong: Uint8Array, c: number, count: number, seed: number): Stroke[] {
  const { width: w, height: h } = it.img;
  const got = simulateStrokes(wrong, w, h, c, count, seed);
  return got.length ? got : simulateStrokes(it.labels, w, h, c, count, seed);
}

/** CV_DUMP=folder: the image with the hand labels (left) and the recipe's classes (right), for a look. */
async function dumpLabels(it: Item, predicted: Uint8Array, file: string): Promise<void> {
  const { width: w, height: h } = it.img;
  const rgb = new Uint8Array(2 * w * h * 3);
  const col = COLOURS.map((c) => [1, 3, 5].map((k) => parseInt(c.slice(k, k + 2), 16)));
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x,
        g = it.img.data[i];
      for (const [off, lab] of [
        [0, it.labels[i]],
        [w, predicted[i]],
      ] as const) {
        const o = (y * 2 * w + x + off) * 3;
        for (let k = 0; k < 3; k++) rgb[o + k] = Math.round(g * 0.6 + col[lab][k] * 0.4);
      }
    }
  writeFileSync(file, await encodePng(rgb, 2 * w, h));
}

function hashName(s: string): number {
  let x = 2166136261;
  for (let i = 0; i < s.length; i++) x = Math.imul(x ^ s.charCodeAt(i), 16777619);
  return x >>> 0;
}

function recipeRun(set: DataSet, m: Measure, classifier: RecipeRun['classifier']): RecipeRun {
  return {
    id: 'cv',
    name: `cv ${set.name}`,
    version: 1,
    classes: set.classes.map((name, i) => ({ name, colour: COLOURS[i] })),
    measures: m.measures,
    classifier,
  };
}

const IMPL = { 'layer-thickness': runLayer, cracks: runCracks, porosity: runPorosity } as Record<string, (ctx: Context) => Promise<void>>;

/** The model's measurement of the hand labels: the product's code after the classifier (truth). */
async function measureLabels(set: DataSet, m: Measure, it: Item): Promise<number | string> {
  const model = getModel(m.model);
  const ctx = await prepare(it.bytes, model.defaultSettings, { pixelSizeUm: 1 }, VERSION);
  const { width: w, height: h } = ctx.img;
  const labels = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    labels.set(it.labels.subarray((ctx.origin.y + y) * it.img.width + ctx.origin.x, (ctx.origin.y + y) * it.img.width + ctx.origin.x + w), y * w);
  // the labels stand for a classifier of this engine's current kind (post-processing and all): the measuring code
  // reads them as it reads a new recipe's classes
  const run = recipeRun(set, m, givenLabelsClassifier(set.classes.length));
  try {
    await useRecipeLabels(ctx, m.model, run, labels);
    await IMPL[m.model](ctx);
  } catch (e) {
    return `error ${(e as { code?: string }).code ?? (e as Error).message}`;
  }
  return ctx.measurements[m.field] as number;
}

/** The model's measurement of the image segmented by the recipe: runModel as a job runs it. */
async function measureRecipe(
  set: DataSet,
  m: Measure,
  it: Item,
  classifier: RecipeRun['classifier'],
): Promise<{ value: number | string; unlike: boolean }> {
  try {
    const r = await runModel(m.model, VERSION, it.bytes, {}, { recipe: recipeRun(set, m, classifier), pixelSizeUm: 1 });
    // the result warns that the image is unlike the recipe's strokes (RECIPE_UNLIKE): the value is marked "unlike"
    const unlike = r.items.some((i) => i.type === 'message' && i.code === 'RECIPE_IMAGE_UNLIKE');
    return { value: r.measurements[m.field] as number, unlike };
  } catch (e) {
    return { value: `error ${(e as { code?: string }).code ?? (e as Error).message}`, unlike: false };
  }
}

const errorOf = (m: Measure, got: number | string, truth: number | string): number | null => {
  if (typeof got !== 'number' || typeof truth !== 'number') return null;
  return m.error === 'points' ? got - truth : truth === 0 ? (got === 0 ? 0 : Infinity) : (100 * (got - truth)) / truth;
};

interface Row {
  image: string;
  truth: Record<string, number | string>;
  other: Record<string, number | string>;
  own: Record<string, number | string>;
  otherError: Record<string, number | null>;
  ownError: Record<string, number | null>;
  /** The measures whose result warned that the image is unlike the recipe's strokes, per case. */
  unlike: { other: string[]; own: string[] };
  trainMs: number;
}

async function main() {
  const want = (process.env.CV_SETS ?? 'ebc,superalloy').split(',');
  const only = process.env.CV_ONLY ?? '';
  const own = process.env.CV_OWN !== '0';
  const corrective = process.env.CV_STROKES === 'corrective';
  const report: Record<string, unknown> = {
    what: 'Recipes cross-validated by image on ../shared/training (bench/recipes/cv.ts): strokes simulated from the hand labels, 20 per class',
    strokes: corrective ? `${STROKES_PER_CLASS - CORRECTIVE} random + ${CORRECTIVE} corrective per class` : `${STROKES_PER_CLASS} random per class`,
    version: VERSION,
    sets: {},
  };
  for (const set of SETS.filter((s) => want.includes(s.name))) {
    const items = await load(set);
    const K = set.classes.length;
    // every image's strokes, 20 per class, seeded by its name: the "own" case uses them on their image, the
    // cross-validation takes strokes j of class c from the other images in turn (about 20 per class in all)
    const strokesOf = new Map<string, Stroke[][]>();
    for (const it of items) {
      const per: Stroke[][] = [];
      for (let c = 0; c < K; c++) per.push(simulateStrokes(it.labels, it.img.width, it.img.height, c, STROKES_PER_CLASS, hashName(it.name) + c));
      strokesOf.set(it.name, per);
    }
    const rows: Row[] = [];
    console.log(`\n${set.name}: ${items.length} images, classes ${set.classes.join(' / ')}`);
    for (const held of items) {
      if (only && !held.name.includes(only)) continue;
      const others = items.filter((it) => it !== held);
      const training = others.map((it) => ({ img: it.img, strokes: [] as Stroke[] }));
      for (let c = 0; c < K; c++)
        for (let j = 0; j < STROKES_PER_CLASS - (corrective ? CORRECTIVE : 0); j++) {
          const k = (j + c) % others.length;
          const s = strokesOf.get(others[k].name)![c][Math.floor(j / others.length)];
          if (s) training[k].strokes.push(s);
        }
      const t0 = performance.now();
      let cv = trainClassifierImages(training, K, { seed: 1 });
      if (corrective) {
        // the user looks at the first classifier's result on their images and strokes where it is wrong
        const extra = others.map(() => [] as Stroke[]);
        const wrongOf = others.map((it) => wrongRegions(it, applyClassifier(cv.classifier, it.img).labels));
        for (let c = 0; c < K; c++)
          for (let j = 0; j < CORRECTIVE; j++) {
            const k = (j + c) % others.length;
            extra[k].push(...correctiveStrokes(others[k], wrongOf[k], c, 1, hashName(others[k].name) + 100 * c + j));
          }
        cv = trainClassifierImages(
          training.map((t, k) => ({ img: t.img, strokes: [...t.strokes, ...extra[k]] })),
          K,
          { seed: 1 },
        );
      }
      const trainMs = performance.now() - t0;
      if (process.env.CV_DUMP)
        await dumpLabels(held, applyClassifier(cv.classifier, held.img).labels, join(process.env.CV_DUMP, `${held.name}.other.png`));
      let ownClassifier = null;
      if (own) {
        const first = strokesOf.get(held.name)!.flatMap((per) => per.slice(0, STROKES_PER_CLASS - (corrective ? CORRECTIVE : 0)));
        const one = trainClassifier(held.img, first, K, { seed: 1 });
        ownClassifier = one.classifier;
        if (corrective) {
          const wrong = wrongRegions(held, one.segmentation.labels);
          const extra = Array.from({ length: K }, (_, c) => correctiveStrokes(held, wrong, c, CORRECTIVE, hashName(held.name) + 100 * c));
          ownClassifier = trainClassifier(held.img, [...first, ...extra.flat()], K, { seed: 1 }).classifier;
        }
      }
      const row: Row = {
        image: held.name,
        truth: {},
        other: {},
        own: {},
        otherError: {},
        ownError: {},
        unlike: { other: [], own: [] },
        trainMs: Math.round(trainMs),
      };
      for (const m of set.measures) {
        row.truth[m.key] = await measureLabels(set, m, held);
        const other = await measureRecipe(set, m, held, cv.classifier);
        row.other[m.key] = other.value;
        if (other.unlike) row.unlike.other.push(m.key);
        row.otherError[m.key] = errorOf(m, row.other[m.key], row.truth[m.key]);
        if (ownClassifier) {
          const mine = await measureRecipe(set, m, held, ownClassifier);
          row.own[m.key] = mine.value;
          if (mine.unlike) row.unlike.own.push(m.key);
          row.ownError[m.key] = errorOf(m, row.own[m.key], row.truth[m.key]);
        }
      }
      rows.push(row);
      const fmt = (v: number | string | undefined) => (typeof v === 'number' ? v.toFixed(2) : String(v ?? '–'));
      const fe = (m: Measure, e: number | null | undefined) =>
        e === null || e === undefined
          ? '–'
          : `${e >= 0 ? '+' : ''}${e.toFixed(1)}${m.error === 'points' ? ' pt' : ' %'}${Math.abs(e) <= m.target ? ' ok' : ''}`;
      console.log(
        `  ${held.name.padEnd(34)} ` +
          set.measures
            .map(
              (m) =>
                `${m.key}: truth ${fmt(row.truth[m.key])} | other ${fmt(row.other[m.key])} (${fe(m, row.otherError[m.key])})${row.unlike.other.includes(m.key) ? ' unlike' : ''} | own ${fmt(row.own[m.key])} (${fe(m, row.ownError[m.key])})${row.unlike.own.includes(m.key) ? ' unlike' : ''}`,
            )
            .join('; ') +
          ` [train ${(trainMs / 1000).toFixed(1)} s]`,
      );
    }
    const summary: Record<string, unknown> = {};
    for (const m of set.measures)
      for (const kind of ['otherError', 'ownError'] as const) {
        if (kind === 'ownError' && !own) continue;
        const errs = rows.map((r) => r[kind][m.key]).filter((e): e is number => e !== null && e !== undefined && Number.isFinite(e));
        const failed = rows.length - errs.length;
        const meanAbs = errs.length ? errs.reduce((a, e) => a + Math.abs(e), 0) / errs.length : null;
        const meanSigned = errs.length ? errs.reduce((a, e) => a + e, 0) / errs.length : null;
        const within = errs.filter((e) => Math.abs(e) <= m.target).length;
        const unlike = rows.filter((r) => r.unlike[kind === 'otherError' ? 'other' : 'own'].includes(m.key)).length;
        summary[`${m.key}.${kind === 'otherError' ? 'other' : 'own'}`] = {
          meanAbsError: meanAbs,
          meanSignedError: meanSigned,
          within: `${within}/${rows.length}`,
          target: `±${m.target}${m.error === 'points' ? ' points' : ' %'}`,
          failedRuns: failed,
          warnedUnlike: unlike,
        };
        console.log(
          `  ${m.key} (${kind === 'otherError' ? 'strokes on the other images' : 'strokes on the image itself'}): mean |error| ${meanAbs === null ? '–' : meanAbs.toFixed(2)}${m.error === 'points' ? ' points' : ' %'}, mean signed ${meanSigned === null ? '–' : meanSigned.toFixed(2)}, within target ${within}/${rows.length}${failed ? `, ${failed} failed` : ''}${unlike ? `, ${unlike} warned unlike the strokes` : ''}`,
        );
      }
    (report.sets as Record<string, unknown>)[set.name] = { classes: set.classes, rows, summary };
  }
  const out = process.env.CV_OUT ?? 'training/cv-recipes.json';
  if (!only && out !== '-') {
    // keys written by hand beside the bench's (e.g. `before`, an earlier classifier's figures) are kept
    let kept: Record<string, unknown> = {};
    try {
      kept = JSON.parse(readFileSync(resolve(root, out), 'utf8'));
    } catch {
      // no earlier table
    }
    writeFileSync(resolve(root, out), JSON.stringify({ ...kept, ...report }, null, 2) + '\n');
    console.log(`\nwritten ${out}`);
  }
}

await main();
// OpenCV's runtime keeps the event loop alive
process.exit(0);
