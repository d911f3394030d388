import { Type, type Static, type TSchema } from 'typebox';
import { FileDownload, IdParams } from './common.ts';
import { endpoint } from './endpoint.ts';

/**
 * Models that learn from corrected segmentations (issue 25): trainable images per model, training runs (ADMIN
 * starts, watches, cancels), the trained versions with their card and validation, promote and rollback, and a
 * version per customization group. A training run is its own entity (not a user job); it runs on a launcher that
 * can train (`canTrain` on its health) and produces a CANDIDATE version of the model.
 */
const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD (UTC), inclusive' });
const Uuid = Type.String({ format: 'uuid' });

/** The effort of a run: optimiser steps of the fine-tune. */
export const TRAINING_STEPS = { min: 1, max: 5000, default: 200 } as const;
/** Share of the chosen images held out of training and used for the validation (split by image, seeded). */
export const TRAINING_HOLDOUT = { min: 0.1, max: 0.5, default: 0.2 } as const;
/** A run whose launcher breaks off (lease expired) is retried up to this many attempts, then FAILED. */
export const TRAINING_MAX_ATTEMPTS = 3;
/** Models that can be trained now (the learned grain boundaries); others answer 409 MODEL_NOT_TRAINABLE. */
export const TRAINABLE_MODELS = ['grain-size'] as const;
/** The socket.io event that carries a run's status and progress to admins. */
export const TRAINING_RUN_EVENT = 'training-run';

export const TrainingRunStatus = Type.Union(
  [Type.Literal('QUEUED'), Type.Literal('RUNNING'), Type.Literal('FINISHED'), Type.Literal('FAILED'), Type.Literal('CANCELLED')],
  { $id: 'TrainingRunStatus' },
);
export type TrainingRunStatus = Static<typeof TrainingRunStatus>;

export const TrainingVersionStatus = Type.Union([Type.Literal('CANDIDATE'), Type.Literal('PROMOTED'), Type.Literal('RETIRED')], {
  $id: 'TrainingVersionStatus',
});
export type TrainingVersionStatus = Static<typeof TrainingVersionStatus>;

/** Which trainable images a run uses: all of the model, or filtered by owner, customization group and upload day. */
export const TrainingFilter = Type.Object(
  {
    userIds: Type.Optional(Type.Array(Uuid, { maxItems: 1000 })),
    /** Customization groups of the model: their members' images. */
    groupIds: Type.Optional(Type.Array(Uuid, { maxItems: 1000 })),
    from: Type.Optional(Day),
    to: Type.Optional(Day),
  },
  { $id: 'TrainingFilter', additionalProperties: false },
);
export type TrainingFilter = Static<typeof TrainingFilter>;

/** Live progress of a running fine-tune (the launcher's progress lines). */
export const TrainingProgress = Type.Object(
  {
    step: Type.Integer(),
    steps: Type.Integer(),
    loss: Nullable(Type.Number()),
    elapsedS: Type.Number(),
    etaS: Nullable(Type.Number()),
  },
  { $id: 'TrainingProgress' },
);
export type TrainingProgress = Static<typeof TrainingProgress>;

export const TrainingError = Type.Object({ code: Type.String(), message: Type.String() }, { $id: 'TrainingError' });
export type TrainingError = Static<typeof TrainingError>;

export const TrainingRun = Type.Object(
  {
    id: Type.String(),
    modelId: Type.String(),
    model: Type.Object({ id: Type.String(), internalName: Type.String(), displayName: Type.String() }),
    baseVersion: Type.String(),
    /** The version the run produces, e.g. `20261201-ft1` (unique per model). */
    candidateVersion: Type.String(),
    status: TrainingRunStatus,
    /** The trainable images chosen (training and held out). */
    imageIds: Type.Array(Type.String()),
    holdoutImageIds: Type.Array(Type.String()),
    holdoutShare: Type.Number(),
    steps: Type.Integer(),
    seed: Type.Integer(),
    filter: TrainingFilter,
    /** True when the run was started with a chosen list of images (`imageIds`) rather than all or filtered ones. */
    imagesChosen: Type.Boolean(),
    progress: Nullable(TrainingProgress),
    launcherId: Nullable(Type.String()),
    attempt: Type.Integer(),
    error: Nullable(TrainingError),
    createdBy: Nullable(Type.Object({ id: Type.String(), email: Type.String() })),
    createdAt: Type.String(),
    startedAt: Nullable(Type.String()),
    finishedAt: Nullable(Type.String()),
  },
  { $id: 'TrainingRun' },
);
export type TrainingRun = Static<typeof TrainingRun>;
export const TrainingRunList = Type.Array(TrainingRun, { $id: 'TrainingRunList' });
export type TrainingRunList = Static<typeof TrainingRunList>;

export const TrainingRunsQuery = Type.Object(
  {
    modelId: Type.Optional(Uuid),
    status: Type.Optional(TrainingRunStatus),
  },
  { $id: 'TrainingRunsQuery', additionalProperties: false },
);
export type TrainingRunsQuery = Static<typeof TrainingRunsQuery>;

/**
 * "Train new version". Either `filter` (all trainable images of the model when empty) or `imageIds` (a chosen set,
 * each of which must be trainable). Every field is checked by the server, which names the wrong one (400).
 */
export const StartTrainingRunBody = Type.Object(
  {
    modelId: Type.Optional(Type.String({ description: 'Required: a trainable model' })),
    baseVersion: Type.Optional(Type.String({ maxLength: 100, description: 'Required: an existing version of the model' })),
    filter: Type.Optional(TrainingFilter),
    imageIds: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { maxItems: 100_000 })),
    holdoutShare: Type.Optional(Type.Number({ description: `${TRAINING_HOLDOUT.min}–${TRAINING_HOLDOUT.max}, default ${TRAINING_HOLDOUT.default}` })),
    steps: Type.Optional(Type.Integer({ description: `${TRAINING_STEPS.min}–${TRAINING_STEPS.max}, default ${TRAINING_STEPS.default}` })),
    seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647 })),
  },
  { $id: 'StartTrainingRunBody', additionalProperties: false },
);
export type StartTrainingRunBody = Static<typeof StartTrainingRunBody>;

export const StartedTrainingRun = Type.Object({ ...TrainingRun.properties, message: Type.String() }, { $id: 'StartedTrainingRun' });
export type StartedTrainingRun = Static<typeof StartedTrainingRun>;
export const CancelledTrainingRun = Type.Object({ ...TrainingRun.properties, message: Type.String() }, { $id: 'CancelledTrainingRun' });
export type CancelledTrainingRun = Static<typeof CancelledTrainingRun>;

/** Pushed on the socket (`training-run`) to admins at every status change and progress line. */
export const TrainingRunProgress = Type.Object(
  {
    runId: Type.String(),
    modelId: Type.String(),
    status: TrainingRunStatus,
    progress: Nullable(TrainingProgress),
    error: Nullable(TrainingError),
    candidateVersion: Type.String(),
  },
  { $id: 'TrainingRunProgress' },
);
export type TrainingRunProgress = Static<typeof TrainingRunProgress>;

// ---- Trainable images ---------------------------------------------------------------------------------------

export const TrainableImagesQuery = Type.Object(
  {
    userIds: Type.Optional(Type.Array(Uuid, { maxItems: 1000 })),
    groupIds: Type.Optional(Type.Array(Uuid, { maxItems: 1000 })),
    from: Type.Optional(Day),
    to: Type.Optional(Day),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, description: 'default 100' })),
  },
  { $id: 'TrainableImagesQuery', additionalProperties: false },
);
export type TrainableImagesQuery = Static<typeof TrainableImagesQuery>;

export const TrainableImage = Type.Object(
  {
    id: Type.String(),
    orginalFilename: Type.String(),
    width: Type.Integer(),
    height: Type.Integer(),
    createdAt: Type.String(),
    owner: Type.Object({ id: Type.String(), name: Nullable(Type.String()), surname: Nullable(Type.String()), email: Type.String() }),
    /** The submitted mask the run learns from (the newest of the image for this model). */
    maskId: Type.String(),
    jobId: Type.String(),
  },
  { $id: 'TrainableImage' },
);
export type TrainableImage = Static<typeof TrainableImage>;
/** One page and the number of trainable images the filters select. */
export const TrainableImageList = Type.Object({ images: Type.Array(TrainableImage), total: Type.Integer() }, { $id: 'TrainableImageList' });
export type TrainableImageList = Static<typeof TrainableImageList>;

// ---- Trained versions ---------------------------------------------------------------------------------------

/** Grain model metrics on one image: boundary F-score (0–1, higher is better) and |ΔG| to the corrected mask. */
/** (No $id: it appears four times inside one schema, which Fastify's serialiser refuses for a named reference.) */
export const TrainingMetrics = Type.Object({ fScore: Type.Number(), deltaG: Type.Number() });
export type TrainingMetrics = Static<typeof TrainingMetrics>;
/** The candidate against the base version on the same held-out images, per image and in total (mean). */
export const TrainingValidation = Type.Object(
  {
    images: Type.Array(Type.Object({ id: Type.String(), base: TrainingMetrics, candidate: TrainingMetrics })),
    total: Type.Object({ base: TrainingMetrics, candidate: TrainingMetrics }),
  },
  { $id: 'TrainingValidation' },
);
export type TrainingValidation = Static<typeof TrainingValidation>;

/** The model card: where a trained version comes from. */
export const ModelCard = Type.Object(
  {
    model: Type.String(),
    baseVersion: Type.String(),
    version: Type.String(),
    runId: Type.String(),
    imageIds: Type.Array(Type.String()),
    imageCount: Type.Integer(),
    holdoutImageIds: Type.Array(Type.String()),
    /** Steps, seed, holdout share and whatever the training reports (learning rate, batch…). */
    parameters: Type.Record(Type.String(), Type.Unknown()),
    trainedAt: Type.String(),
    startedBy: Nullable(Type.Object({ id: Type.String(), email: Type.String() })),
  },
  { $id: 'ModelCard', additionalProperties: true },
);
export type ModelCard = Static<typeof ModelCard>;

export const ModelVersionArtefact = Type.Object(
  {
    modelId: Type.String(),
    version: Type.String(),
    status: TrainingVersionStatus,
    /** compute_models.version is this version now. */
    isCurrent: Type.Boolean(),
    runId: Nullable(Type.String()),
    network: Type.Object({ sha256: Type.String(), size: Type.Integer() }),
    card: ModelCard,
    validation: TrainingValidation,
    createdAt: Type.String(),
    promotedAt: Nullable(Type.String()),
  },
  { $id: 'ModelVersionArtefact' },
);
export type ModelVersionArtefact = Static<typeof ModelVersionArtefact>;

/** The versions of a model: the built-in ones (no artefact) and the trained ones with card and validation. */
export const TrainedVersionList = Type.Object(
  {
    modelId: Type.String(),
    currentVersion: Type.String(),
    /** The version rollback returns to (the one current before the last promotion), or null. */
    previousVersion: Nullable(Type.String()),
    versions: Type.Array(ModelVersionArtefact),
  },
  { $id: 'TrainedVersionList' },
);
export type TrainedVersionList = Static<typeof TrainedVersionList>;

export const ModelVersionParams = Type.Object({ id: Uuid, version: Type.String({ maxLength: 100 }) }, { $id: 'ModelVersionParams' });

/** After promote or rollback: the model's current version and the one it replaced. */
export const ModelVersionChanged = Type.Object(
  { modelId: Type.String(), version: Type.String(), previousVersion: Nullable(Type.String()), message: Type.String() },
  { $id: 'ModelVersionChanged' },
);
export type ModelVersionChanged = Static<typeof ModelVersionChanged>;

// ---- Version per customization group -------------------------------------------------------------------------

/** The version the group's members' jobs run with; null: the model's current version. */
export const CustomizationGroupVersionBody = Type.Object(
  { version: Type.Union([Type.Null(), Type.String({ maxLength: 100 })], { description: 'null or an empty text: the model’s current version' }) },
  { $id: 'CustomizationGroupVersionBody', additionalProperties: false },
);
export type CustomizationGroupVersionBody = Static<typeof CustomizationGroupVersionBody>;
export const CustomizationGroupVersion = Type.Object(
  { groupId: Type.String(), modelId: Type.String(), version: Nullable(Type.String()), message: Type.String() },
  { $id: 'CustomizationGroupVersion' },
);
export type CustomizationGroupVersion = Static<typeof CustomizationGroupVersion>;

// ---- Launcher side ------------------------------------------------------------------------------------------

export const NetworkParams = Type.Object(
  { sha256: Type.String({ maxLength: 64, description: 'The network’s SHA-256: 64 lower-case hexadecimal digits' }) },
  { $id: 'NetworkParams' },
);
export const NetworkQuery = Type.Object(
  { token: Type.Optional(Type.String({ maxLength: 200, description: 'The signed token of the job spec’s network url' })) },
  { $id: 'NetworkQuery', additionalProperties: false },
);

const tags = ['admin-training'] as const;
export const trainingApi = {
  trainableImages: endpoint({
    method: 'GET',
    path: '/admin/compute-models/:id/trainable-images',
    operationId: 'listTrainableImages',
    tags,
    params: IdParams,
    querystring: TrainableImagesQuery,
    response: { 200: TrainableImageList },
  }),
  start: endpoint({
    method: 'POST',
    path: '/admin/training-runs',
    operationId: 'startTrainingRun',
    tags,
    body: StartTrainingRunBody,
    response: { 201: StartedTrainingRun },
  }),
  list: endpoint({
    method: 'GET',
    path: '/admin/training-runs',
    operationId: 'listTrainingRuns',
    tags,
    querystring: TrainingRunsQuery,
    response: { 200: TrainingRunList },
  }),
  get: endpoint({
    method: 'GET',
    path: '/admin/training-runs/:id',
    operationId: 'getTrainingRun',
    tags,
    params: IdParams,
    response: { 200: TrainingRun },
  }),
  cancel: endpoint({
    method: 'POST',
    path: '/admin/training-runs/:id/cancel',
    operationId: 'cancelTrainingRun',
    tags,
    params: IdParams,
    response: { 200: CancelledTrainingRun },
  }),
  versions: endpoint({
    method: 'GET',
    path: '/admin/compute-models/:id/trained-versions',
    operationId: 'listTrainedVersions',
    tags,
    params: IdParams,
    response: { 200: TrainedVersionList },
  }),
  promote: endpoint({
    method: 'POST',
    path: '/admin/compute-models/:id/versions/:version/promote',
    operationId: 'promoteModelVersion',
    tags,
    params: ModelVersionParams,
    response: { 200: ModelVersionChanged },
  }),
  rollback: endpoint({
    method: 'POST',
    path: '/admin/compute-models/:id/rollback',
    operationId: 'rollbackModelVersion',
    tags,
    params: IdParams,
    response: { 200: ModelVersionChanged },
  }),
  setGroupVersion: endpoint({
    method: 'PUT',
    path: '/admin/customizations/groups/:id/version',
    operationId: 'setCustomizationGroupVersion',
    tags,
    params: IdParams,
    body: CustomizationGroupVersionBody,
    response: { 200: CustomizationGroupVersion },
  }),
  network: endpoint({
    method: 'GET',
    path: '/launchers/networks/:sha256',
    operationId: 'getTrainedNetwork',
    tags: ['launchers'],
    summary: 'A launcher fetches a trained network (the signed url of a job spec, or Authorization: Bearer <registration token>)',
    params: NetworkParams,
    querystring: NetworkQuery,
    response: { 200: FileDownload },
    produces: ['application/octet-stream'],
  }),
};
