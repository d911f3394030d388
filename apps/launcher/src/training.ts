import * as analysis from '@lamella/analysis';

export type TrainProgress = analysis.FineTuneProgress;
/** What the orchestrator (packages/analysis/src/training/finetune.ts) takes. */
export type FineTuneOptions = Parameters<typeof analysis.fineTune>[0];
export type FineTuneResult = Awaited<ReturnType<typeof analysis.fineTune>>;

/** Fine-tunes a model's network (packages/analysis/src/training: the repository's training pipeline). */
export interface Trainer {
  /** Whether this machine can train (python3 with torch). */
  available(): Promise<boolean>;
  /**
   * The checks made before python starts (sizes, masks with interior and boundary…); throws an error with `code`
   * INVALID_TRAINING_INPUT and the `field` of the options at fault.
   */
  check(opts: FineTuneOptions): Promise<unknown>;
  fineTune(opts: FineTuneOptions): Promise<FineTuneResult>;
}

export type TrainMode = 'auto' | 'off';

/** LAUNCHER_TRAIN: `auto` (default: train when python3 with torch is there) or `off`. */
export function trainMode(value = process.env.LAUNCHER_TRAIN): TrainMode {
  const v = (value ?? 'auto').trim().toLowerCase();
  if (v === 'off' || v === 'auto' || v === '') return v === 'off' ? 'off' : 'auto';
  throw new Error(`LAUNCHER_TRAIN must be auto or off, not "${value}"`);
}

/** LAUNCHER_GPU_AFFINITY: the launcher's GPU affinity (an integer ≥ 0, default 0), reported on /health as `gpu`. */
export function gpuAffinity(value = process.env.LAUNCHER_GPU_AFFINITY): number {
  if (value === undefined || value.trim() === '') return 0;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`LAUNCHER_GPU_AFFINITY must be an integer of 0 or more, not "${value}"`);
  return n;
}

/** The pipeline of packages/analysis run with `python` (default: the orchestrator's, /usr/bin/python3 or LAMELLA_PYTHON). */
export function analysisTrainer(python?: string): Trainer {
  const withPython = (opts: FineTuneOptions) => ({ ...opts, ...(python ? { python } : {}) });
  return {
    available: () => analysis.trainingAvailable(python),
    check: (opts) => analysis.checkFineTuneInputs(withPython(opts)),
    fineTune: (opts) => analysis.fineTune(withPython(opts)),
  };
}

/**
 * Whether this launcher trains: never with mode `off`; else the trainer's answer, asked once (importing torch takes
 * seconds: /health must answer at once, so it says false until the answer is in).
 */
export function trainingGate(mode: TrainMode, trainer: Trainer | null) {
  let known: boolean | null = mode === 'off' || !trainer ? false : null;
  const answer: Promise<boolean> =
    known === false
      ? Promise.resolve(false)
      : Promise.resolve()
          .then(() => trainer!.available())
          .then(
            (ok) => (known = ok === true),
            () => (known = false),
          );
  return {
    /** The answer when known, false until then. */
    now: () => known === true,
    /** The answer (waits for it). */
    check: () => answer,
    mode,
  };
}
