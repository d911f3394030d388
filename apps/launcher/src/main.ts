import { readFileSync } from 'node:fs';
import { createEngine } from './engine.ts';
import { createNetworkCache, defaultCacheDir } from './network-cache.ts';
import { keepRegistered } from './register.ts';
import { startLauncher } from './server.ts';
import { createLogger, initTracing } from './telemetry.ts';
import { configuredNice, defaultThreads, lowerPriority } from './priority.ts';
import { analysisTrainer, gpuAffinity, trainMode } from './training.ts';

/**
 * A launcher process: `LAUNCHER_PORT` (default 8000; 0: any free port), `LAUNCHER_HOST` (default 127.0.0.1;
 * 0.0.0.0 on another machine), `LAUNCHER_THREADS` (default: cores − 1 next to the server, all cores on a machine of
 * its own), `LAUNCHER_NICE` (default 10: analyses below the server; priority.ts). With `LAUNCHER_SERVER_URL` and `LAUNCHER_REGISTRATION_TOKEN`
 * it registers itself with that server (register.ts); `LAUNCHER_ADVERTISE_HOST`, `LAUNCHER_REGISTER_EVERY_S`.
 * Training (POST /train): `LAUNCHER_TRAIN` (auto: when python3 with torch is there; off; the python is the training
 * orchestrator's, LAMELLA_PYTHON), `LAUNCHER_GPU_AFFINITY` (default 0, reported as `gpu`). Trained networks
 * of jobs are downloaded into `LAUNCHER_CACHE_DIR` (network-cache.ts), with the registration token as credential.
 */
const version = process.env.LAUNCHER_VERSION ?? JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version;
const port = Number(process.env.LAUNCHER_PORT ?? 8000);
const threads = defaultThreads();
const log = createLogger();
const tracing = initTracing();
// before the engine starts its worker threads: they inherit the main thread's nice value
const nice = configuredNice();
const priority = nice ? lowerPriority(nice) : null;
const engine = createEngine(threads);
const serverUrl = process.env.LAUNCHER_SERVER_URL;
const token = process.env.LAUNCHER_REGISTRATION_TOKEN;
const training = { mode: trainMode(), trainer: analysisTrainer() };
const gpu = gpuAffinity();
const networks = createNetworkCache({ dir: defaultCacheDir(), serverUrl, token });
const launcher = await startLauncher({
  port,
  host: process.env.LAUNCHER_HOST ?? '127.0.0.1',
  version,
  engine,
  logger: log,
  training,
  gpu,
  networks,
}).catch((e: Error) => {
  // one plain line, which the server's supervisor shows as the reason (e.g. "listen EADDRINUSE: address already in use")
  console.error(`launcher: cannot listen on port ${port}: ${e.message}`);
  process.exit(1);
});
log.info(
  { version, port: launcher.port, slots: engine.slots, priority, tracing: tracing !== null, train: training.mode, gpu, networkCache: networks.dir },
  `launcher ${version} listening on ${launcher.port}`,
);

const registration =
  serverUrl && token
    ? keepRegistered(
        {
          serverUrl,
          token,
          port: launcher.port,
          version,
          slots: engine.slots,
          host: process.env.LAUNCHER_ADVERTISE_HOST || undefined,
          log: (m) => log.info({}, m),
        },
        Number(process.env.LAUNCHER_REGISTER_EVERY_S ?? 60) * 1000,
        // A revoked token: this launcher no longer belongs to the server.
        () => void stop(1),
      )
    : null;

const stop = async (code = 0) => {
  registration?.stop();
  await launcher.close();
  await tracing?.shutdown();
  process.exit(code);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
