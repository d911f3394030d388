import { randomBytes } from 'node:crypto';
import { healthServices, type HealthService, type ServiceHealth } from '@lamella/contracts';
import { languages } from '@lamella/i18n';
import type { Db } from '../../platform/db/client.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import type { LauncherSupervisor } from '../../platform/compute/supervisor.ts';
import { AppError } from '../../platform/http/errors.ts';
import { list as listNodes } from '../compute-nodes/service.ts';
import { translationsOf } from '../system/service.ts';

/**
 * GET /admin/healthcheck/{service} (back-office.md §7): the spec's five services mapped to what Lamella has in
 * each role, each a real check. `ok` is the spec's boolean; `configured: false` means Lamella has nothing in that
 * role (then `ok` is false and the screen says "not configured").
 *   mail     → SMTP: nodemailer verify (connect, greet, auth); without SMTP_URL: the mail folder is writable
 *   tolgee   → the translations store: the locale files of every language load and the overrides are read from the DB
 *   registry → the launchers registry: every enabled launcher answered its health check recently (some: degraded)
 *   minio    → the file storage (disk or S3): a probe object is written, read back and deleted
 *   beszel   → monitoring: an HTTP GET on MONITORING_URL answering 2xx; unset = not configured
 */
export interface HealthDeps {
  db: Db;
  mailer: Pick<Mailer, 'transport' | 'ping'>;
  storage: Pick<Storage, 'driver' | 'put' | 'get' | 'delete'>;
  launchers: LauncherSupervisor | null;
  monitoringUrl: string | null;
}

type Check = Omit<ServiceHealth, 'service'>;
const TIMEOUT_MS = 5000;

function withTimeout<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

async function mail(deps: HealthDeps): Promise<Check> {
  const ok = await withTimeout(deps.mailer.ping(), 'mail');
  return { ok, configured: true, detail: deps.mailer.transport === 'smtp' ? 'SMTP server verified' : 'mail folder writable (no SMTP_URL)' };
}

async function tolgee(deps: HealthDeps): Promise<Check> {
  const trees = await Promise.all(languages.map((lng) => translationsOf(deps.db, lng)));
  const counts = trees.map((t) => Object.keys(t).length);
  const ok = counts.every((n) => n > 0);
  return { ok, configured: true, detail: languages.map((lng, i) => `${lng}: ${counts[i]} namespaces`).join(', ') };
}

async function registry(deps: HealthDeps): Promise<Check> {
  const nodes = await listNodes({ db: deps.db, launchers: deps.launchers });
  const enabled = nodes.flatMap((n) => n.executors).filter((e) => e.isEnabled);
  if (!enabled.length) return { ok: false, configured: false, detail: 'no enabled launcher registered' };
  const healthy = enabled.filter((e) => e.state === 'running');
  // all enabled launchers healthy: OK; some: degraded; none: failing
  const degraded = healthy.length > 0 && healthy.length < enabled.length;
  return {
    ok: healthy.length === enabled.length,
    configured: true,
    degraded,
    detail: `${healthy.length} of ${enabled.length} enabled launchers healthy`,
  };
}

async function minio(deps: HealthDeps): Promise<Check> {
  const key = `healthcheck/${randomBytes(8).toString('hex')}.txt`;
  const data = Buffer.from(`lamella health probe ${new Date().toISOString()}`);
  await withTimeout(deps.storage.put(key, data), 'storage write');
  try {
    const back = await withTimeout(deps.storage.get(key), 'storage read');
    if (!back.equals(data)) return { ok: false, configured: true, detail: `${deps.storage.driver}: read back different bytes` };
  } finally {
    await deps.storage.delete(key);
  }
  return { ok: true, configured: true, detail: `${deps.storage.driver}: write, read and delete passed` };
}

async function beszel(deps: HealthDeps): Promise<Check> {
  if (!deps.monitoringUrl) return { ok: false, configured: false, detail: 'MONITORING_URL is not set' };
  const res = await fetch(deps.monitoringUrl, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'follow' });
  await res.body?.cancel();
  return { ok: res.ok, configured: true, detail: `HTTP ${res.status}` };
}

const checks: Record<HealthService, (deps: HealthDeps) => Promise<Check>> = { mail, tolgee, registry, minio, beszel };

const isService = (s: string): s is HealthService => (healthServices as readonly string[]).includes(s);

/** Runs one check; a failing check answers ok false with the reason (never a 500); an unknown service is 404. */
export async function checkService(deps: HealthDeps, service: string): Promise<ServiceHealth> {
  if (!isService(service))
    throw new AppError(404, 'UNKNOWN_SERVICE', 'adminSettings.messages.unknownService', { service, services: healthServices.join(', ') });
  try {
    return { service, ...(await checks[service](deps)) };
  } catch (err) {
    return { service, ok: false, configured: true, detail: err instanceof Error ? err.message : String(err) };
  }
}
