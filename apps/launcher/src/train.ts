import { createWriteStream } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { sniffFormat } from '@lamella/analysis';
import { NetworkError, type NetworkCache } from './network-cache.ts';
import { heartbeatPeriod, openNdjson } from './ndjson.ts';
import { MAX_TRAIN_IMAGES, TrainRequestError, checkTrainSpec, validImageId, type TrainSpec } from './train-spec.ts';
import type { FineTuneOptions, Trainer, trainingGate } from './training.ts';

export interface TrainRouteDeps {
  log: Logger;
  trainer: Trainer | null;
  gate: ReturnType<typeof trainingGate>;
  networks: NetworkCache;
  /** The shipped versions of a model (the engine's models). */
  versions: (model: string) => string[];
  /** Where each run's work folder is made (default: the system's temp folder). */
  workRoot?: string;
}

/** The files of one request, saved in its work folder: `image-<id>` and `mask-<id>` → path. */
type Saved = Map<string, string>;

/**
 * POST /train, multipart: field `spec` (JSON {runId, model, baseVersion, candidateVersion, steps, seed,
 * images:[{id, holdout}], baseNetwork?}) and the files `image-<id>` and `mask-<id>` of every image (the mask a
 * PNG label image: 255 grain interior, 0 boundary or outside). They are written to a work folder of their own,
 * removed when the run ends, fails or is aborted. One training at a time: a second is answered 503 BUSY; with
 * LAUNCHER_TRAIN=off or without python3 and torch 409 TRAINING_UNAVAILABLE; a wrong spec or a missing file 400
 * with a code and the `field` it is about. The answer is NDJSON in the framing of POST /run: {type:'started',
 * runId}, {type:'progress', step, steps, loss, elapsedS, etaS} per step the pipeline reports, {type:'heartbeat'}
 * every `x-heartbeat-ms` (100 ms to 5 s, default 2 s), then the file `network.onnx` (a file frame) and
 * {type:'done', card, validation}, or {type:'error', code, message}. A dispatcher that closes the connection
 * (cancel, lost lease) stops the run: the training process is killed.
 */
export function trainRoute(app: FastifyInstance, d: TrainRouteDeps) {
  let training: string | null = null;

  app.post('/train', async (request, reply) => {
    let workDir: string | null = null;
    // the work folder is gone before the answer ends: a refusal, a result or an error
    const cleanup = async () => {
      if (workDir) await rm(workDir, { recursive: true, force: true }).catch(() => undefined);
      workDir = null;
    };
    const refuse = async (e: TrainRequestError) => {
      await cleanup();
      return reply.status(e.status).send({ code: e.code, field: e.field, message: e.message });
    };
    if (training !== null) {
      d.log.info({ runId: training }, 'training refused: a training runs already');
      return reply.status(503).send({ code: 'BUSY', message: 'The launcher is busy with another training run.' });
    }
    training = '';
    try {
      if (d.gate.mode === 'off' || !d.trainer)
        return refuse(
          new TrainRequestError(409, 'TRAINING_UNAVAILABLE', 'launcher', 'Training is switched off on this launcher (LAUNCHER_TRAIN=off).'),
        );
      workDir = await mkdtemp(join(d.workRoot ?? tmpdir(), 'lamella-train-'));
      let spec: TrainSpec;
      let run: FineTuneOptions;
      try {
        const got = await receive(request, join(workDir, 'input'));
        if (got.spec === undefined) throw new TrainRequestError(400, 'SPEC_MISSING', 'spec', 'The field spec (JSON) is missing.');
        spec = checkTrainSpec(got.spec, d.versions);
        checkFiles(spec, got.saved, got.formats);
        // after the request was read: a wrong request is told as such on any launcher
        if (!(await d.gate.check()))
          throw new TrainRequestError(409, 'TRAINING_UNAVAILABLE', 'launcher', 'This launcher cannot train: python3 with torch is not installed.');
        run = {
          model: spec.model,
          baseVersion: spec.baseVersion,
          candidateVersion: spec.candidateVersion,
          ...(spec.baseNetwork ? { baseNetworkPath: await baseNetwork(d.networks, spec.baseNetwork) } : {}),
          steps: spec.steps,
          seed: spec.seed,
          workDir: join(workDir, 'run'),
          images: spec.images.map((im) => ({
            id: im.id,
            imagePath: got.saved.get(`image-${im.id}`)!,
            maskPath: got.saved.get(`mask-${im.id}`)!,
            holdout: im.holdout,
          })),
        };
        // the pipeline's own checks (image and mask sizes, a mask with grains and boundaries) before python starts
        await d.trainer.check(run).catch((err: unknown) => {
          throw asRequestError(err, spec);
        });
      } catch (err) {
        if (err instanceof TrainRequestError) {
          d.log.warn({ code: err.code, field: err.field }, 'training refused: bad request');
          return await refuse(err);
        }
        throw err;
      }
      training = spec.runId;
      await runTraining(d, request, reply, spec, run, cleanup);
      return reply;
    } finally {
      await cleanup();
      training = null;
    }
  });

  return {
    /** The id of the run in progress, or null. */
    get training() {
      return training || null;
    },
  };
}

/** Reads the multipart body: the spec, and every file written to `dir` (as it arrives, never held in memory). */
async function receive(request: FastifyRequest, dir: string) {
  await mkdir(dir, { recursive: true });
  const saved: Saved = new Map();
  const formats = new Map<string, string | null>();
  let spec: unknown;
  let refused: TrainRequestError | null = null;
  try {
    for await (const part of request.parts({ limits: { files: 2 * MAX_TRAIN_IMAGES, parts: 2 * MAX_TRAIN_IMAGES + 8 } })) {
      if (part.type === 'field') {
        if (part.fieldname !== 'spec' || refused) continue;
        try {
          spec = JSON.parse(String(part.value));
        } catch {
          refused = new TrainRequestError(400, 'INVALID_SPEC', 'spec', 'The field spec is not valid JSON.');
        }
        continue;
      }
      const m = /^(image|mask)-(.*)$/.exec(part.fieldname);
      if (refused || !m || !validImageId(m[2]) || saved.has(part.fieldname)) {
        refused ??= new TrainRequestError(
          400,
          'UNEXPECTED_FILE',
          part.fieldname,
          saved.has(part.fieldname)
            ? `The file ${part.fieldname} was sent twice.`
            : `The file field ${part.fieldname} is not image-<id> or mask-<id> (an id: letters, digits, "_", "-").`,
        );
        part.file.resume();
        continue;
      }
      const path = join(dir, part.fieldname);
      let head: Buffer | null = null;
      const sniff = new Transform({
        transform(chunk: Buffer, _enc, done) {
          head ??= chunk.subarray(0, 16);
          done(null, chunk);
        },
      });
      await pipeline(part.file, sniff, createWriteStream(path));
      saved.set(part.fieldname, path);
      formats.set(part.fieldname, head ? sniffFormat(head) : null);
    }
  } catch (err) {
    const e = err as { code?: string; part?: { fieldname?: string } };
    if (e.code === 'FST_REQ_FILE_TOO_LARGE')
      throw new TrainRequestError(
        413,
        'FILE_TOO_LARGE',
        e.part?.fieldname ?? 'file',
        `The file ${e.part?.fieldname ?? ''} is too large.`.replace('  ', ' '),
      );
    if (e.code === 'FST_FILES_LIMIT')
      throw new TrainRequestError(413, 'TOO_MANY_FILES', 'files', `At most ${2 * MAX_TRAIN_IMAGES} files (an image and a mask per image).`);
    if (e.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
      throw new TrainRequestError(400, 'SPEC_MISSING', 'spec', 'The request must be multipart/form-data with the field spec.');
    throw new TrainRequestError(400, 'BAD_MULTIPART', 'body', `The multipart body could not be read: ${(err as Error).message}`);
  }
  if (refused) throw refused;
  return { spec, saved, formats };
}

/** Every image of the spec came with its image and its PNG mask, and no other file came. */
function checkFiles(spec: TrainSpec, saved: Saved, formats: Map<string, string | null>) {
  const named = new Set(spec.images.flatMap((im) => [`image-${im.id}`, `mask-${im.id}`]));
  for (const field of saved.keys())
    if (!named.has(field)) throw new TrainRequestError(400, 'UNEXPECTED_FILE', field, `The file ${field} belongs to no image of spec.images.`);
  for (const im of spec.images) {
    const image = `image-${im.id}`;
    const mask = `mask-${im.id}`;
    if (!saved.has(image)) throw new TrainRequestError(400, 'MISSING_IMAGE_FILE', image, `The file ${image} of image ${im.id} is missing.`);
    if (!saved.has(mask)) throw new TrainRequestError(400, 'MISSING_MASK_FILE', mask, `The file ${mask} (its corrected segmentation) is missing.`);
    if (!formats.get(image))
      throw new TrainRequestError(400, 'INVALID_IMAGE_FILE', image, `The file ${image} is not an image (PNG, JPEG, TIFF, BMP).`);
    if (formats.get(mask) !== 'png') throw new TrainRequestError(400, 'INVALID_MASK_FILE', mask, `The file ${mask} is not a PNG label image.`);
  }
}

/** The base version's network when it is a trained one: through the jobs' network cache (downloaded once, checked). */
async function baseNetwork(networks: NetworkCache, ref: { sha256: string; url: string }): Promise<string> {
  try {
    return await networks.path(ref);
  } catch (err) {
    if (err instanceof NetworkError)
      throw new TrainRequestError(err.code === 'NETWORK_INVALID' ? 400 : 502, err.code, 'spec.baseNetwork', err.message);
    throw err;
  }
}

/** The stable code of each field of the pipeline's options that its checks name. */
const CHECKED_FIELDS: Record<string, string> = {
  model: 'INVALID_MODEL',
  baseVersion: 'INVALID_BASE_VERSION',
  candidateVersion: 'INVALID_CANDIDATE_VERSION',
  steps: 'INVALID_STEPS',
  seed: 'INVALID_SEED',
  baseNetworkPath: 'INVALID_BASE_NETWORK',
  images: 'INVALID_IMAGES',
};

/**
 * The pipeline's refusal of an input (TrainingError INVALID_TRAINING_INPUT with the `field` of its options) as the
 * request's 400, naming the request's field: `images[2].maskPath` → the file `mask-<id>`.
 */
function asRequestError(err: unknown, spec: TrainSpec): unknown {
  const e = err as { code?: string; field?: string; message?: string };
  if (e?.code !== 'INVALID_TRAINING_INPUT') return err;
  const field = e.field ?? '';
  const file = /^images\[(\d+)\]\.(imagePath|maskPath)$/.exec(field);
  const image = file ? spec.images[Number(file[1])] : undefined;
  if (file && image) {
    const mask = file[2] === 'maskPath';
    // the pipeline names its own temporary paths: the request's field is what the dispatcher can act on
    const message = (e.message ?? '').replace(/^image [^:]+: /, '').replace(/ \/\S+/g, '');
    return new TrainRequestError(
      400,
      mask ? 'INVALID_MASK_FILE' : 'INVALID_IMAGE_FILE',
      `${mask ? 'mask' : 'image'}-${image.id}`,
      `The file ${mask ? 'mask' : 'image'}-${image.id} of image ${image.id} is refused: ${message}`,
    );
  }
  const top = field.replace(/[[.].*$/, '');
  const requestField = top === 'baseNetworkPath' ? 'spec.baseNetwork' : `spec.${field}`;
  return new TrainRequestError(400, CHECKED_FIELDS[top] ?? 'INVALID_SPEC', requestField, e.message ?? `${requestField} is refused`);
}

async function runTraining(
  d: TrainRouteDeps,
  request: FastifyRequest,
  reply: { raw: ServerResponse },
  spec: TrainSpec,
  run: FineTuneOptions,
  cleanup: () => Promise<void>,
) {
  const log = d.log.child({ runId: spec.runId, launcherId: spec.launcherId, model: spec.model, modelVersion: spec.candidateVersion });
  const out = openNdjson(reply.raw);
  const abort = new AbortController();
  let finished = false;
  // the dispatcher closed the connection (cancelled, or gave up the lease): the training stops
  reply.raw.on('close', () => {
    if (!finished) abort.abort(new Error('the dispatcher closed the connection'));
  });
  out.send({ type: 'started', runId: spec.runId });
  const asked = request.headers['x-heartbeat-ms'];
  const stopBeats = out.heartbeats(heartbeatPeriod(asked !== undefined ? Number(asked) : spec.heartbeatMs));
  const started = performance.now();
  log.info({ images: spec.images.length, holdout: spec.images.filter((im) => im.holdout).length, steps: spec.steps }, 'training started');
  try {
    const result = await d.trainer!.fineTune({
      ...run,
      signal: abort.signal,
      onProgress: (p) => out.send({ type: 'progress', step: p.step, steps: p.steps, loss: p.loss, elapsedS: p.elapsedS, etaS: p.etaS }),
    });
    if (abort.signal.aborted) throw abort.signal.reason;
    const network = await readFile(result.networkPath);
    stopBeats();
    if (await out.sendFile('network.onnx', network)) out.send({ type: 'done', card: result.card, validation: result.validation });
    log.info({ seconds: Math.round((performance.now() - started) / 1000), networkBytes: network.length, gone: out.gone }, 'training finished');
  } catch (err) {
    stopBeats();
    const e = err as { code?: string; message?: string };
    if (abort.signal.aborted) log.info({ reason: (abort.signal.reason as Error | undefined)?.message }, 'training stopped: the dispatcher went away');
    else {
      log.warn({ code: e.code ?? 'TRAINING_FAILED', reason: e.message ?? String(err) }, 'training failed');
      out.send({ type: 'error', code: e.code ?? 'TRAINING_FAILED', message: e.message ?? String(err) });
    }
  } finally {
    finished = true;
    await cleanup();
    out.end();
  }
}
