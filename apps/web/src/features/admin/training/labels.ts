/**
 * The translation keys the training screens pick by value, written out (not built from templates) so the
 * completeness check of packages/i18n sees each one used.
 */
export const RUN_STATUS_LABEL = {
  QUEUED: 'adminTraining.status.QUEUED',
  RUNNING: 'adminTraining.status.RUNNING',
  FINISHED: 'adminTraining.status.FINISHED',
  FAILED: 'adminTraining.status.FAILED',
  CANCELLED: 'adminTraining.status.CANCELLED',
} as const;

export const FORM_ERROR = {
  baseVersionRequired: 'adminTraining.form.errors.baseVersionRequired',
  imagesTooFew: 'adminTraining.form.errors.imagesTooFew',
  dateInvalid: 'adminTraining.form.errors.dateInvalid',
  dateRange: 'adminTraining.form.errors.dateRange',
  holdoutRange: 'adminTraining.form.errors.holdoutRange',
  stepsRange: 'adminTraining.form.errors.stepsRange',
} as const;
export type FormErrorKey = keyof typeof FORM_ERROR;

export const METRIC_LABEL = { fScore: 'adminTraining.validation.fScore', deltaG: 'adminTraining.validation.deltaG' } as const;

export const VERDICT_LABEL = {
  better: 'adminTraining.validation.better',
  worse: 'adminTraining.validation.worse',
  same: 'adminTraining.validation.same',
} as const;
