import { readFileSync } from 'node:fs';
import { timingSafeEqual, createHash } from 'node:crypto';
import type { Health, Readiness, ReadinessCheck, TranslationTree, VersionInfo } from '@lamella/contracts';
import type { Database, Db } from '../../platform/db/client.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { mergedTree } from '../translations/service.ts';
import * as repo from './repo.ts';

/** What the system module needs. */
export interface SystemDeps {
  db: Db;
  database: Pick<Database, 'kind' | 'ping'>;
  storage: Pick<Storage, 'driver' | 'ping' | 'put' | 'delete'>;
  mailer: Pick<Mailer, 'transport' | 'ping'>;
  version: string;
  environment: string;
  /** Launchers that answered their health check in the last 15 s (the dispatcher's view); readiness needs one. */
  healthyLaunchers?: () => number;
  /** `METRICS_TOKEN` and the registry GET /metrics answers (null: metrics off). */
  metrics?: { token: string | null; scrape: () => Promise<{ contentType: string; body: string }> };
}

/** Demo license settings (back-office Settings → Demo license); durations in days. */
export interface DemoLicenseSettings {
  maxImages: number;
  demoDuration: number;
  extensionDuration: number;
  reminderBeforeExpiry: number;
  reminderBeforeExtensionExpiry: number;
}

export const defaultDemoLicense: DemoLicenseSettings = {
  maxImages: 20,
  demoDuration: 30,
  /** The training-consent promise: 2 extra trial months. */
  extensionDuration: 60,
  reminderBeforeExpiry: 7,
  reminderBeforeExtensionExpiry: 7,
};

export async function getSetting<T>(db: Db, key: string, fallback: T): Promise<T> {
  const row = await repo.findSetting(db, key);
  return row ? (row.value as T) : fallback;
}

export const putSetting = (db: Db, key: string, value: unknown): Promise<void> => repo.upsertSetting(db, key, value);

export const getDemoLicense = (db: Db) => getSetting(db, 'demoLicense', defaultDemoLicense);

async function check(kind: string, probe: () => Promise<boolean>) {
  try {
    return { ok: await probe(), kind };
  } catch (err) {
    return { ok: false, kind, error: err instanceof Error ? err.message : String(err) };
  }
}

export async function health(deps: SystemDeps): Promise<Health> {
  const [database, storage, mail] = await Promise.all([
    check(deps.database.kind, () => deps.database.ping()),
    check(deps.storage.driver, () => deps.storage.ping()),
    check(deps.mailer.transport, () => deps.mailer.ping()),
  ]);
  const ok = database.ok && storage.ok && mail.ok;
  return { status: ok ? 'ok' : 'degraded', version: deps.version, database, storage, mail };
}

export const version = (deps: SystemDeps): VersionInfo => ({ version: deps.version, environment: deps.environment });

/** The translations of one language with the administrator's overrides (modules/translations); unknown: 404. */
export const translationsOf = (db: Db, lng: string): Promise<TranslationTree> => mergedTree(db, lng);

/** The time of the newest migration this code ships (drizzle's journal). */
const shippedMigration = (): number => {
  const journal = JSON.parse(readFileSync(new URL('../../platform/db/migrations/meta/_journal.json', import.meta.url), 'utf8')) as {
    entries: Array<{ when: number; tag: string }>;
  };
  return Math.max(...journal.entries.map((e) => e.when));
};

async function probe(fn: () => Promise<string>): Promise<ReadinessCheck> {
  try {
    return { ok: true, detail: await fn() };
  } catch (err) {
    return { ok: false, detail: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Readiness (`GET /health/ready`): the database answers, its migrations are those this code ships, storage takes
 * a write, and at least one launcher is healthy. Each is named in the answer, with what failed.
 */
export async function readiness(deps: SystemDeps): Promise<Readiness> {
  const [database, migrations, storage, launchers] = await Promise.all([
    probe(async () => {
      await deps.database.ping();
      return deps.database.kind;
    }),
    probe(async () => {
      const applied = await repo.lastAppliedMigration(deps.db);
      const shipped = shippedMigration();
      if (applied === null || applied < shipped) throw new Error('migrations pending: the database is older than this code');
      return 'up to date';
    }),
    probe(async () => {
      const key = `health/ready-${process.pid}-${Date.now()}`;
      await deps.storage.put(key, Buffer.from('ok'));
      await deps.storage.delete(key);
      return `${deps.storage.driver} writable`;
    }),
    probe(async () => {
      const n = deps.healthyLaunchers?.() ?? 0;
      if (n < 1) throw new Error('no launcher answered its health check in the last 15 s');
      return `${n} healthy`;
    }),
  ]);
  const checks = { database, migrations, storage, launchers };
  return { status: Object.values(checks).every((c) => c.ok) ? 'ready' : 'not_ready', checks };
}

/** Whether `header` is `Bearer <token>` (compared in constant time). */
export function metricsAuthorized(token: string, header: string | undefined): boolean {
  if (!header?.startsWith('Bearer ')) return false;
  const digest = (v: string) => createHash('sha256').update(v).digest();
  return timingSafeEqual(digest(header.slice(7).trim()), digest(token));
}
