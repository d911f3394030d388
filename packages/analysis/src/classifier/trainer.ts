// Trains and applies recipe classifiers in a worker thread, so a server's event loop keeps answering while a
// classifier trains (seconds on a 4 MP image). One worker, tasks in order; it is started on the first task.
import { Worker } from 'node:worker_threads';

/** A brush stroke of one class in the image's pixels (pixelClassifier.ts Stroke). */
export interface StrokeInput {
  classIndex: number;
  width: number;
  points: Array<[number, number]>;
}
/** Grey values min..max are this class (pixelClassifier.ts GreyRange). */
export interface GreyRangeInput {
  classIndex: number;
  min: number;
  max: number;
}
/** A trained classifier as JSON (pixelClassifier.ts PixelClassifier): opaque to the server. */
export type ClassifierJson = Record<string, unknown>;

export type ClassifierTask =
  | {
      kind: 'train';
      image: Uint8Array;
      /** Class colours (#rrggbb), one per class. */
      colours: string[];
      strokes?: StrokeInput[];
      greyRanges?: GreyRangeInput[] | null;
      otherClass?: number;
    }
  | { kind: 'apply'; image: Uint8Array; colours: string[]; classifier: ClassifierJson };

export interface ClassifierTaskResult {
  classifier: ClassifierJson;
  width: number;
  height: number;
  /** RGBA PNG of the class colours. */
  overlay: Uint8Array;
  /** % of the image per class. */
  fractions: number[];
  samples: number;
  ms: number;
}

export class ClassifierTaskError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface ClassifierWorker {
  run(task: ClassifierTask): Promise<ClassifierTaskResult>;
  close(): Promise<void>;
}

export function createClassifierWorker(): ClassifierWorker {
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<number, { resolve: (r: ClassifierTaskResult) => void; reject: (e: Error) => void }>();
  const start = () => {
    const w = new Worker(new URL('./worker-entry.mjs', import.meta.url));
    w.unref();
    w.on('message', (m: { id: number; ok: boolean; result?: ClassifierTaskResult; error?: { code: string; message: string } }) => {
      const p = pending.get(m.id);
      pending.delete(m.id);
      if (!p) return;
      if (m.ok && m.result) p.resolve(m.result);
      else p.reject(new ClassifierTaskError(m.error?.code ?? 'ANALYSIS_FAILED', m.error?.message ?? 'classifier failed'));
    });
    const fail = (err: Error) => {
      for (const p of pending.values()) p.reject(new ClassifierTaskError('ANALYSIS_FAILED', `classifier worker died: ${err.message}`));
      pending.clear();
      worker = null;
    };
    w.on('error', fail);
    w.on('exit', (code) => {
      if (worker === w) fail(new Error(`exit code ${code}`));
    });
    return w;
  };
  return {
    run(task) {
      worker ??= start();
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker!.postMessage({ id, task });
      });
    },
    async close() {
      const w = worker;
      worker = null;
      if (w) await w.terminate();
    },
  };
}
