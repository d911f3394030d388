/**
 * Vitest global setup: one migrated, empty PGlite database dumped to a file, so every test app on PGlite starts
 * from it instead of initialising a cluster and running every migration again (test-app.ts). The file is named
 * by a hash of the migrations and the PGlite version, so a new migration makes a new snapshot. Not used with
 * TEST_DATABASE_URL (PostgreSQL scratch databases migrate themselves).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import type { TestProject } from 'vitest/node';

const migrations = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'platform', 'db', 'migrations');

function snapshotName(): string {
  const hash = createHash('sha256');
  // the installed PGlite (its entry file's folder holds package.json one or two levels up)
  let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  hash.update(readFileSync(join(dir, 'package.json')));
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
  for (const f of files(migrations).sort()) hash.update(f.slice(migrations.length)).update(readFileSync(f));
  return join(tmpdir(), `lamella-pglite-${hash.digest('hex').slice(0, 16)}.tar`);
}

export default async function setup(project: TestProject): Promise<void> {
  if (process.env.TEST_DATABASE_URL) return;
  const file = snapshotName();
  if (!existsSync(file)) {
    const { PGlite } = await import('@electric-sql/pglite');
    const { drizzle } = await import('drizzle-orm/pglite');
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    const client = new PGlite();
    await migrate(drizzle(client), { migrationsFolder: migrations });
    const dump = await client.dumpDataDir('none');
    await client.close();
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    renameSync(tmp, file); // whole or absent: a parallel run never reads half a file
  }
  project.provide('pgliteSnapshot', file);
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshot: string | undefined;
  }
}
