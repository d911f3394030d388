import Fastify from 'fastify';
import multipart from '@fastify/multipart';
import type { Logger } from 'pino';
import type { Engine } from './engine.ts';
import { createNetworkCache, defaultCacheDir, type NetworkCache } from './network-cache.ts';
import { runRoute } from './run.ts';
import { createLogger } from './telemetry.ts';
import { trainRoute } from './train.ts';
import { trainingGate, type TrainMode, type Trainer } from './training.ts';

export { DEFAULT_HEARTBEAT_MS, heartbeatPeriod } from './ndjson.ts';

export interface LauncherOptions {
  port: number;
  host?: string;
  version: string;
  engine: Engine;
  /** Jobs run at the same time (default: the engine's worker threads); further requests answer 503 BUSY. */
  slots?: number;
  /** JSON log lines (default: pino on stdout at `LOG_LEVEL`). */
  logger?: Logger;
  /**
   * Training (POST /train): `mode` from LAUNCHER_TRAIN (`auto`: when the trainer says python3 with torch is there;
   * `off`), the trainer (training.ts: analysisTrainer), and where run folders are made (default: the temp folder).
   * Without it the launcher does not train (`canTrain: false`).
   */
  training?: { mode: TrainMode; trainer: Trainer; workRoot?: string };
  /** The launcher's GPU affinity (LAUNCHER_GPU_AFFINITY, default 0), reported as `gpu`: dispatchers prefer the highest. */
  gpu?: number;
  /** The trained networks jobs name (`network: {sha256, url}`): default a cache in defaultCacheDir() without credentials. */
  networks?: NetworkCache;
}

/**
 * The launcher (executor) HTTP service:
 * - GET /health → {status, version, models, busy, running, slots, canTrain, training, gpu}: `canTrain` whether
 *   POST /train takes a run (LAUNCHER_TRAIN not off and python3 with torch found; false until that is known),
 *   `training` whether a run is in progress, `gpu` the GPU affinity.
 * - POST /run: one analysis job (run.ts).
 * - POST /train: one training run (train.ts).
 * - POST /update {version} → records the version it was asked to run (the local launcher runs this checkout).
 */
export async function startLauncher(opts: LauncherOptions) {
  const log = opts.logger ?? createLogger();
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  await app.register(multipart, { limits: { fileSize: 512 * 1024 * 1024, files: 2, fieldSize: 16 * 1024 * 1024 } });
  const slots = opts.slots ?? opts.engine.slots;
  const networks = opts.networks ?? createNetworkCache({ dir: defaultCacheDir() });
  const gate = trainingGate(opts.training?.mode ?? 'off', opts.training?.trainer ?? null);
  const gpu = opts.gpu ?? 0;
  let version = opts.version;

  const jobs = runRoute(app, { engine: opts.engine, log, slots, networks });
  const versions = (model: string) => opts.engine.models().find((m) => m.name === model)?.versions ?? [];
  const train = trainRoute(app, { log, trainer: opts.training?.trainer ?? null, gate, networks, versions, workRoot: opts.training?.workRoot });

  app.get('/health', async () => ({
    status: 'ok',
    version,
    models: opts.engine.models(),
    busy: jobs.running >= slots,
    running: jobs.running,
    slots,
    canTrain: gate.now(),
    training: train.training !== null,
    gpu,
  }));

  app.post('/update', async (request) => {
    const body = request.body as { version?: unknown };
    if (typeof body?.version === 'string' && body.version.trim()) version = body.version.trim();
    log.info({ version }, 'version updated');
    return { status: 'ok', version };
  });

  await app.listen({ port: opts.port, host: opts.host ?? '127.0.0.1' });
  const address = app.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : opts.port,
    close: async () => {
      await app.close();
      await opts.engine.close();
    },
  };
}
