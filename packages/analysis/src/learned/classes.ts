// Multi-class segmentation by the trained networks of issue 22 item 3 (training/train_classes.py). Shipped:
//
// - `phase`: 0 matrix, 1 dark phase (γ′ of Ni superalloys, secondary and tertiary together), trained on 12 SEM images
//   of 512²: `dark-phase.onnx` at working scale 1 (porosity 20261202–20261204), `dark-phase-20261207.onnx` at working
//   scale 0.5 (porosity 20261207 on: twice the context per training crop; cross-validated mean error 3.3 → 1.9 points).
//
// The coating network (background / oxide layer / crack, training/train_classes.py --task coating) is trained and
// cross-validated by the same pipeline but not shipped: its held-out figures are far from usable (cv-classes.json).
//
// The image is resampled to the working scale, run in tiles (network.ts: the same input normalisation as the grain
// network), and the class probabilities are brought back to the image's resolution (bilinear) before the decision
// (argmax, or the calibrated threshold of a two-class network's card). Porosity 20261202 segments two-phase
// structures with `phase` by default (models/porosity.ts segmentDarkPhaseDefault: the rule and the working scale it
// chooses); the cross-validation is in ARCHITECTURE.md (issue 22, "Learned layer, crack and dark-phase networks") and
// training/cv-classes.json.
import { readFileSync } from 'node:fs';
import { initCv } from '../cv.js';
import { atVersion } from '../types.js';
import { MODELS_DIR, networkSession, runTiled } from './network.js';
import { resizeFloat, resizeMask, resizeRgb } from './resample.js';

export type ClassTask = 'phase';

export interface ClassNetwork {
  file: string;
  classes: string[];
  /** Working px per image px the network was trained at (for images at the training images' resolution). */
  workingScale: number;
  /** Mean error of its measurement on the training images held out by image (cross-validation; points for `phase`). */
  heldOutErrorPoints: number;
}

/** The network of each task, from the model version on (the latest at or before a version is its network). */
export const CLASS_NETWORKS: Record<ClassTask, ReadonlyArray<readonly [string, ClassNetwork]>> = {
  phase: [
    ['20261202', { file: 'dark-phase.onnx', classes: ['matrix', 'dark phase'], workingScale: 1, heldOutErrorPoints: 3.3 }],
    ['20261207', { file: 'dark-phase-20261207.onnx', classes: ['matrix', 'dark phase'], workingScale: 0.5, heldOutErrorPoints: 1.9 }],
  ],
};

/** The network a model version uses for a task (the first one for versions before it). */
export function classNetwork(task: ClassTask, version: string): ClassNetwork {
  return atVersion(CLASS_NETWORKS[task], version);
}

export interface ClassSegmentation {
  /** Class index per pixel at the image's resolution (w×h). */
  classes: Uint8Array;
  /** Class probabilities at the image's resolution, one plane per class. */
  probability: Float32Array[];
  /** Working scale the network ran at (working px per image px). */
  scale: number;
}

const thresholds = new Map<string, number | null>();

/**
 * The decision threshold of a two-class network from its model card (`decisionThreshold`: the dark phase where its
 * probability exceeds it, calibrated on the training images), or null (argmax).
 */
export function decisionThreshold(file: string): number | null {
  if (!thresholds.has(file)) {
    let t: number | null = null;
    try {
      const card = JSON.parse(readFileSync(MODELS_DIR + file.replace(/\.onnx$/, '.card.json'), 'utf8')) as { decisionThreshold?: unknown };
      if (typeof card.decisionThreshold === 'number' && card.decisionThreshold > 0 && card.decisionThreshold < 1) t = card.decisionThreshold;
    } catch {
      t = null;
    }
    thresholds.set(file, t);
  }
  return thresholds.get(file) ?? null;
}

/**
 * The class map of an RGB image (interleaved, w×h) by the network `version` uses for `task`; `valid` marks the
 * analysed pixels (others get class 0). `scale` overrides the network's working scale (e.g. an image at another
 * resolution than the training images).
 */
export async function segmentClasses(
  task: ClassTask,
  version: string,
  rgb: Uint8Array,
  w: number,
  h: number,
  valid: Uint8Array | null,
  scale?: number,
): Promise<ClassSegmentation> {
  await initCv();
  const net = classNetwork(task, version);
  scale ??= net.workingScale;
  const W = Math.max(8, Math.round(w * scale)),
    H = Math.max(8, Math.round(h * scale));
  const img = resizeRgb(rgb, w, h, W, H);
  const v = valid ? resizeMask(valid, w, h, W, H) : null;
  const planes = await runTiled(await networkSession(net.file), img, W, H, v);
  const probability = planes.map((p) => resizeFloat(p, W, H, w, h));
  const classes = new Uint8Array(w * h);
  const threshold = probability.length === 2 ? decisionThreshold(net.file) : null;
  for (let i = 0; i < classes.length; i++) {
    if (valid && !valid[i]) continue;
    if (threshold !== null) {
      classes[i] = probability[1][i] > threshold ? 1 : 0;
      continue;
    }
    let best = 0;
    for (let c = 1; c < probability.length; c++) if (probability[c][i] > probability[best][i]) best = c;
    classes[i] = best;
  }
  return { classes, probability, scale: W / w };
}
