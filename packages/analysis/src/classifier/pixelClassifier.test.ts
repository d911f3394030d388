import { describe, expect, it } from 'vitest';
import type { Gray } from '../image.js';
import { rng } from './forest.js';
import { applyClassifier, checkClassifier, greyRangeClassifier, trainClassifier, type Stroke } from './pixelClassifier.js';

/**
 * Two phases of nearly the same mean grey that differ in texture and size: round grains of phase B (mean 128,
 * smooth) in a matrix A (mean 118, strong fine noise), plus a brightness ramp across the image, so one grey
 * threshold cannot separate them; truth is known per pixel.
 */
function twoPhase(w: number, h: number, seed: number): { img: Gray; truth: Uint8Array } {
  const rand = rng(seed);
  const truth = new Uint8Array(w * h);
  const centres: Array<[number, number, number]> = [];
  for (let k = 0; k < 40; k++) centres.push([rand() * w, rand() * h, 8 + rand() * 14]);
  const data = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const inB = centres.some(([cx, cy, r]) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r);
      truth[i] = inB ? 1 : 0;
      const ramp = (x / w) * 30;
      const v = inB ? 128 + (rand() - 0.5) * 8 : 118 + (rand() - 0.5) * 70;
      data[i] = Math.max(0, Math.min(255, Math.round(v + ramp)));
    }
  return { img: { width: w, height: h, data }, truth };
}

/** Strokes along rows through pixels of known class: 10 short strokes per class. */
function strokesFor(truth: Uint8Array, w: number, h: number, seed: number): Stroke[] {
  const rand = rng(seed);
  const out: Stroke[] = [];
  for (const cls of [0, 1])
    for (let tries = 0, made = 0; made < 10 && tries < 10000; tries++) {
      const x = Math.floor(rand() * (w - 10)),
        y = Math.floor(rand() * h);
      let ok = true;
      for (let d = -2; d <= 8 && ok; d++)
        for (let e = -2; e <= 2 && ok; e++) ok = truth[Math.min(h - 1, Math.max(0, y + e)) * w + Math.max(0, x + d)] === cls;
      if (!ok) continue;
      out.push({
        classIndex: cls,
        width: 3,
        points: [
          [x, y],
          [x + 6, y],
        ],
      });
      made++;
    }
  return out;
}

const accuracy = (a: Uint8Array, b: Uint8Array) => {
  let ok = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) ok++;
  return ok / a.length;
};

describe('pixel classifier (features + random forest)', () => {
  it('learns a synthetic two-phase image from 20 strokes: > 95 % of the pixels right, on a second image too', () => {
    const w = 320,
      h = 240;
    const a = twoPhase(w, h, 11);
    const strokes = strokesFor(a.truth, w, h, 5);
    expect(strokes).toHaveLength(20);
    const { classifier, segmentation } = trainClassifier(a.img, strokes, 2, { seed: 1 });
    expect(accuracy(segmentation.labels, a.truth)).toBeGreaterThan(0.95);
    // the same recipe on another image of the material
    const b = twoPhase(w, h, 12);
    expect(accuracy(applyClassifier(classifier, b.img).labels, b.truth)).toBeGreaterThan(0.95);
  });

  it('survives a JSON round trip with the same segmentation, and trains reproducibly', () => {
    const w = 200,
      h = 160;
    const a = twoPhase(w, h, 3);
    const strokes = strokesFor(a.truth, w, h, 9);
    const one = trainClassifier(a.img, strokes, 2, { seed: 4 });
    const json = JSON.parse(JSON.stringify(one.classifier));
    checkClassifier(json);
    expect(Buffer.from(applyClassifier(json, a.img).labels)).toEqual(Buffer.from(one.segmentation.labels));
    const two = trainClassifier(a.img, strokes, 2, { seed: 4 });
    expect(JSON.stringify(two.classifier)).toBe(JSON.stringify(one.classifier));
  });

  it('works at a reduced working scale and upsamples the probabilities to the full image', () => {
    const w = 400,
      h = 300;
    const a = twoPhase(w, h, 21);
    const strokes = strokesFor(a.truth, w, h, 2);
    const { segmentation } = trainClassifier(a.img, strokes, 2, { maxWorkingPixels: 40_000 });
    expect(segmentation.width).toBe(w);
    expect(accuracy(segmentation.labels, a.truth)).toBeGreaterThan(0.9);
  });

  it('refuses strokes that leave a class unmarked, and classifiers that are not its own', () => {
    const a = twoPhase(160, 120, 1);
    expect(() =>
      trainClassifier(
        a.img,
        [
          {
            classIndex: 0,
            width: 3,
            points: [
              [1, 1],
              [9, 9],
            ],
          },
        ],
        2,
      ),
    ).toThrow(/Class 2 has no stroke/);
    expect(() => checkClassifier({ format: 'x' })).toThrow(/format/);
    const one = trainClassifier(a.img, strokesFor(a.truth, 160, 120, 1), 2, { nTrees: 2 });
    const broken = JSON.parse(JSON.stringify(one.classifier));
    broken.forest.trees[0].left[0] = 0;
    expect(() => checkClassifier(broken)).toThrow(/link/);
  });

  it('grey ranges: the first range holding the grey names the class, else the other class', () => {
    const img: Gray = { width: 3, height: 1, data: Uint8Array.from([10, 100, 200]) };
    const c = greyRangeClassifier(
      3,
      [
        { classIndex: 1, min: 0, max: 50 },
        { classIndex: 2, min: 150, max: 255 },
      ],
      0,
      0,
    );
    expect([...applyClassifier(c, img).labels]).toEqual([1, 0, 2]);
  });
});
