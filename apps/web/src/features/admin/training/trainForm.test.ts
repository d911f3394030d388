import { describe, expect, it } from 'vitest';
import { bodyOf, countQuery, formField, initialValues, validate, type TrainValues } from './trainForm';
import { duration, percentDone, verdict } from './format';

const v = (patch: Partial<TrainValues> = {}): TrainValues => ({ ...initialValues('20261201'), ...patch });

describe('train form', () => {
  it('starts from the current version, every trainable image, 20 % held out and 200 steps', () => {
    expect(validate(v(), 10)).toEqual({});
    expect(bodyOf('m1', v())).toEqual({ modelId: 'm1', baseVersion: '20261201', filter: {}, holdoutShare: 0.2, steps: 200 });
  });

  it('names each wrong field', () => {
    const e = validate(v({ baseVersion: null, holdoutPercent: 60, steps: 0 }), 1);
    expect(e).toEqual({ baseVersion: 'baseVersionRequired', images: 'imagesTooFew', holdoutPercent: 'holdoutRange', steps: 'stepsRange' });
    expect(validate(v({ steps: 2.5, holdoutPercent: '' }), 5)).toEqual({ steps: 'stepsRange', holdoutPercent: 'holdoutRange' });
    expect(validate(v({ steps: 5001 }), 5).steps).toBe('stepsRange');
    expect(validate(v({ holdoutPercent: 9 }), 5).holdoutPercent).toBe('holdoutRange');
  });

  it('filters by user, group and days only when filtered; a reversed range is the end day’s error', () => {
    const f = v({ scope: 'filtered', userIds: ['u'], groupIds: [], from: '2026-11-02', to: '2026-11-01' });
    expect(validate(f, 5)).toEqual({ to: 'dateRange' });
    expect(countQuery(f)).toEqual({ userIds: ['u'], from: '2026-11-02', to: '2026-11-01', pageSize: 1 });
    expect(countQuery(v({ userIds: ['u'] }))).toEqual({ pageSize: 1 });
    expect(validate(v(), undefined)).toEqual({});
  });

  it('maps the server’s field names onto the form', () => {
    expect(formField('/holdoutShare')).toBe('holdoutPercent');
    expect(formField('filter.from')).toBe('from');
    expect(formField('/filter/userIds')).toBe('images');
    expect(formField('seed')).toBeNull();
  });
});

describe('training figures', () => {
  it('formats durations and progress', () => {
    expect(duration(65)).toBe('1:05');
    expect(duration(3725)).toBe('1:02:05');
    expect(duration(null)).toBe('—');
    expect(percentDone({ step: 50, steps: 200, loss: 0.1, elapsedS: 1, etaS: 3 })).toBe(25);
    expect(percentDone(null)).toBe(0);
  });

  it('calls a higher F-score and a smaller |ΔG| better', () => {
    const base = { fScore: 0.8, deltaG: 0.5 };
    expect(verdict('fScore', base, { fScore: 0.85, deltaG: 0.5 })).toBe('better');
    expect(verdict('deltaG', base, { fScore: 0.8, deltaG: 0.7 })).toBe('worse');
    expect(verdict('deltaG', base, { fScore: 0.8, deltaG: 0.3 })).toBe('better');
    expect(verdict('fScore', base, base)).toBe('same');
  });
});
