import type { Job, JobResultSummary, ResultItem, FeedbackFlag } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { ratingsOfJobs } from '../feedback/service.ts';
import type { Language } from '@lamella/i18n';
import { localiseItems, localiseJob } from './localise.ts';
import * as repo from './repo.ts';

export type JobRow = repo.JobRow;

const versionNumber = (v: string) => Number(v.replace(/\D/g, '')) || 0;

/** A model version older than the model's current one makes the job Outdated. */
export const isOutdated = (jobVersion: string, currentVersion: string) => versionNumber(jobVersion) < versionNumber(currentVersion);

/** A result row as the contract's summary (items as the models wrote them, or in `lng` when given: localise.ts). */
export const presentResultSummary = (r: repo.ResultRow, lng?: Language): JobResultSummary => ({
  id: r.id,
  results: lng ? localiseItems(r.items as ResultItem[], lng) : (r.items as ResultItem[]),
  feedback: r.feedback as FeedbackFlag[],
  measurements: r.measurements,
});

/**
 * The wire shape of user-app.md §3 "Job", for a batch of job rows (one query per joined table). With `lng`, the
 * result items, model name and refusal read in that language (localise.ts); without, as stored.
 */
export async function presentJobs(db: Db, rows: JobRow[], lng?: Language): Promise<Job[]> {
  if (!rows.length) return [];
  const [[imgs, models, res, maskRows, customs], ratings] = await Promise.all([
    repo.presentationParts(db, rows),
    ratingsOfJobs(
      db,
      rows.map((r) => ({ jobId: r.id, userId: r.ownerId })),
    ),
  ]);
  const byId = <T extends { id: string }>(xs: T[]) => new Map(xs.map((x) => [x.id, x]));
  const imgMap = byId(imgs);
  const modelMap = byId(models);
  const resMap = byId(res);
  const customMap = byId(customs);
  const jobs = rows.map((j): Job => {
    const model = modelMap.get(j.modelId)!;
    const result = j.resultId ? resMap.get(j.resultId) : undefined;
    const custom = j.customizationId ? customMap.get(j.customizationId) : undefined;
    return {
      id: j.id,
      status: j.status,
      source: j.source,
      imageId: j.imageId,
      image: imgMap.get(j.imageId) ?? { id: j.imageId, orginalFilename: '', width: 0, height: 0 },
      modelId: j.modelId,
      model: { id: model.id, name: model.internalName, displayName: model.displayName },
      modelVersion: j.modelVersion,
      createdAt: j.createdAt.toISOString(),
      startedAt: j.startedAt?.toISOString() ?? null,
      finishedAt: j.finishedAt?.toISOString() ?? null,
      progress: j.progress,
      resultId: j.resultId,
      result: result ? presentResultSummary(result) : null,
      userFeedback: ratings.get(j.id) ?? null,
      masks: maskRows
        .filter((m) => m.jobId === j.id)
        .map((m) => ({ id: m.id, label: m.label, filename: m.filename, parentId: m.parentId, isSubmitted: m.isSubmitted })),
      withMasks: Boolean(j.maskId),
      crop: j.crop ?? null,
      outdated: isOutdated(j.modelVersion, model.version),
      archived: j.archived,
      customization: custom
        ? { config: j.settings, template: { nameEn: custom.nameEn, nameDe: custom.nameDe } }
        : j.source === 'IDENTIFICATION'
          ? { config: j.settings, template: null }
          : null,
      failed: j.status === 'FAILED',
      failureReason: j.status === 'FAILED' ? refusalOf(j.error) : null,
    };
  });
  return lng ? jobs.map((j) => localiseJob(j, lng)) : jobs;
}

/** The analysis codes that mean "this input cannot be measured" (packages/analysis errors.ts): the user is told why. */
const REFUSALS = new Set([
  'UNSUPPORTED_IMAGE',
  'CORRUPT_IMAGE',
  'IMAGE_TOO_LARGE',
  'INVALID_CROP',
  'INVALID_MASK',
  'BLANK_IMAGE',
  'IMAGE_TOO_SMALL',
  'TOO_FEW_FEATURES',
  'NO_LAYER_FOUND',
]);

/** `CODE: message` of a model refusal → {code, message}; anything else (launcher faults, crashes) → null. */
export function refusalOf(error: string | null): { code: string; message: string } | null {
  const m = error ? /^([A-Z_]+): ([\s\S]+)$/.exec(error) : null;
  return m && REFUSALS.has(m[1]) ? { code: m[1], message: m[2] } : null;
}
