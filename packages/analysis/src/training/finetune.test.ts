import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initCv } from '../cv.js';
import { terminateOcr } from '../ocr.js';
import { tintGrainImage } from '../synth/tint.js';
import { fineTune, trainingAvailable, TrainingError, type FineTuneImage, type FineTuneProgress } from './finetune.js';
import { boundaryFScore, maskTrace } from './validation.js';

const dir = mkdtempSync(path.join(tmpdir(), 'lamella-finetune-'));
const canTrain = await trainingAvailable();
const W = 256,
  H = 192;

/** A tint-etched synthetic micrograph and its exact corrected mask (255 grain interior, 0 where a neighbour differs). */
async function corrected(id: string, seed: number, holdout: boolean): Promise<FineTuneImage> {
  const s = await tintGrainImage({ width: W, height: H, grainPx: 30, seed, noise: 4, line: 0.4 });
  const mask = new Uint8Array(W * H);
  const L = s.labels;
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      const apart = (j: number) => j >= 0 && j < L.length && L[j] !== L[i];
      mask[i] = (x > 0 && apart(i - 1)) || (x < W - 1 && apart(i + 1)) || apart(i - W) || apart(i + W) ? 0 : 255;
    }
  const imagePath = path.join(dir, `${id}.png`),
    maskPath = path.join(dir, `${id}.mask.png`);
  writeFileSync(imagePath, s.png);
  await sharp(Buffer.from(mask), { raw: { width: W, height: H, channels: 1 } })
    .png()
    .toFile(maskPath);
  return { id, imagePath, maskPath, holdout };
}

const greyPng = (file: string, w: number, h: number, v: number) =>
  sharp(Buffer.alloc(w * h, v), { raw: { width: w, height: h, channels: 1 } })
    .png()
    .toFile(file);

let images: FineTuneImage[] = [];
beforeAll(async () => {
  await initCv();
  images = [await corrected('a', 11, false), await corrected('b', 12, false), await corrected('c', 13, true)];
});
afterAll(async () => {
  await terminateOcr();
  rmSync(dir, { recursive: true, force: true });
});

const opts = (over: Partial<Parameters<typeof fineTune>[0]> = {}): Parameters<typeof fineTune>[0] => ({
  model: 'grain-size',
  baseVersion: '20261201',
  candidateVersion: '20261201-ft1',
  steps: 3,
  seed: 7,
  workDir: mkdtempSync(path.join(dir, 'run-')),
  images,
  ...over,
});

/** Python processes still running with this work dir in their command line (the manifest lies in it). */
function pythonsOf(workDir: string): number[] {
  const pids: number[] = [];
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      if (readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(workDir)) pids.push(Number(p));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

describe('fine-tune inputs are checked before Python starts', () => {
  // a python that does not exist: an input error comes before it would be noticed (TRAINING_UNAVAILABLE)
  const python = '/nonexistent/python3';
  const refused = async (o: Parameters<typeof fineTune>[0], field: string, message: RegExp) => {
    const err = await fineTune({ ...o, python }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TrainingError);
    expect(err).toMatchObject({ code: 'INVALID_TRAINING_INPUT', field });
    expect((err as Error).message).toMatch(message);
    expect(existsSync(path.join(o.workDir, 'manifest.json'))).toBe(false);
  };

  it('refuses a missing mask, a mask of another size, no images, no training image and no held-out image', async () => {
    await refused(opts({ images: [{ ...images[0], maskPath: path.join(dir, 'nope.png') }, images[2]] }), 'images[0].maskPath', /does not exist/);
    const small = path.join(dir, 'small-mask.png');
    await greyPng(small, W - 8, H, 255);
    await refused(opts({ images: [images[0], { ...images[2], maskPath: small }] }), 'images[1].maskPath', /mask is 248×192 px, the image 256×192 px/);
    await refused(opts({ images: [] }), 'images', /no images/);
    await refused(opts({ images: images.map((i) => ({ ...i, holdout: true })) }), 'images', /no training image/);
    await refused(opts({ images: images.map((i) => ({ ...i, holdout: false })) }), 'images', /no held-out image/);
  });

  it('refuses other models, bad steps and seeds, duplicate ids, an empty mask and a missing base network', async () => {
    await refused(opts({ model: 'porosity' as 'grain-size' }), 'model', /grain-size/);
    await refused(opts({ steps: 0 }), 'steps', /steps must be an integer/);
    await refused(opts({ steps: 2.5 }), 'steps', /steps must be an integer/);
    await refused(opts({ seed: -1 }), 'seed', /seed/);
    await refused(opts({ images: [images[0], { ...images[1], id: 'a' }, images[2]] }), 'images[1].id', /given twice/);
    const empty = path.join(dir, 'empty-mask.png');
    await greyPng(empty, W, H, 0);
    await refused(opts({ images: [{ ...images[0], maskPath: empty }, images[2]] }), 'images[0].maskPath', /no grain interior/);
    await refused(opts({ baseNetworkPath: path.join(dir, 'none.onnx') }), 'baseNetworkPath', /does not exist/);
  });

  it('knows when Python cannot train', async () => {
    expect(await trainingAvailable(python)).toBe(false);
  });
});

describe('boundary F-score of mask traces', () => {
  it('is 1 for the same mask, stays 1 within 2 px and drops for a boundary 4 px away', () => {
    const w = 40,
      h = 20;
    const mask = (cut: number) => new Uint8Array(w * h).map((_, i) => (i % w === cut ? 0 : 1));
    const t = maskTrace(mask(20), w, h);
    expect(boundaryFScore(t, t, w, h).f).toBe(1);
    expect(boundaryFScore(maskTrace(mask(22), w, h), t, w, h).f).toBe(1);
    expect(boundaryFScore(maskTrace(mask(24), w, h), t, w, h).f).toBe(0);
  });
});

describe.skipIf(!canTrain)(
  `fine-tuning on CPU${canTrain ? '' : ' (skipped: /usr/bin/python3 cannot import torch and onnx — bash training/setup.sh)'}`,
  () => {
    it('trains a few steps: progress in order, a candidate network ONNX Runtime loads, a card and held-out validation', async () => {
      const seen: FineTuneProgress[] = [];
      const o = opts();
      const r = await fineTune({ ...o, onProgress: (p) => seen.push(p) });
      expect(seen.map((p) => p.step)).toEqual([1, 2, 3]);
      expect(seen.every((p) => p.steps === 3 && Number.isFinite(p.loss) && p.elapsedS >= 0 && p.etaS >= 0)).toBe(true);
      expect(seen[2].etaS).toBe(0);
      // the candidate has the shipped network's input and output and runs
      expect(r.networkPath).toBe(path.join(o.workDir, 'out', 'network.onnx'));
      const session = await ort.InferenceSession.create(r.networkPath);
      expect(session.inputNames).toEqual(['image']);
      expect(session.outputNames).toEqual(['probability']);
      const out = await session.run({ image: new ort.Tensor('float32', new Float32Array(3 * 64 * 64).fill(0.1), [1, 3, 64, 64]) });
      expect(out.probability.dims).toEqual([1, 2, 64, 64]);
      // the card names the file, its base and the images
      const sha = createHash('sha256').update(readFileSync(r.networkPath)).digest('hex');
      expect(r.card).toMatchObject({
        sha256: sha,
        kind: 'fine-tune',
        baseVersion: '20261201',
        candidateVersion: '20261201-ft1',
        images: { trainedOn: ['a', 'b'], count: 2, heldOut: ['c'] },
        parameters: { steps: 3, seed: 7 },
      });
      expect(JSON.parse(readFileSync(path.join(o.workDir, 'out', 'card.json'), 'utf8')).sha256).toBe(sha);
      // validation on the held-out image, base and candidate
      expect(r.validation.images.map((i) => i.id)).toEqual(['c']);
      for (const s of [r.validation.images[0].base, r.validation.images[0].candidate, r.validation.total.base, r.validation.total.candidate]) {
        expect(s.fScore).toBeGreaterThanOrEqual(0);
        expect(s.fScore).toBeLessThanOrEqual(1);
      }
      // the shipped network segments these tint grains: its boundaries lie on the mask's and its G is close
      expect(r.validation.images[0].base.fScore).toBeGreaterThan(0.6);
      expect(r.validation.images[0].base.deltaG).toBeLessThan(0.6);
      expect(r.validation.total.base).toEqual({ fScore: r.validation.images[0].base.fScore, deltaG: r.validation.images[0].base.deltaG });
    }, 90_000);

    it('cancels: the abort kills the Python process and the promise rejects with an AbortError', async () => {
      const ac = new AbortController();
      const o = opts({ steps: 500 });
      const steps: number[] = [];
      const err = await fineTune({
        ...o,
        signal: ac.signal,
        onProgress: (p) => {
          steps.push(p.step);
          ac.abort();
        },
      }).catch((e: unknown) => e);
      expect(err).toMatchObject({ name: 'AbortError', code: 'TRAINING_CANCELLED' });
      expect(steps[0]).toBe(1);
      expect(steps.length).toBeLessThan(500);
      expect(pythonsOf(o.workDir)).toEqual([]);
      expect(existsSync(path.join(o.workDir, 'out', 'network.onnx'))).toBe(false);
      // an already aborted signal: refused at once
      await expect(fineTune({ ...opts(), signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    }, 60_000);
  },
);
