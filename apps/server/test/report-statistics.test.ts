import { describe, expect, it } from 'vitest';
import {
  e112Statistics,
  fieldStatistics,
  gFromInterceptMm,
  gFromNA,
  interceptMmFromG,
  nAFromG,
  tQuantile975,
} from '../src/modules/reports/statistics.ts';
import { fieldValues, specimenSections } from '../src/modules/reports/specimen.ts';
import { reportText } from '../src/modules/reports/text.ts';
import type { Job } from '@lamella/contracts';

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

/** ASTM E112-13 §16: the statistics are on the fields' N_A and L̄, never on their G; only the mean becomes G. */
describe('E112 §16 field statistics', () => {
  it('planimetric: three fields N_A 1200, 1500, 1050 /mm² — by hand %RA 45.5 %, where G values would give 8.8 %', () => {
    // mean N_A = 3750 / 3 = 1250; deviations −50, 250, −200; s² = (2500 + 62500 + 40000) / 2 = 52500; s = 229.1288
    // CI = 4.303 · 229.1288 / √3 = 569.2334; %RA = 100 · 569.2334 / 1250 = 45.54 % (> 10 %: measure more fields)
    // G of the mean = 3.321928 · log10(1250) − 2.954 = 7.3337
    const s = e112Statistics('planimetric', [1200, 1500, 1050]);
    expect(s.n).toBe(3);
    expect(s.mean).toBeCloseTo(1250, 10);
    expect(s.sd).toBeCloseTo(229.1288, 4);
    expect(s.ci95).toBeCloseTo(569.2334, 4);
    expect(s.raPercent).toBeCloseTo(45.5387, 4);
    expect(s.raExceeded).toBe(true);
    expect(s.gOfMean).toBeCloseTo(7.3337, 4);
    expect(s.fewFields).toBe(true);
    // the same fields' G values (7.2748, 7.5967, 7.0822) would have passed: s = 0.2600, CI = 0.6459, %RA = 8.83 %
    const onG = fieldStatistics([1200, 1500, 1050].map((n) => gFromNA(n)));
    expect(onG.raPercent).toBeCloseTo(8.826, 3);
    expect(onG.raExceeded).toBe(false);
  });

  it('intercept: three fields L̄ 22.0, 18.5, 27.0 µm — by hand s 4.2720, CI 10.6131, %RA 47.17 %, G of the mean 7.6599', () => {
    // mean 67.5 / 3 = 22.5 µm; deviations −0.5, −4, 4.5; s² = (0.25 + 16 + 20.25) / 2 = 18.25; s = 4.2720
    // CI = 4.303 · 4.2720 / √3 = 10.6131; %RA = 47.17 %; G = −6.643856 · log10(0.0225 mm) − 3.288 = 7.6599
    const s = e112Statistics('intercept', [22.0, 18.5, 27.0]);
    expect(s.mean).toBeCloseTo(22.5, 10);
    expect(s.sd).toBeCloseTo(4.272, 4);
    expect(s.ci95).toBeCloseTo(10.6131, 4);
    expect(s.raPercent).toBeCloseTo(47.1693, 4);
    expect(s.gOfMean).toBeCloseTo(7.6599, 4);
  });

  it('five or more fields are not flagged as few; E112 formulas and their inverses', () => {
    expect(e112Statistics('planimetric', [1000, 1010, 990, 1005, 995]).fewFields).toBe(false);
    // G 7.5: N_A = 10^((7.5 + 2.954) / 3.321928) = 1402.71 /mm²; L̄ = 10^(−(7.5 + 3.288) / 6.643856) mm = 23.7818 µm
    expect(nAFromG(7.5)).toBeCloseTo(1402.709, 3);
    expect(interceptMmFromG(7.5) * 1000).toBeCloseTo(23.7818, 4);
    expect(gFromNA(nAFromG(7.5))!).toBeCloseTo(7.5, 10);
    expect(gFromInterceptMm(interceptMmFromG(7.5))!).toBeCloseTo(7.5, 10);
    expect(gFromNA(0)).toBeNull();
  });

  it('an older result with G only: N_A and L̄ are derived from G and named as derived', () => {
    const { values, derived } = fieldValues('grain-size', { astmGPlanimetric: 7.5, astmGIntercept: 7.5 });
    expect(values.grainsPerMm2).toBeCloseTo(1402.709, 3);
    expect(values.meanInterceptUm).toBeCloseTo(23.7818, 4);
    expect(derived).toEqual(['grainsPerMm2', 'meanInterceptUm']);
    expect(fieldValues('grain-size', { grainsPerMm2: 1200, meanInterceptUm: 22, astmGPlanimetric: 7.27 }).derived).toEqual([]);
  });

  it('the specimen section: statistics on N_A, L̄ and the area fraction, G of the mean, each field’s job', () => {
    const job = (id: string, model: string, measurements: Record<string, unknown>) =>
      ({
        id,
        model: { name: model, displayName: model },
        modelVersion: '20261127',
        withMasks: id === 'b',
        result: { measurements },
      }) as unknown as Job;
    const tx = reportText('en');
    const sections = specimenSections(tx, [
      {
        filename: 'a.png',
        jobs: [
          { job: job('a', 'grain-size', { grainsPerMm2: 1200, meanInterceptUm: 22, pixelSizeUm: 0.5, calibrationSource: 'user' }), accepted: true },
        ],
      },
      { filename: 'b.png', jobs: [{ job: job('b', 'grain-size', { grainsPerMm2: 1500, meanInterceptUm: 18.5 }), accepted: false }] },
      {
        filename: 'c.png',
        jobs: [
          { job: job('c', 'grain-size', { grainsPerMm2: 1050, meanInterceptUm: 27 }), accepted: false },
          { job: job('p', 'porosity', { areaFractionPercent: 4 }), accepted: false },
        ],
      },
    ]);
    expect(sections.map((s) => s.model)).toEqual(['grain-size', 'porosity']);
    const [grain, porosity] = sections;
    expect(grain.rows.map((r) => [r.jobId, r.accepted, r.mask, r.calibration])).toEqual([
      ['a', true, false, '0.5000 µm/px (set by the user)'.replace('set by the user', tx.t('reports.calibrationSources.user'))],
      ['b', false, true, tx.t('reports.job.notCalibrated')],
      ['c', false, false, tx.t('reports.job.notCalibrated')],
    ]);
    const [nA, l] = grain.stats;
    expect(nA.key).toBe('grainsPerMm2');
    expect(nA.stats.raPercent).toBeCloseTo(45.5387, 4);
    expect(nA.g?.stats.gOfMean).toBeCloseTo(7.3337, 4);
    expect(nA.basis).toContain('N_A');
    expect(l.key).toBe('meanInterceptUm');
    expect(l.g?.stats.gOfMean).toBeCloseTo(7.6599, 4);
    expect(nA.fewFields).toBe(true);
    expect(porosity.stats[0]).toMatchObject({ key: 'areaFractionPercent', stats: { n: 1, mean: 4 } });
    expect(porosity.stats[0].basis).toContain('E562');
  });
});
