import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from './config.ts';
import { openDatabase } from './platform/db/client.ts';
import { createStorage } from './platform/storage/storage.ts';
import { createMailer } from './platform/mail/mailer.ts';
import { buildApp } from './app.ts';
import { startHousekeeping } from './housekeeping.ts';
import { bootstrap } from './modules/system/bootstrap.ts';
import { LauncherSupervisor } from './platform/compute/supervisor.ts';
import { startLocalNode } from './modules/system/local-node.ts';
import { initTracing } from './platform/observability/tracing.ts';
import { lazySchemas } from './platform/http/lazy-schemas.ts';

/** `npm start`: migrations, first admin, built-in models, then the server on PORT. */
async function main(): Promise<void> {
  // the start's phases, logged once ready (bench:web prints them): module loading, database, app, bootstrap…
  const phases: Array<[string, number]> = [['modules', performance.now()]];
  const phase = (name: string) => phases.push([name, performance.now() - phases.reduce((n, [, ms]) => n + ms, 0)]);
  const config = loadConfig();
  // OTEL_EXPORTER_OTLP_ENDPOINT: traces on (before the app, so its spans use the provider)
  const tracing = initTracing({ serviceName: process.env.OTEL_SERVICE_NAME ?? 'lamella-server', endpoint: config.otelEndpoint });
  // until the app's logger exists, lines go to the console; then they are JSON lines of the server's logger
  let log: (message: string) => void = (m) => console.log(m);
  const version = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version as string;
  const database = await openDatabase({ url: config.databaseUrl, dir: config.databaseUrl ? null : join(config.dataDir, 'db') });
  phase('database');
  const storage = await createStorage(config.dataDir, config.s3);
  const mailer = createMailer({ smtpUrl: config.smtpUrl, mailDir: join(config.dataDir, 'mail'), from: config.mailFrom, log: (m) => log(m) });
  // a launcher's own lines are JSON already (apps/launcher/src/telemetry.ts): passed on as they are
  const launchers = new LauncherSupervisor({
    log: (m) => {
      const own = /^\[launcher \d+\] (\{.*\})$/.exec(m);
      if (own) process.stdout.write(`${own[1]}\n`);
      else log(m);
    },
  });
  // route schemas compile on first use, and all of them once listening (lazy-schemas.ts): not before listening
  const schemas = lazySchemas();
  const app = await buildApp({ config, database, storage, mailer, version, launchers, lazySchemas: schemas });
  phase('app');
  log = (m) => app.log.info(m);
  const admin = await bootstrap({ config, db: database.db });
  phase('bootstrap');
  // START_LOCAL_LAUNCHER=false: a replica that starts no launcher process (one replica, or none, runs the local node's).
  if (config.startLocalLauncher) await startLocalNode(database.db, launchers, config.launcherPort, version);
  phase('launchers');
  await app.listen({ port: config.port, host: config.host });
  phase('listen');
  app.log.info({ startupMs: Object.fromEntries(phases.map(([n, ms]) => [n, Math.round(ms)])) }, 'startup');
  const warmStart = performance.now();
  schemas.warm().then(
    (n) => app.log.info({ schemas: n, ms: Math.round(performance.now() - warmStart) }, 'route schemas compiled'),
    (e: Error) => app.log.error({ err: e }, `a route schema does not compile: ${e.message}`),
  );
  // the storage sweep (at start, then periodically) and the purge of accounts past their deletion grace period
  const stopHousekeeping = startHousekeeping({ db: database.db, storage: app.ctx.storage, log: (m) => log(m) });
  log(`Lamella ${version} (${config.environment}) at ${config.publicUrl} — database: ${database.kind}, mail: ${mailer.transport}`);
  if (admin.created) {
    // printed once on the console, outside the JSON log (it may carry the generated password)
    console.log(
      `First admin created: ${admin.email}${admin.generatedPassword ? ` with password ${admin.generatedPassword} (set ADMIN_PASSWORD to choose it)` : ''}. Log in at ${config.publicUrl}/auth/login`,
    );
  }
  const stop = async (signal: string) => {
    log(`${signal}: shutting down`);
    stopHousekeeping();
    await launchers.stopAll();
    await app.close();
    await database.close();
    await tracing?.shutdown();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
