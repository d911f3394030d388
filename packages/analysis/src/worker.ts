import { parentPort } from 'node:worker_threads';
import { runModel } from './registry.js';
import type { ModelVersion, RunOptions } from './types.js';

interface Job {
  id: number;
  model: string;
  version?: ModelVersion;
  image: Uint8Array;
  settings?: unknown;
  opts?: RunOptions;
}

parentPort!.on('message', async (job: Job) => {
  try {
    const r = await runModel(
      job.model,
      job.version,
      Buffer.from(job.image.buffer, job.image.byteOffset, job.image.byteLength),
      job.settings,
      job.opts ?? {},
    );
    const files = r.files.map((f) => ({ filename: f.filename, data: new Uint8Array(f.data.buffer, f.data.byteOffset, f.data.byteLength) }));
    parentPort!.postMessage({ id: job.id, ok: true, result: { ...r, files } });
  } catch (e) {
    const err = e as { code?: string; message?: string; details?: unknown };
    parentPort!.postMessage({
      id: job.id,
      ok: false,
      error: { code: err.code ?? 'ANALYSIS_FAILED', message: err.message ?? String(e), details: err.details },
    });
  }
});
