import type { TrainSpec as WireTrainSpec } from '@lamella/analysis';

/** The spec of POST /train (the multipart field `spec`), checked field by field: a model that can be trained. */
export type TrainSpec = WireTrainSpec & { model: 'grain-size' };

/** A refused training request: HTTP `status`, a stable `code` and the `field` it is about. */
export class TrainRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** Models the launcher fine-tunes. */
export const TRAINABLE_MODELS = ['grain-size'] as const;
export const MAX_TRAIN_STEPS = 100_000;
export const MAX_TRAIN_IMAGES = 1000;
const ID = /^[A-Za-z0-9_-]{1,128}$/;
const VERSION = /^[A-Za-z0-9._-]{1,64}$/;

const bad = (code: string, field: string, message: string) => new TrainRequestError(400, code, field, message);

/** An image id as it may appear in a file field name (`image-<id>`, `mask-<id>`) and a file name. */
export const validImageId = (id: unknown): id is string => typeof id === 'string' && ID.test(id);

/**
 * Checks the parsed `spec` against the launcher's models (`versions`: the shipped versions of each model); throws
 * TrainRequestError naming the first wrong field.
 */
export function checkTrainSpec(raw: unknown, versions: (model: string) => string[]): TrainSpec {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw bad('INVALID_SPEC', 'spec', 'spec must be a JSON object');
  const s = raw as Record<string, unknown>;
  if (typeof s.runId !== 'string' || !s.runId.trim() || s.runId.length > 200)
    throw bad('INVALID_RUN_ID', 'spec.runId', 'spec.runId must be a non-empty string of at most 200 characters');
  if (!TRAINABLE_MODELS.includes(s.model as never))
    throw bad('INVALID_MODEL', 'spec.model', `spec.model must be one of ${TRAINABLE_MODELS.join(', ')} (the models this launcher fine-tunes)`);
  const model = s.model as TrainSpec['model'];
  let baseNetwork: TrainSpec['baseNetwork'];
  if (s.baseNetwork !== undefined && s.baseNetwork !== null) {
    const n = s.baseNetwork as Record<string, unknown>;
    if (typeof n !== 'object' || typeof n.sha256 !== 'string' || !/^[0-9a-fA-F]{64}$/.test(n.sha256) || typeof n.url !== 'string' || !n.url)
      throw bad('INVALID_BASE_NETWORK', 'spec.baseNetwork', 'spec.baseNetwork must be {sha256: 64 hexadecimal digits, url}');
    baseNetwork = { sha256: n.sha256.toLowerCase(), url: n.url };
  }
  if (typeof s.baseVersion !== 'string' || !VERSION.test(s.baseVersion))
    throw bad('INVALID_BASE_VERSION', 'spec.baseVersion', 'spec.baseVersion must be a version name (letters, digits, ".", "_", "-")');
  // a shipped version runs its shipped network; any other base must bring its network
  if (!baseNetwork && !versions(model).includes(s.baseVersion))
    throw bad(
      'INVALID_BASE_VERSION',
      'spec.baseVersion',
      `spec.baseVersion ${s.baseVersion} is not a version of ${model} on this launcher (${versions(model).join(', ')}); a trained base version needs spec.baseNetwork`,
    );
  if (typeof s.candidateVersion !== 'string' || !VERSION.test(s.candidateVersion) || s.candidateVersion === s.baseVersion)
    throw bad(
      'INVALID_CANDIDATE_VERSION',
      'spec.candidateVersion',
      'spec.candidateVersion must be a version name (letters, digits, ".", "_", "-") other than spec.baseVersion',
    );
  if (typeof s.steps !== 'number' || !Number.isInteger(s.steps) || s.steps < 1 || s.steps > MAX_TRAIN_STEPS)
    throw bad('INVALID_STEPS', 'spec.steps', `spec.steps must be an integer from 1 to ${MAX_TRAIN_STEPS}`);
  if (typeof s.seed !== 'number' || !Number.isSafeInteger(s.seed) || s.seed < 0)
    throw bad('INVALID_SEED', 'spec.seed', 'spec.seed must be an integer of 0 or more');
  if (!Array.isArray(s.images) || s.images.length === 0 || s.images.length > MAX_TRAIN_IMAGES)
    throw bad('INVALID_IMAGES', 'spec.images', `spec.images must list 1 to ${MAX_TRAIN_IMAGES} images`);
  const seen = new Set<string>();
  const images = s.images.map((v, i) => {
    const im = v as Record<string, unknown> | null;
    if (!im || typeof im !== 'object' || !validImageId(im.id))
      throw bad('INVALID_IMAGES', `spec.images[${i}].id`, `spec.images[${i}].id must be 1 to 128 letters, digits, "_" or "-"`);
    if (typeof im.holdout !== 'boolean') throw bad('INVALID_IMAGES', `spec.images[${i}].holdout`, `spec.images[${i}].holdout must be true or false`);
    if (seen.has(im.id)) throw bad('INVALID_IMAGES', `spec.images[${i}].id`, `spec.images names image ${im.id} twice`);
    seen.add(im.id);
    return { id: im.id, holdout: im.holdout };
  });
  if (!images.some((im) => !im.holdout)) throw bad('INVALID_IMAGES', 'spec.images', 'spec.images must hold at least one image that is not held out');
  if (!images.some((im) => im.holdout))
    throw bad('INVALID_IMAGES', 'spec.images', 'spec.images must hold at least one held-out image (the candidate is validated on them)');
  const heartbeatMs = typeof s.heartbeatMs === 'number' ? s.heartbeatMs : undefined;
  const launcherId = typeof s.launcherId === 'string' ? s.launcherId.slice(0, 100) : undefined;
  return {
    runId: s.runId,
    model,
    baseVersion: s.baseVersion,
    candidateVersion: s.candidateVersion,
    steps: s.steps,
    seed: s.seed,
    images,
    ...(baseNetwork ? { baseNetwork } : {}),
    ...(heartbeatMs !== undefined ? { heartbeatMs } : {}),
    ...(launcherId !== undefined ? { launcherId } : {}),
  };
}
