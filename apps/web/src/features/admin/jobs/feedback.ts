/** Admin feedback form rules (back-office.md §5). */
import type { AdminFeedbackBody } from '@lamella/contracts';

export const RATINGS = ['scaleNumber', 'scaleLength', 'resin', 'results'] as const;
type Scores = Record<(typeof RATINGS)[number], number>;

/** Ratings must each be above 0 (back-office.md §5); returns the message key per missing rating. */
export function feedbackErrors(v: Scores): Partial<Record<(typeof RATINGS)[number], string>> {
  const keys = {
    scaleNumber: 'scaleNumberRequired',
    scaleLength: 'scaleLengthRequired',
    resin: 'resinRequired',
    results: 'resultsRequired',
  } as const;
  const out: Partial<Record<(typeof RATINGS)[number], string>> = {};
  for (const r of RATINGS) if (!(v[r] > 0)) out[r] = keys[r];
  return out;
}

/** The body of the add call: the four scores, and the comment when there is one. */
export function feedbackBody(v: Scores & { comment: string }): AdminFeedbackBody {
  return {
    scaleNumber: v.scaleNumber,
    scaleLength: v.scaleLength,
    resin: v.resin,
    results: v.results,
    ...(v.comment.trim() ? { comment: v.comment.trim() } : {}),
  };
}
