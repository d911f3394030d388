import { describe, expect, it } from 'vitest';
import { fieldStatistics, tQuantile975 } from '../src/modules/reports/statistics.ts';

/** Field statistics of the specimen report against computations done by hand (ASTM E112-13 §16, E562-19 §11). */
describe('field statistics', () => {
  it('five G values: mean, s, 95 % CI with t(0.975, 4) = 2.776 and %RA', () => {
    // mean 37.5 / 5 = 7.5; squared deviations .25 + 0 + .25 + .09 + .09 = .68; s² = .68 / 4 = .17; s = 0.412311
    // CI = 2.776 · 0.412311 / √5 = 0.511869; %RA = 100 · 0.511869 / 7.5 = 6.8249 %
    const s = fieldStatistics([7.0, 7.5, 8.0, 7.2, 7.8]);
    expect(s.n).toBe(5);
    expect(s.mean).toBeCloseTo(7.5, 10);
    expect(s.sd).toBeCloseTo(0.412311, 6);
    expect(s.ci95).toBeCloseTo(0.511869, 6);
    expect(s.raPercent).toBeCloseTo(6.8249, 4);
    expect(s.raExceeded).toBe(false);
    expect([s.min, s.max]).toEqual([7.0, 8.0]);
  });

  it('three area fractions scattered widely: %RA above 10 % is flagged', () => {
    // mean 5; s² = (9 + 1 + 16) / 2 = 13; s = 3.605551; CI = 4.303 · 3.605551 / √3 = 8.957409; %RA = 179.148 %
    const s = fieldStatistics([2, 4, 9]);
    expect(s.sd).toBeCloseTo(3.605551, 6);
    expect(s.ci95).toBeCloseTo(8.957409, 6);
    expect(s.raPercent).toBeCloseTo(179.148, 3);
    expect(s.raExceeded).toBe(true);
  });

  it('leaves out fields without a value; one field has no s, CI nor %RA; none has no mean', () => {
    const one = fieldStatistics([null, 6.25, undefined, Number.NaN]);
    expect(one).toMatchObject({ n: 1, mean: 6.25, sd: null, ci95: null, raPercent: null, raExceeded: false });
    expect(fieldStatistics([])).toMatchObject({ n: 0, mean: null, min: null, max: null });
  });

  it('Student t: tabulated df, the next smaller df between entries, 1.96 beyond 120', () => {
    expect(tQuantile975(1)).toBe(12.706);
    expect(tQuantile975(4)).toBe(2.776);
    expect(tQuantile975(30)).toBe(2.042);
    expect(tQuantile975(35)).toBe(2.042);
    expect(tQuantile975(59)).toBe(2.021);
    expect(tQuantile975(60)).toBe(2.0);
    expect(tQuantile975(500)).toBe(1.96);
    expect(() => tQuantile975(0)).toThrow(RangeError);
  });
});
