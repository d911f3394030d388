// Strokes as a user marks classes for a recipe, simulated from a truth map, for tests.
import { rng } from '../random.js';
import type { Stroke } from '../classifier/pixelClassifier.js';

/**
 * 10 short strokes per class (0 and 1), 3 px wide and 6 px long along a row, at seeded places where the class holds
 * 2 px around the whole stroke.
 */
export function strokesFor(truth: Uint8Array, w: number, h: number, seed: number): Stroke[] {
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
