import {
  TRAINABLE_MODELS,
  TRAINING_HOLDOUT,
  TRAINING_STEPS,
  type CancelledTrainingRun,
  type ModelCard,
  type ModelVersionArtefact,
  type ModelVersionChanged,
  type StartTrainingRunBody,
  type StartedTrainingRun,
  type TrainableImageList,
  type TrainableImagesQuery,
  type TrainedVersionList,
  type TrainingFilter,
  type TrainingRun,
  type TrainingRunsQuery,
  type TrainingValidation,
} from '@lamella/contracts';
import { rng } from '@lamella/analysis/random';
import { translate, type Language } from '@lamella/i18n';
import type { AuthContext } from '../../platform/auth/session.ts';
import type { Db } from '../../platform/db/client.ts';
import { AppError, notFound, validationFailed, type ErrorDetail } from '../../platform/http/errors.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { recordAudit } from '../audit/service.ts';
import * as models from '../compute-models/service.ts';
import type { TrainingDispatcher } from './dispatcher.ts';
import { checkNetworkToken } from './network-token.ts';
import * as repo from './repo.ts';
import { countTrainable, trainableImages, type TrainableFilter } from './trainable.ts';

/**
 * Training runs and trained versions (issue 25). ADMIN only (the routes' guard). Starting a run checks every field
 * (400 naming it), the model (409 MODEL_NOT_TRAINABLE) and the images (409 NOT_ENOUGH_TRAINING_IMAGES) before
 * anything is written; the run, its candidate version name and the audit row are written together.
 */
export interface TrainingDeps {
  db: Db;
  storage: Storage;
  dispatcher: TrainingDispatcher;
  /** Signs and checks the network addresses launchers fetch (SESSION_SECRET). */
  secret: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const actorOf = (auth: AuthContext) => auth.impersonatorId ?? auth.user.id;
const say = (lng: Language, key: string, vars: Record<string, string | number> = {}) => translate(lng, `adminMessages.${key}`, vars);
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The stored filter is the request's filter, or `{ imageIds }` for a chosen list: the answer's filter is the former. */
function withoutChosenIds(stored: Record<string, unknown>): TrainingFilter {
  const { imageIds: _chosen, ...filter } = stored;
  return filter as TrainingFilter;
}

function presentRun(r: repo.RunWithNames): TrainingRun {
  const run = r.run;
  return {
    id: run.id,
    modelId: run.modelId,
    model: r.model,
    baseVersion: run.baseVersion,
    candidateVersion: run.candidateVersion,
    status: run.status,
    imageIds: run.imageIds,
    holdoutImageIds: run.holdoutImageIds,
    holdoutShare: run.holdoutShare,
    steps: run.steps,
    seed: run.seed,
    filter: withoutChosenIds(run.filter),
    imagesChosen: Array.isArray(run.filter.imageIds),
    progress: run.progress ?? null,
    launcherId: run.launcherId,
    attempt: run.attempt,
    error: run.error ?? null,
    createdBy: run.createdBy && r.creatorEmail ? { id: run.createdBy, email: r.creatorEmail } : null,
    createdAt: run.createdAt.toISOString(),
    startedAt: iso(run.startedAt),
    finishedAt: iso(run.finishedAt),
  };
}

// ---- Trainable images -----------------------------------------------------------------------------------------

/** Day filters as instants: from the start of `from`, before the day after `to` (UTC, inclusive days). */
function dayRange(from: string | undefined, to: string | undefined, problems: ErrorDetail[], prefix = ''): { from?: Date; before?: Date } {
  const out: { from?: Date; before?: Date } = {};
  const parse = (v: string, field: string) => {
    const d = new Date(`${v}T00:00:00Z`);
    if (!DAY.test(v) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v) {
      problems.push({ field: `${prefix}${field}`, key: 'adminErrors.trainingDayInvalid' });
      return undefined;
    }
    return d;
  };
  if (from !== undefined) out.from = parse(from, 'from');
  if (to !== undefined) {
    const d = parse(to, 'to');
    if (d) out.before = new Date(d.getTime() + 86_400_000);
  }
  if (out.from && out.before && out.from >= out.before) problems.push({ field: `${prefix}to`, key: 'adminErrors.trainingDayOrder' });
  return out;
}

function toFilter(f: TrainingFilter | undefined, problems: ErrorDetail[], prefix: string): TrainableFilter {
  const range = dayRange(f?.from, f?.to, problems, prefix);
  return { userIds: f?.userIds, groupIds: f?.groupIds, ...range };
}

export async function listTrainable(db: Db, modelId: string, q: TrainableImagesQuery): Promise<TrainableImageList> {
  const model = await models.findModel(db, modelId);
  const problems: ErrorDetail[] = [];
  const filter = toFilter(q, problems, '');
  if (problems.length) throw validationFailed(problems);
  const pageSize = q.pageSize ?? 100;
  const page = q.page ?? 1;
  const [rows, total] = await Promise.all([
    trainableImages(db, model.id, filter, { limit: pageSize, offset: (page - 1) * pageSize }),
    countTrainable(db, model.id, filter),
  ]);
  return {
    total,
    images: rows.map((r) => ({
      id: r.id,
      orginalFilename: r.orginal_filename,
      width: Number(r.width),
      height: Number(r.height),
      createdAt: new Date(r.created_at).toISOString(),
      owner: { id: r.owner_id, name: r.owner_name, surname: r.owner_surname, email: r.owner_email },
      maskId: r.mask_id,
      jobId: r.job_id,
    })),
  };
}

// ---- Runs -----------------------------------------------------------------------------------------------------

/** Held-out images: round(share × n), at least 1 and at most n − 1, chosen by the seeded shuffle of the sorted ids. */
export function splitHoldout(ids: string[], share: number, seed: number): string[] {
  const sorted = [...ids].sort();
  const rnd = rng(seed);
  for (let i = sorted.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [sorted[i], sorted[j]] = [sorted[j], sorted[i]];
  }
  const n = Math.min(sorted.length - 1, Math.max(1, Math.round(share * sorted.length)));
  return sorted.slice(0, n);
}

/** The next candidate name of a base version: `<base without -ftN>-ft<n>`, n one above the highest taken. */
function candidateName(base: string, taken: string[]): string {
  const root = base.replace(/-ft\d+$/, '');
  let n = 0;
  for (const v of taken) {
    const m = /^(.*)-ft(\d+)$/.exec(v);
    if (m && m[1] === root) n = Math.max(n, Number(m[2]));
  }
  return `${root}-ft${n + 1}`;
}

const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

export async function start(deps: TrainingDeps, auth: AuthContext, body: StartTrainingRunBody, lng: Language): Promise<StartedTrainingRun> {
  const { db } = deps;
  const problems: ErrorDetail[] = [];
  if (!body.modelId || !UUID.test(body.modelId)) problems.push({ field: 'modelId', key: 'validation.required' });
  if (!body.baseVersion?.trim()) problems.push({ field: 'baseVersion', key: 'validation.required' });
  const holdoutShare = body.holdoutShare ?? TRAINING_HOLDOUT.default;
  if (!Number.isFinite(holdoutShare) || holdoutShare < TRAINING_HOLDOUT.min || holdoutShare > TRAINING_HOLDOUT.max)
    problems.push({ field: 'holdoutShare', key: 'adminErrors.trainingRange', vars: { min: TRAINING_HOLDOUT.min, max: TRAINING_HOLDOUT.max } });
  const steps = body.steps ?? TRAINING_STEPS.default;
  if (!Number.isInteger(steps) || steps < TRAINING_STEPS.min || steps > TRAINING_STEPS.max)
    problems.push({ field: 'steps', key: 'adminErrors.trainingRange', vars: { min: TRAINING_STEPS.min, max: TRAINING_STEPS.max } });
  const seed = body.seed ?? Math.floor(Math.random() * 2_147_483_647);
  if (!Number.isInteger(seed) || seed < 0 || seed > 2_147_483_647) problems.push({ field: 'seed', key: 'adminErrors.trainingSeed' });
  if (body.filter && body.imageIds) problems.push({ field: 'imageIds', key: 'adminErrors.trainingFilterOrImages' });
  const badId = body.imageIds?.findIndex((id) => !UUID.test(id)) ?? -1;
  if (badId >= 0) problems.push({ field: `imageIds[${badId}]`, key: 'adminErrors.trainingImageId' });
  if (body.imageIds && new Set(body.imageIds).size !== body.imageIds.length)
    problems.push({ field: 'imageIds', key: 'adminErrors.trainingImageTwice' });
  const filter = toFilter(body.filter, problems, 'filter.');
  if (problems.length) throw validationFailed(problems);

  const model = await models.findModel(db, body.modelId!);
  if (!(TRAINABLE_MODELS as readonly string[]).includes(model.internalName))
    throw new AppError(409, 'MODEL_NOT_TRAINABLE', 'adminErrors.modelNotTrainable', { model: model.displayName });
  const baseVersion = body.baseVersion!.trim();
  if (!(await models.versionExists(db, model.id, baseVersion)))
    throw validationFailed([{ field: 'baseVersion', key: 'adminErrors.trainingBaseVersion', vars: { version: baseVersion } }]);

  const chosen = body.imageIds ? { imageIds: body.imageIds } : filter;
  const rows = await trainableImages(db, model.id, chosen, { limit: null, offset: 0 });
  if (body.imageIds && rows.length !== body.imageIds.length) {
    const ok = new Set(rows.map((r) => r.id));
    const i = body.imageIds.findIndex((id) => !ok.has(id));
    throw new AppError(409, 'IMAGE_NOT_TRAINABLE', 'adminErrors.imageNotTrainable', {}, [
      { field: `imageIds[${i}]`, key: 'adminErrors.imageNotTrainable' },
    ]);
  }
  if (rows.length < 2) throw new AppError(409, 'NOT_ENOUGH_TRAINING_IMAGES', 'adminErrors.notEnoughTrainingImages', { count: rows.length, min: 2 });
  const imageIds = rows.map((r) => r.id);
  const holdoutImageIds = splitHoldout(imageIds, holdoutShare, seed);

  const actorId = actorOf(auth);
  const storedFilter: Record<string, unknown> = body.imageIds ? { imageIds: body.imageIds } : { ...(body.filter ?? {}) };
  let run: repo.RunRow | null = null;
  for (let i = 0; i < 5 && !run; i++) {
    try {
      run = await repo.inTransaction(db, async (tx) => {
        const candidateVersion = candidateName(baseVersion, await repo.candidateVersions(tx, model.id));
        const row = await repo.insertRun(tx, {
          modelId: model.id,
          baseVersion,
          candidateVersion,
          imageIds,
          holdoutImageIds,
          holdoutShare,
          steps,
          seed,
          filter: storedFilter,
          createdBy: auth.user.id,
        });
        if (!row) return null;
        await recordAudit(tx, {
          actorId,
          action: 'model.training.start',
          targetType: 'model',
          targetId: model.id,
          details: {
            runId: row.id,
            baseVersion,
            candidateVersion,
            images: imageIds.length,
            heldOut: holdoutImageIds.length,
            steps,
            seed,
            holdoutShare,
          },
        });
        return row;
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }
  if (!run) throw new AppError(409, 'TRAINING_VERSION_TAKEN', 'adminErrors.trainingVersionTaken');
  deps.dispatcher.queued(run);
  const found = (await repo.findRun(db, run.id))!;
  return { ...presentRun(found), message: say(lng, 'trainingStarted', { version: run.candidateVersion }) };
}

export async function list(db: Db, q: TrainingRunsQuery): Promise<TrainingRun[]> {
  return (await repo.listRuns(db, q)).map(presentRun);
}

export async function get(db: Db, id: string): Promise<TrainingRun> {
  const r = UUID.test(id) ? await repo.findRun(db, id) : undefined;
  if (!r) throw notFound('training run');
  return presentRun(r);
}

export async function cancel(deps: TrainingDeps, auth: AuthContext, id: string, lng: Language): Promise<CancelledTrainingRun> {
  const { db } = deps;
  const found = await get(db, id);
  const row = await repo.inTransaction(db, async (tx) => {
    const r = await repo.cancelRun(tx, id);
    if (!r) return null;
    await recordAudit(tx, {
      actorId: actorOf(auth),
      action: 'model.training.cancel',
      targetType: 'model',
      targetId: r.modelId,
      details: { runId: r.id, candidateVersion: r.candidateVersion, was: found.status },
    });
    return r;
  });
  if (!row) throw new AppError(409, 'TRAINING_RUN_ENDED', 'adminErrors.trainingRunEnded', { status: found.status });
  deps.dispatcher.cancelled(row);
  return { ...(await get(db, id)), message: say(lng, 'trainingCancelled') };
}

// ---- Versions -------------------------------------------------------------------------------------------------

function presentArtefact(a: repo.ArtefactRow, current: string): ModelVersionArtefact {
  return {
    modelId: a.modelId,
    version: a.version,
    status: a.status,
    isCurrent: a.version === current,
    runId: a.runId,
    network: { sha256: a.networkSha256, size: a.networkSize },
    card: a.card as ModelCard,
    validation: a.validation as TrainingValidation,
    createdAt: a.createdAt.toISOString(),
    promotedAt: iso(a.promotedAt),
  };
}

export async function versions(db: Db, modelId: string): Promise<TrainedVersionList> {
  const model = await models.findModel(db, modelId);
  const arts = await repo.listArtefacts(db, model.id);
  const current = arts.find((a) => a.version === model.version && a.status === 'PROMOTED');
  return {
    modelId: model.id,
    currentVersion: model.version,
    previousVersion: current?.previousVersion ?? null,
    versions: arts.map((a) => presentArtefact(a, model.version)),
  };
}

export async function promote(db: Db, auth: AuthContext, modelId: string, version: string, lng: Language): Promise<ModelVersionChanged> {
  await models.findModel(db, modelId);
  return repo.inTransaction(db, async (tx) => {
    const model = await models.lockModel(tx, modelId);
    const art = await repo.findArtefact(tx, model.id, version);
    if (!art) throw new AppError(404, 'VERSION_NOT_TRAINED', 'adminErrors.versionNotTrained', { version });
    if (model.version === version) throw new AppError(409, 'VERSION_ALREADY_CURRENT', 'adminErrors.versionAlreadyCurrent', { version });
    const previous = model.version;
    await models.setCurrentVersion(tx, model.id, version);
    await repo.retirePromoted(tx, model.id, version);
    await repo.setArtefactStatus(tx, model.id, version, { status: 'PROMOTED', previousVersion: previous, promotedAt: new Date() });
    await recordAudit(tx, {
      actorId: actorOf(auth),
      action: 'model.version.promote',
      targetType: 'model',
      targetId: model.id,
      details: { version, previousVersion: previous, runId: art.runId },
    });
    return { modelId: model.id, version, previousVersion: previous, message: say(lng, 'versionPromoted', { version }) };
  });
}

export async function rollback(db: Db, auth: AuthContext, modelId: string, lng: Language): Promise<ModelVersionChanged> {
  await models.findModel(db, modelId);
  return repo.inTransaction(db, async (tx) => {
    const model = await models.lockModel(tx, modelId);
    const art = await repo.findArtefact(tx, model.id, model.version);
    if (!art || art.status !== 'PROMOTED' || !art.previousVersion)
      throw new AppError(409, 'NOTHING_TO_ROLL_BACK', 'adminErrors.nothingToRollBack', { version: model.version });
    const back = art.previousVersion;
    await models.setCurrentVersion(tx, model.id, back);
    await repo.setArtefactStatus(tx, model.id, model.version, { status: 'RETIRED' });
    if (await repo.findArtefact(tx, model.id, back)) await repo.setArtefactStatus(tx, model.id, back, { status: 'PROMOTED' });
    await recordAudit(tx, {
      actorId: actorOf(auth),
      action: 'model.version.rollback',
      targetType: 'model',
      targetId: model.id,
      details: { version: back, rolledBack: model.version },
    });
    return { modelId: model.id, version: back, previousVersion: model.version, message: say(lng, 'versionRolledBack', { version: back }) };
  });
}

// ---- Launchers ------------------------------------------------------------------------------------------------

/** A trained network for a launcher holding a signed address (403 otherwise; 404 when no version has it). */
export async function network(deps: TrainingDeps, sha256: string, token: string | undefined): Promise<{ key: string; size: number }> {
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw notFound('network');
  if (!checkNetworkToken(deps.secret, sha256, token)) throw new AppError(403, 'NETWORK_TOKEN_INVALID', 'errors.forbidden');
  const a = await repo.findArtefactBySha(deps.db, sha256);
  if (!a) throw notFound('network');
  return { key: a.networkKey, size: a.networkSize };
}

/** The network of a trained version (the jobs dispatcher adds it to a job's spec), or null for a shipped version. */
export async function networkOf(db: Db, modelId: string, version: string): Promise<{ sha256: string } | null> {
  const a = await repo.artefactOf(db, modelId, version);
  return a ? { sha256: a.networkSha256 } : null;
}
