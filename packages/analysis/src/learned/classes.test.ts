import { describe, expect, it } from 'vitest';
import { rng as random } from '../random.js';
import { CLASS_NETWORKS, classNetwork, segmentClasses } from './classes.js';

function grey(g: Float32Array): Uint8Array {
  const rgb = new Uint8Array(g.length * 3);
  for (let i = 0; i < g.length; i++) rgb[3 * i] = rgb[3 * i + 1] = rgb[3 * i + 2] = Math.max(0, Math.min(255, Math.round(g[i])));
  return rgb;
}

describe('the dark-phase network (issue 22 item 3)', () => {
  it.each([
    ['20261202', 1],
    ['20261207', 0.5],
  ])(
    'dark phase (%s, working scale %s): round dark precipitates in a brighter matrix come out as the dark-phase class, near their true area',
    async (version, scale) => {
      const w = 192,
        h = 160;
      const r = random(7);
      const truth = new Uint8Array(w * h);
      for (let k = 0; k < 28; k++) {
        const cx = r() * w,
          cy = r() * h,
          rad = 6 + r() * 14;
        for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if ((x - cx) ** 2 + (y - cy) ** 2 < rad * rad) truth[y * w + x] = 1;
      }
      const g = new Float32Array(w * h);
      for (let i = 0; i < g.length; i++) g[i] = (truth[i] ? 95 : 165) + (r() - 0.5) * 16;
      const valid = new Uint8Array(w * h).fill(1);
      for (let x = 0; x < w; x++) valid[x] = 0; // first row excluded
      const seg = await segmentClasses('phase', version, grey(g), w, h, valid);
      expect(classNetwork('phase', version).workingScale).toBe(scale);
      expect(seg.probability).toHaveLength(classNetwork('phase', version).classes.length);
      expect(seg.scale).toBe(scale);
      for (let i = 0; i < w * h; i += 97) expect(seg.probability[0][i] + seg.probability[1][i]).toBeCloseTo(1, 3);
      for (let x = 0; x < w; x++) expect(seg.classes[x]).toBe(0);
      let agree = 0,
        dark = 0,
        real = 0,
        n = 0;
      for (let i = w; i < w * h; i++) {
        n++;
        if (seg.classes[i] === truth[i]) agree++;
        dark += seg.classes[i];
        real += truth[i];
      }
      expect(agree / n).toBeGreaterThan(0.9);
      expect(Math.abs(100 * (dark - real)) / n).toBeLessThan(5);
    },
  );

  it('each version keeps its network: 20261202–20261204 the one trained at full scale, 20261207 on the one at half scale', () => {
    expect(classNetwork('phase', '20261202').file).toBe('dark-phase.onnx');
    expect(classNetwork('phase', '20261204').file).toBe('dark-phase.onnx');
    expect(classNetwork('phase', '20261207').file).toBe('dark-phase-20261207.onnx');
    expect(classNetwork('phase', '20261201')).toBe(CLASS_NETWORKS.phase[0][1]);
  });
});
