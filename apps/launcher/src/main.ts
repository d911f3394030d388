import { readFileSync } from 'node:fs';
import { createEngine } from './engine.ts';
import { keepRegistered } from './register.ts';
import { startLauncher } from './server.ts';
import { createLogger, initTracing } from './telemetry.ts';
import { configuredNice, defaultThreads, lowerPriority } from './priority.ts';

/**
 * A launcher process: `LAUNCHER_PORT` (default 8000; 0: any free port), `LAUNCHER_HOST` (default 127.0.0.1;
 * 0.0.0.0 on another machine), `LAUNCHER_THREADS` (default: cores − 1 next to the server, all cores on a machine of
 * its own), `LAUNCHER_NICE` (default 10: analyses below the server; priority.ts). With `LAUNCHER_SERVER_URL` and `LAUNCHER_REGISTRATION_TOKEN`
 * it registers itself with that server (register.ts); `LAUNCHER_ADVERTISE_HOST`, `LAUNCHER_REGISTER_EVERY_S`.
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
const launcher = await startLauncher({ port, host: process.env.LAUNCHER_HOST ?? '127.0.0.1', version, engine, logger: log });
log.info(
  { version, port: launcher.port, slots: engine.slots, priority, tracing: tracing !== null },
  `launcher ${version} listening on ${launcher.port}`,
);

const serverUrl = process.env.LAUNCHER_SERVER_URL;
const token = process.env.LAUNCHER_REGISTRATION_TOKEN;
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
