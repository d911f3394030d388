/**
 * The real Lamella server for the admin benchmark, in its own process (so bench/admin/run.ts can sample its
 * RSS from /proc): built as src/main.ts builds it (buildApp + bootstrap, PostgreSQL at DATABASE_URL), without
 * the local launcher node. Prints `LISTENING <port>` once it accepts connections.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../apps/server/src/config.ts';
import { buildApp } from '../../apps/server/src/app.ts';
import { openDatabase } from '../../apps/server/src/platform/db/client.ts';
import { createStorage } from '../../apps/server/src/platform/storage/storage.ts';
import { createMailer } from '../../apps/server/src/platform/mail/mailer.ts';
import { bootstrap } from '../../apps/server/src/modules/system/bootstrap.ts';

const dataDir = process.env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'lamella-bench-admin-'));
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
const database = await openDatabase({ url: config.databaseUrl, dir: null });
const app = await buildApp({
  config,
  database,
  storage: await createStorage(dataDir),
  mailer: createMailer({ smtpUrl: null, mailDir: join(dataDir, 'mail'), from: config.mailFrom }),
  version: 'bench',
});
await bootstrap({ config, db: database.db });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
console.log(`LISTENING ${typeof address === 'object' && address ? address.port : 0}`);
const stop = async () => {
  await app.close();
  await database.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
