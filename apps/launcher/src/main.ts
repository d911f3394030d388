import { readFileSync } from 'node:fs';
import { createEngine } from './engine.ts';
import { startLauncher } from './server.ts';

/** A launcher process: `LAUNCHER_PORT` (default 8000), `LAUNCHER_HOST` (default 127.0.0.1), `LAUNCHER_THREADS`. */
const version = process.env.LAUNCHER_VERSION ?? JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version;
const port = Number(process.env.LAUNCHER_PORT ?? 8000);
const threads = process.env.LAUNCHER_THREADS ? Number(process.env.LAUNCHER_THREADS) : undefined;
const launcher = await startLauncher({ port, host: process.env.LAUNCHER_HOST ?? '127.0.0.1', version, engine: createEngine(threads) });
console.log(`launcher ${version} listening on ${launcher.port}`);
const stop = async () => {
  await launcher.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
