// Fine-tuning the grain model's boundary network on corrected segmentations (issue 25): the launcher's side of a
// training run. Checks the inputs, runs the repository's training pipeline (`python3 training/train.py --finetune`,
// training/lamella_train/finetune.py) with a manifest, passes its progress lines on, then validates the candidate
// network against the base one with the grain engine on the held-out images (validation.ts).
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { MODELS_DIR } from '../learned/network.js';
import { grainNetworkFile } from '../learned/tunables.js';
import { engineVersionOf, readMask, validateNetworks, type TrainingValidation } from './validation.js';

export type { TrainingValidation, NetworkScore } from './validation.js';

export interface FineTuneImage {
  id: string;
  imagePath: string;
  maskPath: string;
  holdout: boolean;
}

export interface FineTuneProgress {
  step: number;
  steps: number;
  loss: number;
  elapsedS: number;
  etaS: number;
}

export type TrainingErrorCode = 'INVALID_TRAINING_INPUT' | 'TRAINING_UNAVAILABLE' | 'TRAINING_FAILED';

/** A refused or failed training run: `code` is stable, `field` names the input at fault (bad input only). */
export class TrainingError extends Error {
  readonly code: TrainingErrorCode;
  readonly field?: string;
  readonly details?: unknown;
  constructor(code: TrainingErrorCode, message: string, field?: string, details?: unknown) {
    super(message);
    this.name = 'TrainingError';
    this.code = code;
    this.field = field;
    this.details = details;
  }
}

/** The repository's training script. */
export const TRAIN_SCRIPT = fileURLToPath(new URL('../../../../training/train.py', import.meta.url));
/** Debian's interpreter (it sees python3-torch; a pyenv or venv python3 does not). LAMELLA_PYTHON overrides. */
export const DEFAULT_PYTHON = process.env.LAMELLA_PYTHON || '/usr/bin/python3';
/** The shared data folder whose training/tbm tiles join the base data (LAMELLA_SHARED, else ../shared beside the repository). */
const SHARED = process.env.LAMELLA_SHARED || fileURLToPath(new URL('../../../../../shared', import.meta.url));
/**
 * The default effort: steps of a run when the admin does not choose (bench:training times it: 20 corrected 1 MP images
 * in about 10 min of training on 2 idle CPU cores; batches of 8 crops of 128 px, so the time does not grow with the
 * images' size or count).
 */
export const DEFAULT_FINETUNE_STEPS = 400;
/** Most steps a run may ask for. */
export const MAX_STEPS = 100_000;

const available = new Map<string, Promise<boolean>>();

/** Whether `python` (default /usr/bin/python3) imports what the training pipeline needs; asked once per interpreter. */
export function trainingAvailable(python: string = DEFAULT_PYTHON): Promise<boolean> {
  let p = available.get(python);
  if (!p) {
    p = new Promise<boolean>((resolve) => {
      if (!existsSync(TRAIN_SCRIPT)) return resolve(false);
      const child = spawn(python, ['-c', 'import torch, onnx, numpy, scipy, skimage, PIL'], { stdio: 'ignore' });
      child.on('error', () => resolve(false));
      child.on('close', (code) => resolve(code === 0));
    });
    available.set(python, p);
  }
  return p;
}

function abortError(): Error {
  const e = new Error('The training run was cancelled') as Error & { code: string };
  e.name = 'AbortError';
  e.code = 'TRAINING_CANCELLED';
  return e;
}

const bad = (field: string, message: string) => new TrainingError('INVALID_TRAINING_INPUT', message, field);

async function imageSize(file: string, field: string, what: string): Promise<{ width: number; height: number }> {
  if (!existsSync(file) || !statSync(file).isFile()) throw bad(field, `${what} ${file} does not exist`);
  try {
    const m = await sharp(file).metadata();
    if (!m.width || !m.height) throw new Error('no size');
    return { width: m.width, height: m.height };
  } catch (e) {
    throw bad(field, `${what} ${file} is not a readable image (${(e as Error).message})`);
  }
}

/** Every check that can be made before Python starts; throws TrainingError INVALID_TRAINING_INPUT naming the field. */
export async function checkFineTuneInputs(opts: Parameters<typeof fineTune>[0]): Promise<string> {
  if (opts.model !== 'grain-size') throw bad('model', `Only the grain-size model can be trained, not "${String(opts.model)}"`);
  for (const k of ['baseVersion', 'candidateVersion'] as const)
    if (typeof opts[k] !== 'string' || !opts[k].trim()) throw bad(k, `${k} must be a non-empty version label`);
  if (opts.baseVersion === opts.candidateVersion) throw bad('candidateVersion', 'candidateVersion must differ from baseVersion');
  if (!Number.isInteger(opts.steps) || opts.steps < 1 || opts.steps > MAX_STEPS)
    throw bad('steps', `steps must be an integer from 1 to ${MAX_STEPS}, got ${String(opts.steps)}`);
  if (!Number.isInteger(opts.seed) || opts.seed < 0 || opts.seed > 2 ** 32 - 1)
    throw bad('seed', `seed must be an integer from 0 to 4294967295, got ${String(opts.seed)}`);
  if (typeof opts.workDir !== 'string' || !path.isAbsolute(opts.workDir)) throw bad('workDir', 'workDir must be an absolute path');
  const base = opts.baseNetworkPath ?? MODELS_DIR + grainNetworkFile(opts.baseVersion);
  if (!path.isAbsolute(base) || !existsSync(base) || !statSync(base).isFile())
    throw bad('baseNetworkPath', `the base network ${base} does not exist (an absolute path to an .onnx file)`);
  if (!Array.isArray(opts.images) || opts.images.length === 0) throw bad('images', 'no images: a training run needs corrected images');
  const ids = new Set<string>();
  for (const [k, im] of opts.images.entries()) {
    if (typeof im?.id !== 'string' || !im.id) throw bad(`images[${k}].id`, `images[${k}] has no id`);
    if (ids.has(im.id)) throw bad(`images[${k}].id`, `image id ${im.id} is given twice`);
    ids.add(im.id);
    if (typeof im.holdout !== 'boolean') throw bad(`images[${k}].holdout`, `image ${im.id}: holdout must be true or false`);
    if (typeof im.imagePath !== 'string' || !path.isAbsolute(im.imagePath))
      throw bad(`images[${k}].imagePath`, `image ${im.id}: imagePath must be an absolute path`);
    if (typeof im.maskPath !== 'string' || !path.isAbsolute(im.maskPath))
      throw bad(`images[${k}].maskPath`, `image ${im.id}: maskPath must be an absolute path`);
    const a = await imageSize(im.imagePath, `images[${k}].imagePath`, `image ${im.id}:`);
    const b = await imageSize(im.maskPath, `images[${k}].maskPath`, `image ${im.id}: mask`);
    if (a.width !== b.width || a.height !== b.height)
      throw bad(`images[${k}].maskPath`, `image ${im.id}: the mask is ${b.width}×${b.height} px, the image ${a.width}×${a.height} px`);
    const { mask } = await readMask(im.maskPath);
    let inside = 0;
    for (let i = 0; i < mask.length; i++) inside += mask[i];
    if (inside === 0 || inside === mask.length)
      throw bad(
        `images[${k}].maskPath`,
        `image ${im.id}: the mask has ${inside ? 'no boundary' : 'no grain interior'} (255 grain interior, 0 boundary)`,
      );
  }
  if (!opts.images.some((i) => !i.holdout)) throw bad('images', 'no training image: every image is held out');
  if (!opts.images.some((i) => i.holdout)) throw bad('images', 'no held-out image: the candidate could not be validated');
  return base;
}

/**
 * Fine-tunes the grain-boundary network on corrected masks and validates the candidate against the base network
 * on the held-out images. Progress comes in step order; `signal` kills the Python process (the promise rejects with
 * an AbortError once it has exited). Files: `workDir/manifest.json`, `workDir/out/network.onnx`, `workDir/out/card.json`.
 */
export async function fineTune(opts: {
  model: 'grain-size';
  baseVersion: string;
  candidateVersion: string;
  baseNetworkPath?: string;
  steps: number;
  seed: number;
  workDir: string;
  images: FineTuneImage[];
  signal?: AbortSignal;
  onProgress?: (p: FineTuneProgress) => void;
  python?: string;
}): Promise<{ networkPath: string; card: Record<string, unknown>; validation: TrainingValidation }> {
  const base = await checkFineTuneInputs(opts);
  const python = opts.python ?? DEFAULT_PYTHON;
  if (opts.signal?.aborted) throw abortError();
  if (!(await trainingAvailable(python)))
    throw new TrainingError('TRAINING_UNAVAILABLE', `${python} cannot import torch, onnx, numpy, scipy, skimage and PIL (bash training/setup.sh)`);
  const outDir = path.join(opts.workDir, 'out');
  await mkdir(outDir, { recursive: true });
  const manifest = {
    base,
    baseVersion: opts.baseVersion,
    candidateVersion: opts.candidateVersion,
    images: opts.images.map((i) => ({ id: i.id, image: i.imagePath, mask: i.maskPath, holdout: i.holdout })),
    steps: opts.steps,
    seed: opts.seed,
    out: outDir,
    shared: existsSync(SHARED) ? SHARED : null,
  };
  const manifestPath = path.join(opts.workDir, 'manifest.json');
  await writeFile(manifestPath, JSON.stringify(manifest, null, 2));
  const done = await runPython(python, manifestPath, opts.signal, opts.onProgress);
  const networkPath = path.join(outDir, 'network.onnx');
  if (!existsSync(networkPath)) throw new TrainingError('TRAINING_FAILED', 'The training pipeline wrote no network file');
  const card = (done.card as Record<string, unknown>) ?? JSON.parse(await readFile(path.join(outDir, 'card.json'), 'utf8'));
  const validation = await validateNetworks({
    baseNetwork: base,
    candidateNetwork: networkPath,
    images: opts.images.filter((i) => i.holdout),
    signal: opts.signal,
    version: engineVersionOf(opts.baseVersion),
  });
  return { networkPath, card, validation };
}

/** Runs train.py --finetune; resolves with its `done` line, rejects with its `error` line, a crash or an abort. */
function runPython(
  python: string,
  manifestPath: string,
  signal: AbortSignal | undefined,
  onProgress: ((p: FineTuneProgress) => void) | undefined,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    // an abort that came while the inputs were checked and the manifest written: Python never starts (a listener
    // added after the abort would never fire, and the run would train to its end)
    if (signal?.aborted) return reject(abortError());
    const child = spawn(python, [TRAIN_SCRIPT, '--finetune', manifestPath, '--device', 'auto'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PYTHONUNBUFFERED: '1' },
    });
    let aborted = false;
    let killTimer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      aborted = true;
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), 3000);
      killTimer.unref();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    let done: Record<string, unknown> | null = null;
    let error: { code?: string; message?: string } | null = null;
    let stderr = '';
    let buf = '';
    let callbackError: unknown = null;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buf += chunk;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (!line.startsWith('{')) continue;
        let msg: Record<string, unknown>;
        try {
          msg = JSON.parse(line) as Record<string, unknown>;
        } catch {
          continue;
        }
        if (msg.type === 'progress' && !aborted) {
          try {
            onProgress?.({
              step: Number(msg.step),
              steps: Number(msg.steps),
              loss: Number(msg.loss),
              elapsedS: Number(msg.elapsedS),
              etaS: Number(msg.etaS),
            });
          } catch (e) {
            // a throwing callback stops the run: it is the caller's error
            callbackError ??= e;
            onAbort();
          }
        } else if (msg.type === 'done') done = msg;
        else if (msg.type === 'error') error = msg as { code?: string; message?: string };
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (c: string) => {
      stderr = (stderr + c).slice(-4000);
    });
    child.on('error', (e) => {
      signal?.removeEventListener('abort', onAbort);
      reject(new TrainingError('TRAINING_UNAVAILABLE', `${python} could not be started: ${e.message}`));
    });
    child.on('close', (code, sig) => {
      clearTimeout(killTimer);
      signal?.removeEventListener('abort', onAbort);
      if (callbackError) return reject(callbackError as Error);
      if (aborted) return reject(abortError());
      if (code === 0 && done) return resolve(done);
      if (error)
        return reject(new TrainingError('TRAINING_FAILED', `Training failed: ${error.message ?? error.code}`, undefined, { code: error.code }));
      const tail = stderr.trim().split('\n').slice(-3).join(' | ');
      reject(new TrainingError('TRAINING_FAILED', `The training pipeline exited with ${sig ?? `status ${code}`}${tail ? `: ${tail}` : ''}`));
    });
  });
}
