// Worker-thread pool: one analysis per worker at a time, so one process uses every core.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { AnalysisError, type AnalysisErrorCode } from './errors.js';
import type { ModelVersion, RunOptions, RunResult } from './types.js';

export interface AnalysisPool {
  /** Runs `modelName` (version overrides settings.modelVersion) on encoded image bytes. */
  run(
    modelName: string,
    version: ModelVersion | undefined,
    imageBytes: Uint8Array | Buffer,
    settings?: unknown,
    opts?: RunOptions,
  ): Promise<RunResult>;
  /** Number of worker threads. */
  readonly size: number;
  /** Jobs waiting for a free worker. */
  readonly pending: number;
  close(): Promise<void>;
}

interface Task {
  id: number;
  msg: unknown;
  transfer: ArrayBuffer[];
  resolve: (r: RunResult) => void;
  reject: (e: Error) => void;
}

export function createAnalysisPool(options: { size?: number; resourceLimits?: { maxOldGenerationSizeMb?: number } } = {}): AnalysisPool {
  const size = Math.max(1, options.size ?? os.availableParallelism?.() ?? os.cpus().length);
  const entry = new URL('./worker-entry.mjs', import.meta.url);
  const idle: Worker[] = [];
  const busy = new Map<Worker, Task>();
  const queue: Task[] = [];
  let nextId = 1;
  let closed = false;

  const spawn = () => {
    // the networks' threads share the cores among the workers (ONNX_THREADS, when set, wins)
    const onnxThreads = process.env.ONNX_THREADS ?? String(Math.max(1, Math.floor((os.availableParallelism?.() ?? os.cpus().length) / size)));
    const w = new Worker(entry, { resourceLimits: options.resourceLimits, env: { ...process.env, ONNX_THREADS: onnxThreads } });
    w.on(
      'message',
      (m: {
        id: number;
        ok: boolean;
        result?: RunResult & { files: { filename: string; data: Uint8Array }[] };
        error?: { code: AnalysisErrorCode; message: string; details?: unknown };
      }) => {
        const t = busy.get(w);
        busy.delete(w);
        if (t) {
          if (m.ok && m.result) {
            const r = m.result;
            t.resolve({
              ...r,
              files: r.files.map((f) => ({ filename: f.filename, data: Buffer.from(f.data.buffer, f.data.byteOffset, f.data.byteLength) })),
            });
          } else t.reject(new AnalysisError(m.error?.code ?? 'ANALYSIS_FAILED', m.error?.message ?? 'analysis failed', m.error?.details));
        }
        idle.push(w);
        pump();
      },
    );
    const fail = (err: Error) => {
      const t = busy.get(w);
      busy.delete(w);
      const i = idle.indexOf(w);
      if (i >= 0) idle.splice(i, 1);
      if (t) t.reject(new AnalysisError('ANALYSIS_FAILED', `analysis worker died: ${err.message}`));
      if (!closed) {
        spawn();
        pump();
      }
    };
    w.on('error', fail);
    w.on('exit', (code) => {
      if (!closed && (busy.has(w) || idle.includes(w))) fail(new Error(`exit code ${code}`));
    });
    idle.push(w);
  };
  const pump = () => {
    while (idle.length && queue.length) {
      const w = idle.pop()!;
      const t = queue.shift()!;
      busy.set(w, t);
      w.postMessage(t.msg, t.transfer);
    }
  };
  for (let i = 0; i < size; i++) spawn();

  return {
    size,
    get pending() {
      return queue.length;
    },
    run(modelName, version, imageBytes, settings, opts) {
      if (closed) return Promise.reject(new Error('pool closed'));
      // copy so the caller's buffer is not detached by the transfer
      const image = new Uint8Array(imageBytes.byteLength);
      image.set(imageBytes);
      const o: RunOptions | undefined = opts ? { ...opts, masks: opts.masks ? new Uint8Array(opts.masks) : undefined } : undefined;
      return new Promise<RunResult>((resolve, reject) => {
        const id = nextId++;
        queue.push({ id, msg: { id, model: modelName, version, image, settings, opts: o }, transfer: [image.buffer], resolve, reject });
        pump();
      });
    },
    async close() {
      closed = true;
      for (const t of queue.splice(0)) t.reject(new Error('pool closed'));
      const all = [...idle, ...busy.keys()];
      await Promise.all(all.map((w) => w.terminate()));
    },
  };
}
