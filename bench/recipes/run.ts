// bench:recipes (issue 22): a recipe trained from 20 strokes on a 4 MP multilayer cross-section, applied to a
// second image of the material. Prints the training time (features, forest, preview), the apply time and how
// many pixels of the oxide class are right. Budget on the 2-core machine: train ≤ 10 s, apply ≤ 2 s.
import { applyClassifier, trainClassifier } from '../../packages/analysis/src/classifier/pixelClassifier.ts';
import { multilayerGray, multilayerStrokes } from '../../packages/analysis/src/synth/multilayer.ts';

const W = Number(process.env.BENCH_W ?? 2048),
  H = Number(process.env.BENCH_H ?? 2048);
const a = multilayerGray({ width: W, height: H, seed: 7, oxidePx: 40 * (H / 600) });
const b = multilayerGray({ width: W, height: H, seed: 8, oxidePx: 36 * (H / 600) });
const strokes = multilayerStrokes(a.truth, W, H);
const iou = (labels: Uint8Array, truth: Uint8Array) => {
  let inter = 0,
    union = 0;
  for (let i = 0; i < labels.length; i++) {
    const p = labels[i] === 0,
      t = truth[i] === 2;
    if (p && t) inter++;
    if (p || t) union++;
  }
  return inter / union;
};
const c0 = process.cpuUsage();
const t0 = performance.now();
const trained = trainClassifier(a, strokes, 2, { seed: 1 });
const t1 = performance.now();
const c1 = process.cpuUsage();
const seg = applyClassifier(trained.classifier, b);
const t2 = performance.now();
const c2 = process.cpuUsage();
const cpu = (a: NodeJS.CpuUsage, b: NodeJS.CpuUsage) => ((b.user - a.user + b.system - a.system) / 1e6).toFixed(2);
const json = JSON.stringify(trained.classifier);
console.log(`image ${W}×${H} (${((W * H) / 1e6).toFixed(1)} MP), ${strokes.length} strokes, ${trained.samples} samples`);
console.log(
  `train ${((t1 - t0) / 1000).toFixed(2)} s (features ${(trained.ms.features / 1000).toFixed(2)} s, forest ${(trained.ms.train / 1000).toFixed(2)} s, preview ${(trained.ms.predict / 1000).toFixed(2)} s)`,
);
console.log(`apply ${((t2 - t1) / 1000).toFixed(2)} s`);
console.log(`CPU time (what an idle core takes: one thread): train ${cpu(c0, c1)} s, apply ${cpu(c1, c2)} s`);
console.log(
  `oxide IoU: training image ${iou(trained.segmentation.labels, a.truth.labels).toFixed(3)}, second image ${iou(seg.labels, b.truth.labels).toFixed(3)}`,
);
console.log(`classifier JSON ${(json.length / 1024).toFixed(0)} KiB`);
