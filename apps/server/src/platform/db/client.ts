import { mkdirSync, openSync, closeSync, writeFileSync, readFileSync, unlinkSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema/index.ts';
import { prepareNamedQueriesOnPglite } from './prepared.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  ping(): Promise<boolean>;
  /** Connections of the pool now (metrics); PGlite is one connection. */
  poolStats?(): { total: number; idle: number; waiting: number };
  /**
   * LISTENs on `channels` for the NOTIFYs of every connection (every replica): `up` once listening (again after a
   * lost connection), `message` per notification, `down` when the connection is lost (on PostgreSQL it reconnects
   * every second until closed). The returned function stops listening.
   */
  listen(channels: string[], handlers: ListenHandlers): Promise<() => Promise<void>>;
}

export interface ListenHandlers {
  up(): void;
  message(channel: string, payload: string): void;
  down(): void;
}

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Opens the product database and runs the migrations. `url` null → embedded PGlite in `dir` (or in memory
 * when `dir` is null). PGlite is one connection and must never be opened by two processes: a lock file in
 * the data folder makes a second start fail loudly instead of losing writes.
 */
export async function openDatabase(opts: { url: string | null; dir: string | null; snapshot?: Blob }): Promise<Database> {
  if (opts.url) return openPostgres(opts.url);
  return openPglite(opts.dir, opts.snapshot);
}

async function openPostgres(url: string): Promise<Database> {
  const { Pool } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const pool = new Pool({ connectionString: url, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
  // A connection the server drops (a restart, an administrator, a dropped scratch database) is reported on the
  // pool; without a listener Node would end the process. The pool replaces the connection on the next query.
  let closing = false;
  pool.on('error', (err) => {
    if (!closing) console.error(`database connection lost: ${err.message}`);
  });
  const db = drizzle(pool, { schema }) as unknown as Db;
  await migrate(drizzle(pool), { migrationsFolder });
  return {
    db,
    kind: 'postgres',
    close: () => {
      closing = true;
      return pool.end();
    },
    ping: async () => {
      await db.execute(sql`select 1`);
      return true;
    },
    listen: (channels, handlers) => listenOnPostgres(url, channels, handlers),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

/** A dedicated connection LISTENing on `channels` (a pooled one would be handed to queries), reconnected when lost. */
async function listenOnPostgres(url: string, channels: string[], handlers: ListenHandlers): Promise<() => Promise<void>> {
  const { Client } = await import('pg');
  let stopped = false;
  let client: InstanceType<typeof Client> | null = null;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const c = new Client({ connectionString: url });
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      client = null;
      handlers.down();
      void c.end().catch(() => {});
      if (!stopped) retry = setTimeout(() => void connect(), 1000);
    };
    c.on('error', onLost);
    c.on('end', onLost);
    c.on('notification', (n) => handlers.message(n.channel, n.payload ?? ''));
    try {
      await c.connect();
      for (const channel of channels) await c.query(`listen "${channel.replace(/"/g, '')}"`);
    } catch {
      onLost();
      return;
    }
    if (stopped) return void c.end().catch(() => {});
    client = c;
    handlers.up();
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const c = client;
    client = null;
    if (c) {
      c.removeAllListeners('end');
      c.removeAllListeners('error');
      c.on('error', () => {});
      await c.end().catch(() => {});
    }
  };
}

/** `snapshot`: an in-memory database starts from this dump (`dumpDataDir`) instead of an empty cluster. */
async function openPglite(dir: string | null, snapshot?: Blob): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  let releaseLock = () => {};
  if (dir) {
    mkdirSync(dir, { recursive: true });
    releaseLock = acquireLock(join(dir, '..', 'lamella.lock'));
  }
  const client = dir ? new PGlite(dir) : new PGlite(snapshot ? { loadDataDir: snapshot } : undefined);
  await client.waitReady;
  const db = drizzle(client, { schema }) as unknown as Db;
  prepareNamedQueriesOnPglite(db, client); // `.prepare(name)` queries are PREPAREd once (prepared.ts)
  await migrate(drizzle(client), { migrationsFolder });
  return {
    db,
    kind: 'pglite',
    close: async () => {
      await client.close();
      releaseLock();
    },
    ping: async () => {
      await client.query('select 1');
      return true;
    },
    // one in-process connection: notifications are delivered as the notifying statement completes; never lost
    listen: async (channels, handlers) => {
      const stops = await Promise.all(channels.map((channel) => client.listen(channel, (payload) => handlers.message(channel, payload))));
      handlers.up();
      return async () => {
        for (const stop of stops) await stop().catch(() => {});
      };
    },
  };
}

/** A lock file holding our pid; a live other process holding it stops this start. */
function acquireLock(path: string): () => void {
  try {
    const fd = openSync(path, 'wx');
    writeFileSync(fd, String(process.pid));
    closeSync(fd);
  } catch {
    const pid = Number(readFileSync(path, 'utf8'));
    if (pid && pid !== process.pid && isAlive(pid)) {
      throw new Error(`The data folder is in use by process ${pid} (lock file ${path}). Stop it first, or set DATA_DIR.`);
    }
    writeFileSync(path, String(process.pid));
  }
  return () => {
    try {
      unlinkSync(path);
    } catch {
      /* already gone */
    }
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * For tests on a PostgreSQL server: a fresh database per test app, dropped on close, so test files run in
 * parallel without sharing rows.
 */
export async function openScratchPostgres(baseUrl: string, nameFile?: string, keep = false): Promise<Database> {
  const { Client } = await import('pg');
  const { existsSync } = await import('node:fs');
  const reuse = nameFile && existsSync(nameFile) ? readFileSync(nameFile, 'utf8').trim() : null;
  const name = reuse ?? `lamella_t_${randomBytes(6).toString('hex')}`;
  if (!reuse) {
    const admin = new Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    if (nameFile) writeFileSync(nameFile, name);
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString());
  return {
    ...database,
    close: async () => {
      await database.close();
      if (keep) return; // kept for a restart on the same database
      const c = new Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
