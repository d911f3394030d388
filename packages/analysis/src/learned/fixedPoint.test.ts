import { describe, expect, it } from 'vitest';
import { toFixedPoint } from './grains.js';
import { WORKING_SCALE } from './tunables.js';

// A model of the network's answer: the mean intercept it reads (image px) grows with the scale it looks at (faint
// lines are lost when the image is enlarged), so the scale asked for from one pass is not the one its own pass asks for.
const intercept = (f: number) => 30 + 10 * (f - 1);
const ask = (p: { f: number }) => WORKING_SCALE.targetInterceptPx / intercept(p.f);
// where the pass asks for its own scale: f · I(f) = target, i.e. 10f² + 20f − 32 = 0
const fixed = (-20 + Math.sqrt(400 + 4 * 10 * WORKING_SCALE.targetInterceptPx)) / 20;

function runner() {
  const scales: number[] = [];
  return {
    scales,
    run: async (f: number) => {
      scales.push(f);
      return { f };
    },
  };
}

describe('the working scale as a fixed point (grain size 20261209)', () => {
  it('steps from either side to a scale whose own pass asks for it, within the tolerance', async () => {
    for (const start of [1.3, 0.8]) {
      const { scales, run } = runner();
      const r = await toFixedPoint({ f: start }, ask, run);
      expect(Math.abs(ask(r) / r.f - 1)).toBeLessThanOrEqual(WORKING_SCALE.fixedPointTolerance);
      expect(Math.abs(r.f / fixed - 1)).toBeLessThan(WORKING_SCALE.fixedPointTolerance);
      // damped: each step goes to the geometric mean of the pass's scale and the one it asked for
      expect(scales[0]).toBeCloseTo(Math.sqrt(start * ask({ f: start })), 10);
      expect(scales.length).toBeGreaterThan(0);
      expect(scales.length).toBeLessThanOrEqual(WORKING_SCALE.fixedPointSteps);
    }
  });

  it('keeps a pass that already asks for its own scale (no extra pass)', async () => {
    const { scales, run } = runner();
    const r = await toFixedPoint({ f: fixed }, ask, run);
    expect(r.f).toBe(fixed);
    expect(scales).toEqual([]);
  });

  it('stops after fixedPointSteps passes when the answer never settles', async () => {
    const { scales, run } = runner();
    // every pass asks for twice its own scale
    const r = await toFixedPoint({ f: 1 }, (p) => 2 * p.f, run);
    expect(scales).toHaveLength(WORKING_SCALE.fixedPointSteps);
    expect(r.f).toBeCloseTo(Math.SQRT2 ** WORKING_SCALE.fixedPointSteps, 10);
  });
});
