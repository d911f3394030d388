import { describe, expect, it } from 'vitest';
import { histogram, niceBins, niceStep } from './common.js';

describe('histogram bins on round edges', () => {
  it('steps 1-2-5', () => {
    expect([0.07, 0.1, 0.13, 0.3, 0.9, 1, 1.2, 3, 7, 12, 26, 74.8, 480].map(niceStep)).toEqual([
      0.1, 0.1, 0.2, 0.5, 1, 1, 2, 5, 10, 20, 50, 100, 500,
    ]);
    expect(niceStep(0)).toBe(1);
    expect(niceStep(NaN)).toBe(1);
  });

  it('starts at a multiple of the step and covers min…max in at most bins + 1 bins', () => {
    for (const [lo, hi, bins] of [
      [12.3456, 760.1234, 10],
      [0.031, 0.987, 8],
      [3.2, 3.2, 10],
      [0, 100, 10],
      [-4.5, 17, 6],
    ]) {
      const { start, step, count } = niceBins(lo, hi, bins);
      expect(start).toBeLessThanOrEqual(lo);
      expect(start + count * step).toBeGreaterThanOrEqual(hi);
      // about as many bins as asked for
      if (hi > lo) expect(count).toBeGreaterThanOrEqual(Math.floor(bins * 0.6));
      expect(count).toBeLessThanOrEqual(Math.ceil(bins * 1.6) + 1);
      expect(Math.abs(start / step - Math.round(start / step))).toBeLessThan(1e-9);
    }
    expect(niceBins(0, 100, 10)).toEqual({ start: 0, step: 10, count: 10 });
    // (0…120)/10 = 12: steps of 20 give 6 bins, of 10 give 12: the nearer to 10 is taken
    expect(niceBins(0, 120, 10)).toEqual({ start: 0, step: 10, count: 12 });
    expect(niceBins(0, 180, 10)).toEqual({ start: 0, step: 20, count: 9 });
  });

  it('puts every value in a bin between round edges', () => {
    const values = [12.3456, 40, 99.99, 100, 250.5, 760.1234];
    const h = histogram(values, 10, 'Grain area distribution', 'Grain area', 'Count', 'µm²', '#000');
    const edges = h.data.map((p) => p.x as [number, number]);
    expect(edges[0]).toEqual([0, 100]);
    expect(edges.at(-1)).toEqual([700, 800]);
    for (let i = 1; i < edges.length; i++) expect(edges[i][0]).toBe(edges[i - 1][1]);
    expect(h.data.reduce((s, p) => s + p.y, 0)).toBe(values.length);
    expect(h.data[0].y).toBe(3); // 12.3, 40, 99.99; 100 opens the next bin
    expect(h.data[1].y).toBe(1);
    // small widths: edges written as the step's decimals (0.1 + 0.2 is 0.3, not 0.30000000000000004)
    const fine = histogram([0.031, 0.25, 0.987], 8, '', '', '', 'mm', '#000').data.map((p) => p.x);
    expect(fine.flat().every((e) => /^\d+(\.\d)?$/.test(String(e)))).toBe(true);
    expect(histogram([], 10, '', '', '', '', '#000').data).toEqual([]);
  });
});
