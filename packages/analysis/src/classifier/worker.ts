// The classifier worker: trains and applies recipes' classifiers off the caller's event loop (trainer.ts).
import { parentPort } from 'node:worker_threads';
import { decodeImage, encodePng } from '../image.js';
import {
  applyClassifier,
  checkClassifier,
  ClassifierError,
  greyRangeClassifier,
  trainClassifier,
  type PixelClassifier,
  type Segmentation,
} from './pixelClassifier.js';
import type { ClassifierTask, ClassifierTaskResult } from './trainer.js';

async function preview(seg: Segmentation, colours: string[]): Promise<{ overlay: Buffer; fractions: number[] }> {
  const n = seg.width * seg.height;
  const rgba = new Uint8Array(n * 4);
  const cols = colours.map((c) => {
    const v = /^#?([0-9a-f]{6})$/i.exec(c)?.[1] ?? '808080';
    return [parseInt(v.slice(0, 2), 16), parseInt(v.slice(2, 4), 16), parseInt(v.slice(4, 6), 16)];
  });
  const counts = new Float64Array(colours.length);
  for (let i = 0; i < n; i++) {
    const c = seg.labels[i];
    counts[c]++;
    const col = cols[c] ?? [128, 128, 128];
    rgba[i * 4] = col[0];
    rgba[i * 4 + 1] = col[1];
    rgba[i * 4 + 2] = col[2];
    rgba[i * 4 + 3] = 255;
  }
  return { overlay: await encodePng(rgba, seg.width, seg.height, 4), fractions: Array.from(counts, (c) => (100 * c) / n) };
}

async function run(task: ClassifierTask): Promise<ClassifierTaskResult> {
  const t0 = performance.now();
  const img = await decodeImage(task.image);
  let classifier: PixelClassifier;
  let seg: Segmentation;
  let samples = 0;
  if (task.kind === 'apply') {
    const c: unknown = task.classifier;
    checkClassifier(c);
    classifier = c;
    seg = applyClassifier(classifier, img);
  } else if (task.greyRanges?.length) {
    classifier = greyRangeClassifier(task.colours.length, task.greyRanges, task.otherClass ?? task.colours.length - 1);
    seg = applyClassifier(classifier, img);
  } else {
    const trained = trainClassifier(img, task.strokes ?? [], task.colours.length, { seed: 1 });
    classifier = trained.classifier;
    seg = trained.segmentation;
    samples = trained.samples;
  }
  const p = await preview(seg, task.colours);
  return {
    classifier: classifier as unknown as Record<string, unknown>,
    width: seg.width,
    height: seg.height,
    samples,
    ms: Math.round(performance.now() - t0),
    ...p,
  };
}

parentPort!.on('message', async (m: { id: number; task: ClassifierTask }) => {
  try {
    const result = await run(m.task);
    parentPort!.postMessage({ id: m.id, ok: true, result });
  } catch (e) {
    const err = e as { code?: string; message?: string };
    parentPort!.postMessage({
      id: m.id,
      ok: false,
      error: { code: e instanceof ClassifierError ? err.code : (err.code ?? 'ANALYSIS_FAILED'), message: err.message ?? String(e) },
    });
  }
});
