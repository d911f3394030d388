import { describe, expect, it } from 'vitest';
import { createAnalysisPool } from './pool.js';
import { poreImage } from './synth/index.js';

describe('worker pool', () => {
  it('runs models in worker threads in parallel and returns files and typed errors', async () => {
    const pool = createAnalysisPool({ size: 2 });
    try {
      const a = await poreImage({ width: 400, height: 300, count: 20, seed: 1, pixelSizeUm: 1 });
      const b = await poreImage({ width: 400, height: 300, count: 30, seed: 2, pixelSizeUm: 1 });
      const [ra, rb] = await Promise.all([
        pool.run('porosity', '20250101', a.png, { magnification: { unit: 'µm', number: 100, length: 100 } }),
        pool.run('porosity', '20241025', b.png, {}),
      ]);
      expect(ra.version).toBe('20250101');
      expect(rb.version).toBe('20241025');
      expect(Math.abs(Number(ra.measurements.areaFractionPercent) - a.truth.areaFractionPercent)).toBeLessThan(0.5);
      expect(Buffer.isBuffer(ra.files[0].data)).toBe(true);
      await expect(pool.run('porosity', undefined, Buffer.from('nope'), {})).rejects.toMatchObject({ code: 'UNSUPPORTED_IMAGE' });
      await expect(pool.run('nope', undefined, a.png, {})).rejects.toMatchObject({ code: 'UNKNOWN_MODEL' });
    } finally {
      await pool.close();
    }
  }, 60_000);
});
