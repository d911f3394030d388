import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { grainImage } from '../synth/index.js';
import { runModel } from '../registry.js';

const num = (v: unknown) => Number(v);
const calibrated = { magnification: { unit: 'µm' as const, number: 50, length: 100 } };

describe('grain boundaries of either polarity (20261123)', () => {
  it('measures bright boundaries (as in BSE images) like dark ones; 20250101 traced the shading beside them', async () => {
    const s = await grainImage({ width: 700, height: 500, grainPx: 40, pixelSizeUm: 0.5, noise: 5, seed: 13 });
    const bright = await sharp(s.png).negate({ alpha: false }).png().toBuffer();
    const m = (await runModel('grain-size', '20261123', bright, calibrated)).measurements;
    expect(Math.abs(num(m.astmGPlanimetric) - s.truth.astmGPlanimetric)).toBeLessThan(0.3);
    expect(Math.abs(num(m.astmGIntercept) - s.truth.astmGIntercept)).toBeLessThan(0.3);
    const old = (await runModel('grain-size', '20250101', bright, calibrated)).measurements;
    const oldError = Math.abs(num(old.astmGPlanimetric) - s.truth.astmGPlanimetric);
    expect(oldError).toBeGreaterThan(0.3);
    expect(Math.abs(num(m.astmGPlanimetric) - s.truth.astmGPlanimetric)).toBeLessThan(oldError / 3);
  }, 60_000);
});
