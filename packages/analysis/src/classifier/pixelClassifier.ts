// The trainable pixel classifier of recipes (issue 22): the user's strokes per class → multi-scale filter features
// (features.ts) → a random forest (forest.ts) → a class and a probability per pixel. Or, as the simple
// alternative, grey ranges per class on the lightly smoothed image. Both serialise to JSON (PixelClassifier).
import type { Gray } from '../image.js';
import {
  DEFAULT_FEATURES,
  downsample,
  featureNames,
  forEachFeaturePlane,
  gaussian,
  normaliseGrey,
  planeRange,
  quantise,
  workingFactor,
  type FeatureSpec,
} from './features.js';
import { predictForest, rng, trainForest, type Forest, type ForestOptions } from './forest.js';

/** A stroke of the brush of one class, in the image's pixels. */
export interface Stroke {
  classIndex: number;
  /** Brush diameter in image pixels. */
  width: number;
  points: Array<[number, number]>;
}

export interface GreyRange {
  classIndex: number;
  /** Inclusive grey range 0..255. */
  min: number;
  max: number;
}

export const CLASSIFIER_FORMAT = 'lamella-pixel-classifier/1';
/** Images larger than this are averaged down by an integer factor before the features (default of the options). */
const MAX_WORKING_PIXELS = 1_000_000;

export type PixelClassifier =
  | {
      format: typeof CLASSIFIER_FORMAT;
      kind: 'forest';
      nClasses: number;
      features: FeatureSpec;
      /** The working scale: images larger than this are averaged down by an integer factor first. */
      maxWorkingPixels: number;
      /** The range of each feature plane that its 64 bins span. */
      ranges: Array<[number, number]>;
      forest: Forest;
      /**
       * What is done to the classes after the forest (absent in recipes trained before it: nothing).
       * minSpeckle: a connected region of one class smaller than this many pixels of the working grid takes
       * each pixel's second most probable class (salt-and-pepper noise, not a structure anyone strokes).
       */
      post?: { minSpeckle: number };
    }
  | {
      format: typeof CLASSIFIER_FORMAT;
      kind: 'grey-range';
      nClasses: number;
      /** The first range holding a pixel's grey (after smoothing) names its class; otherwise `otherClass`. */
      ranges: GreyRange[];
      otherClass: number;
      smoothing: number;
    };

export interface Segmentation {
  width: number;
  height: number;
  /** Class index of every pixel. */
  labels: Uint8Array;
  /** Probability of the pixel's class, 0..255. */
  confidence: Uint8Array;
  /**
   * Forest classifiers: the share of the analysed working pixels whose smoothed grey (each Gaussian feature plane)
   * lies outside the range the strokes spanned (+5 % either side), averaged over those planes: grey the strokes never
   * showed. Under 3 % on the images of ../shared/training's cross-validation, 27 % on one whose phases have no
   * contrast of their own (applyRecipe warns above RECIPE_UNLIKE.share).
   */
  outOfRange?: number;
}

export interface TrainOptions extends ForestOptions {
  features?: FeatureSpec;
  maxWorkingPixels?: number;
  /** Training samples kept per class at most (a seeded choice). */
  maxSamplesPerClass?: number;
  /** Post-processing of the classes (PixelClassifier post); null: none, as recipes before it. */
  post?: { minSpeckle: number } | null;
}

/** The post-processing new classifiers get. */
export const DEFAULT_POST = { minSpeckle: 6 };

export class ClassifierError extends Error {
  constructor(
    readonly code: 'TOO_FEW_STROKES' | 'INVALID_CLASSIFIER',
    message: string,
  ) {
    super(message);
  }
}

/** Paints the strokes into a label plane of the working grid (−1: unlabelled); later strokes win. */
export function rasteriseStrokes(strokes: Stroke[], width: number, height: number, factor: number): Int16Array {
  const out = new Int16Array(width * height).fill(-1);
  for (const s of strokes) {
    const r = Math.max(0.5, s.width / 2 / factor);
    const stamp = (cx: number, cy: number) => {
      const x0 = Math.max(0, Math.floor(cx - r)),
        x1 = Math.min(width - 1, Math.ceil(cx + r));
      const y0 = Math.max(0, Math.floor(cy - r)),
        y1 = Math.min(height - 1, Math.ceil(cy + r));
      for (let y = y0; y <= y1; y++)
        for (let x = x0; x <= x1; x++) if ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= r * r + 0.25) out[y * width + x] = s.classIndex;
    };
    const pts = s.points.map(([x, y]) => [x / factor, y / factor] as const);
    if (pts.length === 1) stamp(pts[0][0], pts[0][1]);
    for (let k = 1; k < pts.length; k++) {
      const [ax, ay] = pts[k - 1],
        [bx, by] = pts[k];
      const steps = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay) * 2));
      for (let t = 0; t <= steps; t++) stamp(ax + ((bx - ax) * t) / steps, ay + ((by - ay) * t) / steps);
    }
  }
  return out;
}

/** The quantised feature planes of an image at the classifier's working scale. */
function workingPlanes(
  img: Gray,
  spec: FeatureSpec,
  maxWorkingPixels: number,
  ranges: Array<[number, number]> | null,
  labelled?: (w: number, h: number, f: number) => ArrayLike<number>,
  valid?: Uint8Array,
): { planes: Uint8Array[]; ranges: Array<[number, number]>; width: number; height: number; factor: number; outOfRange: number } {
  const factor = workingFactor(img.width, img.height, maxWorkingPixels);
  const work = normaliseGrey(downsample(img.data, img.width, img.height, factor), spec);
  const at = labelled?.(work.width, work.height, factor);
  const planes: Uint8Array[] = [];
  const used: Array<[number, number]> = [];
  // with stored ranges: the working pixels (of the analysed area) whose smoothed grey (the Gaussian planes) lies
  // outside the range the strokes spanned, summed over those planes. The derivative planes are left out: strokes
  // drawn inside regions never see the steepest edges, so every edge of a high-contrast image would count.
  const inArea = ranges ? workingArea(valid, img.width, img.height, work.width, work.height, factor) : null;
  const gaussPlane = inArea ? featureNames(spec).map((n) => n.startsWith('gauss@')) : null;
  let outside = 0,
    counted = 0;
  forEachFeaturePlane(work, spec, (i, p) => {
    const range = ranges ? ranges[i] : planeRange(p, at ?? []);
    used.push(range);
    planes.push(quantise(p, range));
    if (!inArea || !gaussPlane?.[i]) return;
    counted++;
    for (let j = 0; j < p.length; j++) if (inArea[j] && (p[j] < range[0] || p[j] > range[1])) outside++;
  });
  let area = 0;
  if (inArea) for (let j = 0; j < inArea.length; j++) area += inArea[j];
  const outOfRange = area && counted ? outside / (area * counted) : 0;
  return { planes, ranges: used, width: work.width, height: work.height, factor, outOfRange };
}

/** 1 for each working pixel whose full-size pixel (its top-left one) is in `valid` (all of them without it). */
function workingArea(valid: Uint8Array | undefined, width: number, height: number, ww: number, wh: number, factor: number): Uint8Array {
  const out = new Uint8Array(ww * wh);
  for (let y = 0; y < wh; y++)
    for (let x = 0; x < ww; x++) {
      const fx = Math.min(width - 1, x * factor),
        fy = Math.min(height - 1, y * factor);
      out[y * ww + x] = !valid || valid[fy * width + fx] ? 1 : 0;
    }
  return out;
}

/** Class planes at working scale → labels and confidence at full size (probabilities upsampled bilinearly). */
function toSegmentation(
  prob: Float32Array[],
  ww: number,
  wh: number,
  width: number,
  height: number,
  factor: number,
  post?: { minSpeckle: number },
): Segmentation {
  const K = prob.length;
  const labels = new Uint8Array(width * height),
    confidence = new Uint8Array(width * height);
  const second = post ? new Uint8Array(width * height) : null;
  const secondBest = new Float32Array(width);
  const best = new Float32Array(width);
  for (let y = 0; y < height; y++) {
    const fy = Math.min(Math.max((y + 0.5) / factor - 0.5, 0), wh - 1);
    const y0 = fy | 0,
      y1 = Math.min(y0 + 1, wh - 1),
      wy = fy - y0;
    best.fill(-1);
    secondBest.fill(-1);
    for (let c = 0; c < K; c++) {
      const p = prob[c];
      for (let x = 0; x < width; x++) {
        const fx = Math.min(Math.max((x + 0.5) / factor - 0.5, 0), ww - 1);
        const x0 = fx | 0,
          x1 = Math.min(x0 + 1, ww - 1),
          wx = fx - x0;
        const a = p[y0 * ww + x0] * (1 - wx) + p[y0 * ww + x1] * wx;
        const b = p[y1 * ww + x0] * (1 - wx) + p[y1 * ww + x1] * wx;
        const v = a * (1 - wy) + b * wy;
        if (v > best[x]) {
          if (second) {
            secondBest[x] = best[x];
            second[y * width + x] = labels[y * width + x];
          }
          best[x] = v;
          labels[y * width + x] = c;
        } else if (second && v > secondBest[x]) {
          secondBest[x] = v;
          second[y * width + x] = c;
        }
      }
    }
    for (let x = 0; x < width; x++) confidence[y * width + x] = Math.round(Math.min(1, best[x]) * 255);
  }
  if (post && second && post.minSpeckle > 0) removeSpeckles(labels, second, width, height, Math.round(post.minSpeckle * factor * factor));
  return { width, height, labels, confidence };
}

/**
 * Every 8-connected region of one class smaller than minArea pixels takes, pixel by pixel, the second most
 * probable class there (one pass: the regions are found on the labels as the forest gave them).
 */
export function removeSpeckles(labels: Uint8Array, second: Uint8Array, w: number, h: number, minArea: number): void {
  const n = w * h;
  const seen = new Uint8Array(n);
  const stack = new Int32Array(n);
  const region: number[] = [];
  for (let s = 0; s < n; s++) {
    if (seen[s]) continue;
    const c = labels[s];
    let top = 0;
    stack[top++] = s;
    seen[s] = 1;
    region.length = 0;
    let count = 0;
    while (top) {
      const i = stack[--top];
      count++;
      if (count <= minArea) region.push(i);
      const x = i % w,
        y = (i - x) / w;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= h) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= w) continue;
          const j = yy * w + xx;
          if (!seen[j] && labels[j] === c) {
            seen[j] = 1;
            stack[top++] = j;
          }
        }
      }
    }
    if (count < minArea) for (const i of region) labels[i] = second[i];
  }
}

/**
 * Trains a forest classifier on the strokes (at least one per class, `nClasses` ≥ 2) and answers it with the
 * segmentation of the training image, for the live preview.
 */
export function trainClassifier(
  img: Gray,
  strokes: Stroke[],
  nClasses: number,
  o: TrainOptions = {},
): { classifier: PixelClassifier; segmentation: Segmentation; samples: number; ms: { features: number; train: number; predict: number } } {
  checkStrokes(strokes, nClasses);
  const spec = o.features ?? DEFAULT_FEATURES;
  const maxWorkingPixels = o.maxWorkingPixels ?? MAX_WORKING_PIXELS;
  const t0 = performance.now();
  let labels: Int16Array | null = null;
  let sampleIdx: number[] = [];
  const wp = workingPlanes(img, spec, maxWorkingPixels, null, (w, h, f) => {
    labels = rasteriseStrokes(strokes, w, h, f);
    sampleIdx = sampleStrokes(labels, nClasses, o.maxSamplesPerClass ?? 4000, (o.seed ?? 1) * 7919);
    return sampleIdx;
  });
  const t1 = performance.now();
  const lab = labels as unknown as Int16Array;
  const y = Uint8Array.from(sampleIdx, (i) => lab[i]);
  const x = wp.planes.map((p) => Uint8Array.from(sampleIdx, (i) => p[i]));
  const forest = trainForest(x, y, nClasses, o);
  const t2 = performance.now();
  const prob = predictForest(forest, wp.planes);
  const classifier = forestClassifier(nClasses, spec, maxWorkingPixels, wp.ranges, forest, o);
  const segmentation = toSegmentation(prob, wp.width, wp.height, img.width, img.height, wp.factor, classifier.post);
  const t3 = performance.now();
  return {
    classifier,
    segmentation,
    samples: sampleIdx.length,
    ms: { features: t1 - t0, train: t2 - t1, predict: t3 - t2 },
  };
}

/**
 * Trains a forest classifier on strokes drawn on several images of a material (at least one stroke per class in
 * all): each image's features are read at its strokes' pixels only, the planes' ranges span the samples of all
 * images. The same classifier as trainClassifier's when given one image (but no preview segmentation).
 */
export function trainClassifierImages(
  items: Array<{ img: Gray; strokes: Stroke[] }>,
  nClasses: number,
  o: TrainOptions = {},
): { classifier: PixelClassifier; samples: number } {
  checkStrokes(
    items.flatMap((it) => it.strokes),
    nClasses,
  );
  const spec = o.features ?? DEFAULT_FEATURES;
  const maxWorkingPixels = o.maxWorkingPixels ?? MAX_WORKING_PIXELS;
  const F = featureNames(spec).length;
  const cap = Math.ceil((o.maxSamplesPerClass ?? 4000) / items.length);
  const values: number[][] = Array.from({ length: F }, () => []);
  const ys: number[] = [];
  items.forEach(({ img, strokes }, k) => {
    if (!strokes.length) return;
    const factor = workingFactor(img.width, img.height, maxWorkingPixels);
    const work = normaliseGrey(downsample(img.data, img.width, img.height, factor), spec);
    const labels = rasteriseStrokes(strokes, work.width, work.height, factor);
    const idx = sampleStrokes(labels, nClasses, cap, (o.seed ?? 1) * 7919 + k);
    for (const i of idx) ys.push(labels[i]);
    forEachFeaturePlane(work, spec, (f, p) => {
      for (const i of idx) values[f].push(p[i]);
    });
  });
  const all = Array.from({ length: ys.length }, (_, i) => i);
  const ranges: Array<[number, number]> = [];
  const x = values.map((v) => {
    const p = Float32Array.from(v);
    const range = planeRange(p, all);
    ranges.push(range);
    return quantise(p, range);
  });
  const forest = trainForest(x, Uint8Array.from(ys), nClasses, o);
  return { classifier: forestClassifier(nClasses, spec, maxWorkingPixels, ranges, forest, o), samples: ys.length };
}

/** TOO_FEW_STROKES unless every class 0..nClasses-1 has a stroke with points. */
function checkStrokes(strokes: Stroke[], nClasses: number): void {
  const present = new Set(strokes.filter((s) => s.points.length).map((s) => s.classIndex));
  for (let c = 0; c < nClasses; c++)
    if (!present.has(c)) throw new ClassifierError('TOO_FEW_STROKES', `Class ${c + 1} has no stroke: mark at least one stroke of every class`);
}

/** A seeded choice of at most `cap` labelled pixels of each class (their indices, ascending). */
function sampleStrokes(labels: Int16Array, nClasses: number, cap: number, seed: number): number[] {
  const byClass: number[][] = Array.from({ length: nClasses }, () => []);
  for (let i = 0; i < labels.length; i++) if (labels[i] >= 0 && labels[i] < nClasses) byClass[labels[i]].push(i);
  const rand = rng(seed);
  const idx: number[] = [];
  for (const list of byClass) {
    for (let k = 0; k < Math.min(cap, list.length); k++) {
      const j = k + Math.floor(rand() * (list.length - k));
      [list[k], list[j]] = [list[j], list[k]];
    }
    idx.push(...list.slice(0, cap));
  }
  return idx.sort((a, b) => a - b);
}

/**
 * The classifier of a run whose labels are given, not classified (hand labels measured with useRecipeLabels, as the
 * cross-validation's truth and the tests do): an empty forest for `nClasses` classes with this engine's features
 * and post-processing, never applied.
 */
export function givenLabelsClassifier(nClasses: number): PixelClassifier {
  return forestClassifier(nClasses, DEFAULT_FEATURES, MAX_WORKING_PIXELS, [], { nClasses: 0, nFeatures: 0, trees: [] }, {});
}

/** The stored forest classifier, with the post-processing the options ask for (default DEFAULT_POST; null: none). */
function forestClassifier(
  nClasses: number,
  features: FeatureSpec,
  maxWorkingPixels: number,
  ranges: Array<[number, number]>,
  forest: Forest,
  o: TrainOptions,
): Extract<PixelClassifier, { kind: 'forest' }> {
  const post = o.post === undefined ? DEFAULT_POST : (o.post ?? undefined);
  return { format: CLASSIFIER_FORMAT, kind: 'forest', nClasses, features, maxWorkingPixels, ranges, forest, ...(post ? { post } : {}) };
}

/** A grey-range classifier (the picker's alternative to strokes). */
export function greyRangeClassifier(nClasses: number, ranges: GreyRange[], otherClass: number, smoothing = 1): PixelClassifier {
  return { format: CLASSIFIER_FORMAT, kind: 'grey-range', nClasses, ranges, otherClass, smoothing };
}

/** Segments an image with a trained classifier. */
export function applyClassifier(c: PixelClassifier, img: Gray, valid?: Uint8Array): Segmentation {
  checkClassifier(c);
  if (c.kind === 'grey-range') {
    const g = gaussian({ width: img.width, height: img.height, data: Float32Array.from(img.data) }, c.smoothing).data;
    const labels = new Uint8Array(g.length).fill(c.otherClass),
      confidence = new Uint8Array(g.length).fill(255);
    const lut = new Uint8Array(256).fill(c.otherClass);
    for (let v = 255; v >= 0; v--) for (const r of [...c.ranges].reverse()) if (v >= r.min && v <= r.max) lut[v] = r.classIndex;
    for (let i = 0; i < g.length; i++) labels[i] = lut[Math.max(0, Math.min(255, Math.round(g[i])))];
    return { width: img.width, height: img.height, labels, confidence };
  }
  const wp = workingPlanes(img, c.features, c.maxWorkingPixels, c.ranges, undefined, valid);
  const prob = predictForest(c.forest, wp.planes);
  return { ...toSegmentation(prob, wp.width, wp.height, img.width, img.height, wp.factor, c.post), outOfRange: wp.outOfRange };
}

/** Throws INVALID_CLASSIFIER unless `c` is a classifier this engine reads (format, sizes, tree shapes). */
export function checkClassifier(c: unknown): asserts c is PixelClassifier {
  const bad = (why: string) => {
    throw new ClassifierError('INVALID_CLASSIFIER', `Not a pixel classifier: ${why}`);
  };
  if (!c || typeof c !== 'object') bad('not an object');
  const k = c as PixelClassifier;
  if (k.format !== CLASSIFIER_FORMAT) bad(`format must be ${CLASSIFIER_FORMAT}`);
  if (!Number.isInteger(k.nClasses) || k.nClasses < 2 || k.nClasses > 16) bad('nClasses must be 2..16');
  if (k.kind === 'grey-range') {
    if (!Array.isArray(k.ranges) || !Number.isInteger(k.otherClass)) bad('ranges and otherClass are required');
    return;
  }
  if (k.kind !== 'forest') bad('kind must be forest or grey-range');
  if (k.post !== undefined && !(k.post && Number.isFinite(k.post.minSpeckle) && k.post.minSpeckle >= 0 && k.post.minSpeckle <= 10_000))
    bad('post.minSpeckle must be a number 0..10000');
  if (k.features?.normalise !== undefined && k.features.normalise !== 'percentiles') bad('features.normalise must be percentiles or absent');
  const names = featureNames(k.features);
  if (!Array.isArray(k.ranges) || k.ranges.length !== names.length) bad('one range per feature plane is required');
  if (!k.forest || k.forest.nFeatures !== names.length || !k.forest.trees?.length) bad('the forest does not match the features');
  for (const t of k.forest.trees)
    for (let i = 0; i < t.feature.length; i++) {
      const f = t.feature[i];
      if (f >= names.length || (f < 0 && !(t.leaf[i] >= 0 && t.leaf[i] + k.nClasses <= t.values.length))) bad('a tree node is out of range');
      if (f >= 0 && !(t.left[i] > i && t.right[i] > i && t.left[i] < t.feature.length && t.right[i] < t.feature.length))
        bad('a tree link is out of range');
    }
}
