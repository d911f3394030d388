// npm run bench:profile — where a model's time goes: V8's sampling profiler over a few runs of one model on the
// speed bench's 4 MP image (images.ts), printed as milliseconds per run, by function: self time (the function's own
// code) and inclusive time (with what it calls). The network's inference shows as onnxruntime's backend (it runs in
// native code on the calling thread); OpenCV as wasm functions. PROFILE_MODEL (default grain-size), PROFILE_REPS
// (default 3), PROFILE_TOP (default 25 rows each).
import { Session } from 'node:inspector/promises';
import { runModel } from '../../packages/analysis/src/registry.js';
import { makeImage, sizes } from './images.js';

const MODEL = process.env.PROFILE_MODEL ?? 'grain-size';
const REPS = Number(process.env.PROFILE_REPS ?? 3);
const TOP = Number(process.env.PROFILE_TOP ?? 25);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

const { w, h } = sizes[0];
const png = await makeImage(MODEL, w, h);
await runModel(MODEL, undefined, png, {}); // warm-up: wasm, OCR, network sessions
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 250 });
await session.post('Profiler.start');
const wall: number[] = [];
for (let i = 0; i < REPS; i++) {
  const t0 = performance.now();
  await runModel(MODEL, undefined, png, {});
  wall.push(performance.now() - t0);
}
const { profile } = (await session.post('Profiler.stop')) as unknown as {
  profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
};
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const name = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}`.trim();
const self = new Map<string, number>(),
  inclusive = new Map<string, number>();
for (let i = 0; i < profile.samples.length; i++) {
  // a sample's time is the delta to the next sample
  const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000 / REPS;
  let id: number | undefined = profile.samples[i];
  const leaf = name(byId.get(id)!);
  self.set(leaf, (self.get(leaf) ?? 0) + ms);
  const seen = new Set<string>();
  for (; id !== undefined; id = parent.get(id)) {
    const k = name(byId.get(id)!);
    if (seen.has(k)) continue; // recursion counts once
    seen.add(k);
    inclusive.set(k, (inclusive.get(k) ?? 0) + ms);
  }
}
const table = (title: string, m: Map<string, number>) => {
  console.log(`\n${title} (ms per run)`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${v.toFixed(0).padStart(6)}  ${k}`);
};
console.log(`${MODEL}, ${w}×${h}, ${REPS} runs: wall ${wall.map((t) => t.toFixed(0)).join(', ')} ms (profiled: slower than bench:analysis)`);
table('self time', self);
table('inclusive time', inclusive);
process.exit(0);
