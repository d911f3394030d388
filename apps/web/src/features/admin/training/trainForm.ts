/**
 * The "Train new version" form as data: its values, the check of each field (a message key naming the field) and
 * the request body. Pure, so the rules are tested without a browser (trainForm.test.ts).
 */
import type { FormErrorKey } from './labels';
import { TRAINING_HOLDOUT, TRAINING_STEPS, type StartTrainingRunBody, type TrainableImagesQuery, type TrainingFilter } from '@lamella/contracts';

export interface TrainValues {
  baseVersion: string | null;
  /** All trainable images of the model, or those the filters select. */
  scope: 'all' | 'filtered';
  userIds: string[];
  groupIds: string[];
  from: string;
  to: string;
  /** Percent of the chosen images held out for the validation. */
  holdoutPercent: number | string;
  steps: number | string;
}

export type TrainField = 'baseVersion' | 'images' | 'from' | 'to' | 'holdoutPercent' | 'steps';
/** Field → its problem (FORM_ERROR of labels.ts gives the message). */
export type TrainErrors = Partial<Record<TrainField, FormErrorKey>>;

export const HOLDOUT_PERCENT = { min: TRAINING_HOLDOUT.min * 100, max: TRAINING_HOLDOUT.max * 100, default: TRAINING_HOLDOUT.default * 100 };

export function initialValues(currentVersion: string | null): TrainValues {
  return {
    baseVersion: currentVersion,
    scope: 'all',
    userIds: [],
    groupIds: [],
    from: '',
    to: '',
    holdoutPercent: HOLDOUT_PERCENT.default,
    steps: TRAINING_STEPS.default,
  };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The filter the values select (empty: every trainable image). */
export function filterOf(v: TrainValues): TrainingFilter {
  if (v.scope === 'all') return {};
  return {
    ...(v.userIds.length ? { userIds: v.userIds } : {}),
    ...(v.groupIds.length ? { groupIds: v.groupIds } : {}),
    ...(DAY.test(v.from) ? { from: v.from } : {}),
    ...(DAY.test(v.to) ? { to: v.to } : {}),
  };
}

/** The trainable-images query counting what the filter selects (one row is enough: the answer carries the total). */
export const countQuery = (v: TrainValues): TrainableImagesQuery => ({ ...filterOf(v), pageSize: 1 });

/**
 * Each field's problem. `selected`: the number of trainable images the filter selects (undefined while counting):
 * a run needs at least two, one to train on and one held out.
 */
export function validate(v: TrainValues, selected: number | undefined): TrainErrors {
  const e: TrainErrors = {};
  if (!v.baseVersion) e.baseVersion = 'baseVersionRequired';
  if (v.scope === 'filtered') {
    if (v.from && !DAY.test(v.from)) e.from = 'dateInvalid';
    if (v.to && !DAY.test(v.to)) e.to = 'dateInvalid';
    if (!e.from && !e.to && v.from && v.to && v.from > v.to) e.to = 'dateRange';
  }
  if (selected !== undefined && selected < 2) e.images = 'imagesTooFew';
  const h = Number(v.holdoutPercent);
  if (v.holdoutPercent === '' || !Number.isFinite(h) || h < HOLDOUT_PERCENT.min || h > HOLDOUT_PERCENT.max) e.holdoutPercent = 'holdoutRange';
  const s = Number(v.steps);
  if (v.steps === '' || !Number.isInteger(s) || s < TRAINING_STEPS.min || s > TRAINING_STEPS.max) e.steps = 'stepsRange';
  return e;
}

export function bodyOf(modelId: string, v: TrainValues): StartTrainingRunBody {
  return {
    modelId,
    baseVersion: v.baseVersion ?? undefined,
    filter: filterOf(v),
    holdoutShare: Math.round(Number(v.holdoutPercent)) / 100,
    steps: Number(v.steps),
  };
}

/** A server detail's field (`steps`, `/filter/from`, `holdoutShare`…) as the form's field. */
export function formField(serverField: string): TrainField | null {
  const f = serverField.replace(/^\//, '').replace(/\//g, '.');
  if (f === 'baseVersion' || f === 'steps') return f;
  if (f === 'holdoutShare') return 'holdoutPercent';
  if (f === 'filter.from' || f === 'from') return 'from';
  if (f === 'filter.to' || f === 'to') return 'to';
  if (f.startsWith('filter') || f.startsWith('imageIds')) return 'images';
  return null;
}
