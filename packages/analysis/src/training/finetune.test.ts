import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initCv } from '../cv.js';
import { decodeImage, decodeMask } from '../image.js';
import { terminateOcr } from '../ocr.js';
import { CENTRED_INPUT, networkSession, runTiled } from '../learned/network.js';
import { NETWORK } from '../learned/tunables.js';
import { tintGrainImage } from '../synth/tint.js';
import { fineTune, trainingAvailable, TrainingError, type FineTuneImage, type FineTuneProgress } from './finetune.js';
import { boundaryFScore, engineVersionOf, LEARNED_ENGINE_VERSION, maskTrace, readMask } from './validation.js';

const dir = mkdtempSync(path.join(tmpdir(), 'lamella-finetune-'));
const canTrain = await trainingAvailable();
const W = 256,
  H = 192;

/**
 * An uncompressed little-endian 16-bit TIFF of `samples` samples a pixel (chunky), as ImageJ or a label tool
 * saves one (sharp writes TIFFs at 8 bits only).
 */
function tiff16(file: string, w: number, h: number, samples: 1 | 3, pixels: Uint16Array): void {
  const data = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength);
  const tags: Array<[tag: number, type: 3 | 4, count: number, value: number]> = [];
  const n = 10;
  const ifd = 8;
  const bitsAt = ifd + 2 + n * 12 + 4;
  const dataAt = bitsAt + (samples > 1 ? samples * 2 : 0);
  tags.push([256, 3, 1, w], [257, 3, 1, h], [258, 3, samples, samples > 1 ? bitsAt : 16], [259, 3, 1, 1], [262, 3, 1, samples > 1 ? 2 : 1]);
  tags.push([273, 4, 1, dataAt], [277, 3, 1, samples], [278, 3, 1, h], [279, 4, 1, data.length], [284, 3, 1, 1]);
  const head = Buffer.alloc(dataAt);
  head.write('II*\0', 0, 'latin1');
  head.writeUInt32LE(ifd, 4);
  head.writeUInt16LE(n, ifd);
  tags.forEach(([tag, type, count, value], k) => {
    const at = ifd + 2 + k * 12;
    head.writeUInt16LE(tag, at);
    head.writeUInt16LE(type, at + 2);
    head.writeUInt32LE(count, at + 4);
    if (type === 3 && count === 1) head.writeUInt16LE(value, at + 8);
    else head.writeUInt32LE(value, at + 8);
  });
  for (let c = 0; c < (samples > 1 ? samples : 0); c++) head.writeUInt16LE(16, bitsAt + 2 * c);
  writeFileSync(file, Buffer.concat([head, data]));
}

/**
 * A tint-etched synthetic micrograph and its exact corrected mask: 0 where a neighbour differs, else 255 (an 8-bit
 * PNG) or, with `labels16`, the grain's label 1–600 in a 16-bit grey TIFF (most labels below 256: a reader that
 * reduces 16 bits to 8 would read them as boundary).
 */
async function corrected(id: string, seed: number, holdout: boolean, labels16 = false): Promise<FineTuneImage> {
  const s = await tintGrainImage({ width: W, height: H, grainPx: 30, seed, noise: 4, line: 0.4 });
  const mask = new Uint16Array(W * H);
  const L = s.labels;
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      const apart = (j: number) => j >= 0 && j < L.length && L[j] !== L[i];
      mask[i] = (x > 0 && apart(i - 1)) || (x < W - 1 && apart(i + 1)) || apart(i - W) || apart(i + W) ? 0 : labels16 ? (L[i] % 600) + 1 : 255;
    }
  const imagePath = path.join(dir, `${id}.png`),
    maskPath = path.join(dir, labels16 ? `${id}.mask.tif` : `${id}.mask.png`);
  writeFileSync(imagePath, s.png);
  if (labels16) tiff16(maskPath, W, H, 1, mask);
  else
    await sharp(Buffer.from(Uint8Array.from(mask)), { raw: { width: W, height: H, channels: 1 } })
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
  // b and the held-out c have 16-bit TIFF label masks: Python trains on b's, the validation reads c's
  images = [await corrected('a', 11, false), await corrected('b', 12, false, true), await corrected('c', 13, true, true)];
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

describe('the engine a trained network is validated in', () => {
  it('is the version it was trained from (a trained label counts as its base), else the current learned one', () => {
    expect(engineVersionOf('20261201')).toBe('20261201');
    expect(engineVersionOf('20261201-ft1')).toBe('20261201');
    expect(engineVersionOf('20261202-ft1-ft2')).toBe('20261202');
    // not a learned version, not a version at all: the current learned engine
    expect(engineVersionOf('20261127')).toBe(LEARNED_ENGINE_VERSION);
    expect(engineVersionOf('my-network')).toBe(LEARNED_ENGINE_VERSION);
    expect(engineVersionOf(undefined)).toBe(LEARNED_ENGINE_VERSION);
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

describe('16-bit masks are read at their depth, not reduced to 8 bits', () => {
  /** Labels 1 and 2 (boundary if reduced to the high byte), 256, 300, 65535 (0 if clipped to the low byte) and 0. */
  const row = [0, 1, 256, 300, 65535, 512, 2, 0];
  const w = row.length,
    h = 4;
  const expected = Array.from({ length: h }, () => row.map((v) => (v > 0 ? 1 : 0))).flat();
  const files: Record<string, string> = {};
  beforeAll(async () => {
    const grey = Uint16Array.from({ length: w * h }, (_, i) => row[i % w]);
    files.greyTiff = path.join(dir, 'grey16.tif');
    tiff16(files.greyTiff, w, h, 1, grey);
    files.rgbTiff = path.join(dir, 'rgb16.tif');
    tiff16(
      files.rgbTiff,
      w,
      h,
      3,
      Uint16Array.from({ length: w * h * 3 }, (_, i) => (i % 3 === 0 ? grey[i / 3] : 7)),
    );
    files.greyPng = path.join(dir, 'grey16.png');
    await sharp(grey, { raw: { width: w, height: h, channels: 1 } })
      .toColourspace('grey16')
      .png()
      .toFile(files.greyPng);
  });

  it('by the engine (decodeMask) and by the validation and the input check (readMask)', async () => {
    for (const [name, file] of Object.entries(files)) {
      const labels = await decodeMask(readFileSync(file), w, h);
      expect(Array.from(labels.subarray(0, w)), name).toEqual(row);
      const m = await readMask(file);
      expect(Array.from(m.mask), name).toEqual(expected);
    }
  });

  it.skipIf(!canTrain)('by the Python pipeline (training/lamella_train/masks.py), the same as the engine', () => {
    const training = fileURLToPath(new URL('../../../../training', import.meta.url));
    const out = execFileSync(
      '/usr/bin/python3',
      [
        '-c',
        'import json, sys\nfrom lamella_train.masks import read_mask\nprint(json.dumps({f: read_mask(f).astype(int).ravel().tolist() for f in sys.argv[1:]}))',
        ...Object.values(files),
      ],
      { cwd: training, encoding: 'utf8' },
    );
    const read = JSON.parse(out) as Record<string, number[]>;
    for (const [name, file] of Object.entries(files)) expect(read[file], name).toEqual(expected);
  });
});

describe('16-bit micrographs are stretched as the engine stretches them, not clipped', () => {
  it.skipIf(!canTrain)('by the Python pipeline (training/lamella_train/images.py), the same grey as decodeImage', async () => {
    // a 12-bit detector's range (1000–4000) with a few outliers: clipped at 255 it would be all white
    const w = 96,
      h = 64;
    const grey = Uint16Array.from({ length: w * h }, (_, i) => (i === 5 ? 0 : i === 7 ? 65535 : 1000 + ((i * 37) % 3000)));
    const files = { tiff: path.join(dir, 'micrograph16.tif'), png: path.join(dir, 'micrograph16.png') };
    tiff16(files.tiff, w, h, 1, grey);
    await sharp(grey, { raw: { width: w, height: h, channels: 1 } })
      .toColourspace('grey16')
      .png()
      .toFile(files.png);
    const training = fileURLToPath(new URL('../../../../training', import.meta.url));
    const out = execFileSync(
      '/usr/bin/python3',
      [
        '-c',
        'import json, sys\nfrom lamella_train.images import read_image_rgb\nprint(json.dumps({f: read_image_rgb(f)[..., 0].ravel().tolist() for f in sys.argv[1:]}))',
        ...Object.values(files),
      ],
      { cwd: training, encoding: 'utf8' },
    );
    const read = JSON.parse(out) as Record<string, number[]>;
    for (const file of Object.values(files)) {
      const engine = await decodeImage(readFileSync(file));
      expect(engine.bitDepth).toBe(16);
      const py = read[file];
      expect(py).toHaveLength(w * h);
      const worst = py.reduce((m, v, i) => Math.max(m, Math.abs(v - engine.data[i])), 0);
      expect(worst, file).toBeLessThanOrEqual(1);
      // the picture keeps its contrast: most pixels neither black nor white
      expect(py.filter((v) => v > 0 && v < 255).length).toBeGreaterThan(0.9 * w * h);
    }
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

    it('a network trained with a fixed input scale (train.py --input-scale) is run on the centred image and fine-tuned as it was trained', async () => {
      const training = fileURLToPath(new URL('../../../../training', import.meta.url));
      const centred = path.join(dir, 'centred.onnx');
      execFileSync('/usr/bin/python3', ['train.py', '--smoke', '--input-scale', '0.125', '--out', centred], { cwd: training, stdio: 'ignore' });
      const session = await networkSession(centred);
      expect(session.inputNames).toEqual([CENTRED_INPUT]);
      // the engine centres the image only: twice the contrast about mid-grey (no level clipped) reaches the network
      // as twice the input, where a network normalised per image sees the same input
      const w = 96,
        h = 64;
      const rgb = new Uint8Array(w * h * 3).map((_, i) => 64 + (((i * 37) % 251) >> 1));
      const stretched = rgb.map((v) => 2 * (v - 128) + 128);
      const maxDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);
      const perImage = await networkSession(NETWORK.grainFile);
      expect(maxDiff((await runTiled(perImage, rgb, w, h, null))[0], (await runTiled(perImage, stretched, w, h, null))[0])).toBeLessThan(1e-4);
      expect(maxDiff((await runTiled(session, rgb, w, h, null))[0], (await runTiled(session, stretched, w, h, null))[0])).toBeGreaterThan(1e-3);
      // fine-tuned from it: the candidate takes the same input, and its card the same scale
      const r = await fineTune(opts({ baseNetworkPath: centred, steps: 2 }));
      expect((await ort.InferenceSession.create(r.networkPath)).inputNames).toEqual([CENTRED_INPUT]);
      expect(r.card).toMatchObject({ inputScale: 0.125, parameters: { steps: 2 } });
    }, 120_000);

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
