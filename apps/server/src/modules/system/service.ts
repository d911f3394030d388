import type { Health, TranslationTree, VersionInfo } from '@lamella/contracts';
import type { Database, Db } from '../../platform/db/client.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { mergedTree } from '../translations/service.ts';
import * as repo from './repo.ts';

/** What the system module needs. */
export interface SystemDeps {
  db: Db;
  database: Pick<Database, 'kind' | 'ping'>;
  storage: Pick<Storage, 'driver' | 'ping'>;
  mailer: Pick<Mailer, 'transport' | 'ping'>;
  version: string;
  environment: string;
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
