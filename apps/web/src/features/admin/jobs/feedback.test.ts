import { describe, expect, it } from 'vitest';
import { adminRating, feedbackScore } from './api';
import { feedbackErrors } from './feedback';

describe('admin feedback', () => {
  it('requires each rating above 0', () => {
    expect(feedbackErrors({ scaleNumber: 0, scaleLength: 3, resin: 0, results: 5 })).toEqual({
      scaleNumber: 'scaleNumberRequired',
      resin: 'resinRequired',
    });
    expect(feedbackErrors({ scaleNumber: 1, scaleLength: 1, resin: 1, results: 1 })).toEqual({});
  });
  it('shows the mean of the four scores and the average over feedbacks', () => {
    expect(feedbackScore({ scaleNumber: 1, scaleLength: 2, resin: 3, results: 4 })).toBe(2.5);
    const fb = (n: number) => ({ scaleNumber: n, scaleLength: n, resin: n, results: n });
    const none = { mean: null, count: 0 };
    expect(adminRating({ adminRating: none, adminFeedback: [fb(2), fb(4)] })).toEqual({ mean: 3, count: 2 });
    expect(adminRating({ adminRating: none })).toEqual({ mean: null, count: 0 });
    expect(adminRating({ adminRating: { mean: 2.5, count: 4 } })).toEqual({ mean: 2.5, count: 4 });
  });
});
