// Validation of a trained grain-boundary network against a base one on held-out images with corrected masks
// (issue 25): the grain engine runs with each network, and its segmentation and grain size are compared with the mask.
//
// - Boundary F-score (2 px tolerance): the boundary of a mask (the corrected one, or the engine's segmentation.png,
//   which has the same format) is where its grains, grown into the 0 pixels between them, meet: a 1-px trace, as
//   training/lamella_train/finetune.py teaches it. A traced pixel matches when the other trace has a pixel within 2 px.
// - |ΔG|: ASTM E112 G by the lineal intercept method from the engine's result against G measured by the same engine
//   from the corrected mask (a user mask is measured as drawn), both at the same pixel size (ΔG does not depend on it).
import { AnalysisError } from '../errors.js';
import { maskFirstChannel } from '../image.js';
import { getModel, runModel } from '../registry.js';
import type { ModelVersion } from '../types.js';

export interface NetworkScore {
  /** Boundary F-score (0..1, 2 px tolerance) of the engine's segmentation against the corrected mask. */
  fScore: number;
  /** |G(engine) − G(mask)|, ASTM E112 intercept G; null when the engine refused the image (`error` says why). */
  deltaG: number | null;
  /** G the engine measured (null when it refused). */
  g?: number | null;
  /** The engine's refusal (NOT_A_GRAIN_STRUCTURE, TOO_FEW_FEATURES…): F-score 0, no ΔG. */
  error?: string;
}

export interface TrainingValidation {
  images: Array<{ id: string; gMask?: number; base: NetworkScore; candidate: NetworkScore }>;
  /** Means over the held-out images (ΔG over the images the engine measured; null when none). */
  total: { base: NetworkScore; candidate: NetworkScore };
}

/** The engine version whose segmentation is the learned one (grain size 20261201 and later). */
export const LEARNED_ENGINE_VERSION: ModelVersion = getModel('grain-size').currentVersion;

/**
 * The engine version a network trained from `baseVersion` runs in: that version when it is a shipped one (a trained
 * label `20261202-ft1` counts as the version it was trained from), else the current one. A network is validated in
 * the engine it runs in (the launcher runs `20261201-ft1` in 20261201: its working scale, tiles and E112 count).
 */
export function engineVersionOf(baseVersion: string | undefined): ModelVersion {
  const v = (baseVersion ?? '').replace(/(-ft\d+)+$/, '');
  return (getModel('grain-size').versions as string[]).includes(v) && v >= '20261201' ? (v as ModelVersion) : LEARNED_ENGINE_VERSION;
}

/** 1 where a pixel of the first channel is above 0 (grain interior), as the engine reads a mask (image.ts, 8 or 16 bit). */
export async function readMask(data: Uint8Array | Buffer | string): Promise<{ mask: Uint8Array; width: number; height: number }> {
  const input = typeof data === 'string' || Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const { values, width, height } = await maskFirstChannel(input);
  const mask = new Uint8Array(width * height);
  for (let i = 0; i < mask.length; i++) mask[i] = values[i] > 0 ? 1 : 0;
  return { mask, width, height };
}

/**
 * The 1-px boundary trace of a mask: its grains (4-connected interior) are grown into the 0 pixels (breadth first,
 * 4-neighbourhood) and a pixel is on the trace when its right or lower neighbour belongs to another grain.
 */
export function maskTrace(mask: Uint8Array, w: number, h: number): Uint8Array {
  const labels = new Int32Array(w * h);
  const queue = new Int32Array(w * h);
  let n = 0;
  for (let s = 0; s < mask.length; s++) {
    if (!mask[s] || labels[s]) continue;
    labels[s] = ++n;
    let head = 0,
      tail = 0;
    queue[tail++] = s;
    while (head < tail) {
      const i = queue[head++];
      const x = i % w;
      const nb = [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, i - w, i + w];
      for (const j of nb)
        if (j >= 0 && j < mask.length && mask[j] && !labels[j]) {
          labels[j] = n;
          queue[tail++] = j;
        }
    }
  }
  // grow every grain into the pixels between them, all at once (multi-source breadth first)
  let head = 0,
    tail = 0;
  for (let i = 0; i < labels.length; i++) if (labels[i]) queue[tail++] = i;
  while (head < tail) {
    const i = queue[head++];
    const x = i % w;
    const nb = [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, i - w, i + w];
    for (const j of nb)
      if (j >= 0 && j < labels.length && !labels[j]) {
        labels[j] = labels[i];
        queue[tail++] = j;
      }
  }
  const trace = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if ((x + 1 < w && labels[i + 1] !== labels[i]) || (y + 1 < h && labels[i + w] !== labels[i])) trace[i] = 1;
    }
  return trace;
}

/** Boundary precision, recall and F-score of `pred` against `truth` (1-px traces, same size) with `tol` px tolerance. */
export function boundaryFScore(pred: Uint8Array, truth: Uint8Array, w: number, h: number, tol = 2): { precision: number; recall: number; f: number } {
  const offsets: Array<[number, number]> = [];
  const r = Math.ceil(tol);
  for (let dy = -r; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) if (dx * dx + dy * dy <= tol * tol) offsets.push([dx, dy]);
  const near = (a: Uint8Array, x: number, y: number) => {
    for (const [dx, dy] of offsets) {
      const X = x + dx,
        Y = y + dy;
      if (X >= 0 && X < w && Y >= 0 && Y < h && a[Y * w + X]) return true;
    }
    return false;
  };
  let nP = 0,
    hitP = 0,
    nT = 0,
    hitT = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (pred[i]) {
        nP++;
        if (near(truth, x, y)) hitP++;
      }
      if (truth[i]) {
        nT++;
        if (near(pred, x, y)) hitT++;
      }
    }
  if (!nP && !nT) return { precision: 1, recall: 1, f: 1 };
  const precision = nP ? hitP / nP : 0,
    recall = nT ? hitT / nT : 0;
  return { precision, recall, f: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0 };
}

function throwIfAborted(signal?: AbortSignal) {
  if (signal?.aborted) {
    const e = new Error('The training run was cancelled') as Error & { code: string };
    e.name = 'AbortError';
    e.code = 'TRAINING_CANCELLED';
    throw e;
  }
}

const round = (v: number, d = 4) => Number(v.toFixed(d));

/** G (intercept) the engine measures from a corrected mask of the image, at 1 µm/px. */
async function maskG(image: Buffer, mask: Buffer, version: ModelVersion): Promise<number> {
  const r = await runModel('grain-size', version, image, {}, { pixelSizeUm: 1, masks: mask });
  return Number(r.measurements.astmGIntercept);
}

/** The engine's result with one network on an image: its score against the mask (trace `truth`) and G `gMask`. */
async function scoreNetwork(
  image: Buffer,
  network: string,
  truth: Uint8Array,
  w: number,
  h: number,
  gMask: number,
  version: ModelVersion,
): Promise<NetworkScore> {
  let r;
  try {
    r = await runModel('grain-size', version, image, {}, { pixelSizeUm: 1, network });
  } catch (e) {
    if (e instanceof AnalysisError) return { fScore: 0, deltaG: null, g: null, error: e.code };
    throw e;
  }
  const seg = r.files.find((f) => f.filename === 'segmentation.png');
  if (!seg) throw new Error('The grain engine gave no segmentation.png');
  const s = await readMask(seg.data);
  // the engine's file covers the whole image; should it not, the comparison covers the part both have
  const W = Math.min(s.width, w),
    H = Math.min(s.height, h);
  const crop = (a: Uint8Array, aw: number) => {
    if (aw === W && a.length === W * H) return a;
    const o = new Uint8Array(W * H);
    for (let y = 0; y < H; y++) o.set(a.subarray(y * aw, y * aw + W), y * W);
    return o;
  };
  const pred = crop(maskTrace(s.mask, s.width, s.height), s.width);
  const f = boundaryFScore(pred, crop(truth, w), W, H).f;
  const g = Number(r.measurements.astmGIntercept);
  return { fScore: round(f), deltaG: Number.isFinite(g) ? round(Math.abs(g - gMask)) : null, g: Number.isFinite(g) ? round(g) : null };
}

function mean(scores: NetworkScore[]): NetworkScore {
  const d = scores.map((s) => s.deltaG).filter((v): v is number => v !== null);
  return {
    fScore: scores.length ? round(scores.reduce((a, s) => a + s.fScore, 0) / scores.length) : 0,
    deltaG: d.length ? round(d.reduce((a, v) => a + v, 0) / d.length) : null,
  };
}

/**
 * Runs the grain engine with the base and the candidate network on each held-out image and compares both with the
 * image's corrected mask (boundary F-score, |ΔG|), per image and as means.
 */
export async function validateNetworks(opts: {
  baseNetwork: string;
  candidateNetwork: string;
  images: Array<{ id: string; imagePath: string; maskPath: string }>;
  signal?: AbortSignal;
  /** The engine version both networks run in (engineVersionOf the base's version; default the current one). */
  version?: ModelVersion;
}): Promise<TrainingValidation> {
  const version = opts.version ?? LEARNED_ENGINE_VERSION;
  const images: TrainingValidation['images'] = [];
  const { readFile } = await import('node:fs/promises');
  for (const im of opts.images) {
    throwIfAborted(opts.signal);
    const image = await readFile(im.imagePath);
    const maskBuf = await readFile(im.maskPath);
    const m = await readMask(maskBuf);
    const truth = maskTrace(m.mask, m.width, m.height);
    const gMask = await maskG(image, maskBuf, version);
    throwIfAborted(opts.signal);
    const base = await scoreNetwork(image, opts.baseNetwork, truth, m.width, m.height, gMask, version);
    throwIfAborted(opts.signal);
    const candidate = await scoreNetwork(image, opts.candidateNetwork, truth, m.width, m.height, gMask, version);
    images.push({ id: im.id, gMask: round(gMask), base, candidate });
  }
  return { images, total: { base: mean(images.map((i) => i.base)), candidate: mean(images.map((i) => i.candidate)) } };
}
