import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';

/**
 * Configuration from environment variables, each with a documented default (README "Configuration").
 * The defaults run the whole product on one machine: PGlite in DATA_DIR/db, files in DATA_DIR/files,
 * mail as .eml files in DATA_DIR/mail, one local launcher on LAUNCHER_PORT.
 */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  publicUrl: string;
  adminEmail: string;
  adminPassword: string | null;
  launcherPort: number;
  /** Lease of a running job in seconds (`JOB_LEASE_SECONDS`): renewed every third; no launcher heartbeat for a whole lease aborts the run. */
  jobLeaseSeconds: number;
  environment: 'development' | 'testing' | 'staging' | 'production';
  sessionTtlDays: number;
  /** `SESSION_CACHE_SECONDS` (default 30; 0: off): how long the guard may keep a session's read (platform/auth/session-cache.ts). */
  sessionCacheSeconds: number;
  /** `LIST_CACHE_SECONDS` (default 30; 0: off): how long an answered job list may be kept (platform/db/change-cache.ts). */
  listCacheSeconds: number;
  s3: { endpoint: string | null; bucket: string | null; region: string; accessKeyId: string | null; secretAccessKey: string | null; prefix: string };
  /** `REDIS_URL`: several replicas share socket.io fan-out and rate limits through this Redis; null: one process. */
  redisUrl: string | null;
  /** `REDIS_PREFIX` (default `lamella:`): the start of every Redis key and channel, so deployments can share one Redis. */
  redisPrefix: string;
  /** `START_LOCAL_LAUNCHER` (default true): this process starts the launchers of the `local` node; false on extra replicas. */
  startLocalLauncher: boolean;
  logLevel: string;
  /** `METRICS_TOKEN`: `GET /api/metrics` answers the caller with `Authorization: Bearer <token>`; null: metrics off (404). */
  metricsToken: string | null;
  /** `OTEL_EXPORTER_OTLP_ENDPOINT`: traces go there (OTLP/HTTP); null: tracing off. */
  otelEndpoint: string | null;
  /**
   * Proxies whose `X-Forwarded-For` is believed (`TRUST_PROXY`): a hop count, or proxy addresses/CIDRs. Unset:
   * false, the client address is the socket's.
   */
  trustProxy: false | number | string[];
  /** Largest single uploaded file (MAX_UPLOAD_MB, default 200). */
  maxUploadMb: number;
  /** Largest upload request, all its files together (MAX_UPLOAD_REQUEST_MB, default 1000). */
  maxUploadRequestMb: number;
  /** Largest analysis result from a launcher, its files included (MAX_RESULT_MB, default 512); larger fails the job. */
  maxResultMb: number;
  /** Image decode workers (IMAGE_WORKERS; 0 or unset: cores − 1, at least 1, at most 4). */
  imageWorkers: number;
  /** Memory of one image decode worker before it is stopped (IMAGE_WORKER_MEMORY_MB, default 1536). */
  imageWorkerMemoryMb: number;
  /** Largest decoded upload, width × height × channels × bytes per sample (IMAGE_DECODE_MAX_MB, default 600). */
  imageDecodeMaxMb: number;
  /** Sign-ups allowed per client address and hour (SIGNUP_LIMIT_PER_HOUR, default 20). */
  signupLimitPerHour: number;
  /** Secret for signing short-lived values; random per process when unset. */
  secret: string;
  /** Seconds between two runs of the demo license reminders (REMINDER_INTERVAL_SECONDS, default 3600). */
  reminderIntervalSeconds: number;
  /** Monitoring (the Settings screen's "beszel" check): an HTTP GET on MONITORING_URL; unset = not configured. */
  monitoringUrl: string | null;
}

const environments = ['development', 'testing', 'staging', 'production'] as const;

function positive(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number (got "${value}")`);
  return n;
}

function nonNegative(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be 0 or a positive number (got "${value}")`);
  return n;
}

/** `TRUST_PROXY`: unset → false; `2` → trust 2 hops; `10.0.0.1, 10.1.0.0/16` → trust those proxies. */
export function parseTrustProxy(value: string | undefined): false | number | string[] {
  const v = value?.trim();
  if (!v) return false;
  if (/^\d+$/.test(v)) return Number(v);
  const list = v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (!list.every((x) => /^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(x) || ['loopback', 'linklocal', 'uniquelocal'].includes(x)))
    throw new Error('TRUST_PROXY must be a hop count or a comma-separated list of proxy addresses or CIDRs');
  return list;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  const envName = (env.APP_ENV ??
    (env.NODE_ENV === 'production' ? 'production' : env.NODE_ENV === 'test' ? 'testing' : 'development')) as Config['environment'];
  if (!environments.includes(envName)) throw new Error(`APP_ENV must be one of ${environments.join(', ')}`);
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || null,
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM ?? 'Lamella <no-reply@lamella.local>',
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    adminEmail: (env.ADMIN_EMAIL ?? 'admin@lamella.local').trim().toLowerCase(),
    adminPassword: env.ADMIN_PASSWORD || null,
    launcherPort: Number(env.LAUNCHER_PORT ?? 8000),
    jobLeaseSeconds: positiveNumber(env, 'JOB_LEASE_SECONDS', 30),
    environment: envName,
    sessionTtlDays: Number(env.SESSION_TTL_DAYS ?? 14),
    sessionCacheSeconds: nonNegative(env.SESSION_CACHE_SECONDS, 30, 'SESSION_CACHE_SECONDS'),
    listCacheSeconds: nonNegative(env.LIST_CACHE_SECONDS, 30, 'LIST_CACHE_SECONDS'),
    s3: {
      endpoint: env.S3_ENDPOINT || null,
      bucket: env.S3_BUCKET || null,
      region: env.S3_REGION ?? 'us-east-1',
      accessKeyId: env.S3_ACCESS_KEY_ID || null,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY || null,
      prefix: env.S3_PREFIX ?? '',
    },
    redisUrl: env.REDIS_URL || null,
    redisPrefix: env.REDIS_PREFIX || 'lamella:',
    startLocalLauncher: !['false', '0', 'no'].includes((env.START_LOCAL_LAUNCHER ?? 'true').trim().toLowerCase()),
    logLevel: env.LOG_LEVEL ?? 'info',
    metricsToken: env.METRICS_TOKEN || null,
    otelEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT || null,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    maxUploadMb: positive(env.MAX_UPLOAD_MB, 200, 'MAX_UPLOAD_MB'),
    maxUploadRequestMb: positive(env.MAX_UPLOAD_REQUEST_MB, 1000, 'MAX_UPLOAD_REQUEST_MB'),
    maxResultMb: positive(env.MAX_RESULT_MB, 512, 'MAX_RESULT_MB'),
    imageWorkers: Math.floor(nonNegative(env.IMAGE_WORKERS, 0, 'IMAGE_WORKERS')),
    imageWorkerMemoryMb: positive(env.IMAGE_WORKER_MEMORY_MB, 1536, 'IMAGE_WORKER_MEMORY_MB'),
    imageDecodeMaxMb: positive(env.IMAGE_DECODE_MAX_MB, 600, 'IMAGE_DECODE_MAX_MB'),
    signupLimitPerHour: positive(env.SIGNUP_LIMIT_PER_HOUR, 20, 'SIGNUP_LIMIT_PER_HOUR'),
    secret: env.SESSION_SECRET ?? randomBytes(32).toString('hex'),
    reminderIntervalSeconds: positive(env.REMINDER_INTERVAL_SECONDS, 3600, 'REMINDER_INTERVAL_SECONDS'),
    monitoringUrl: env.MONITORING_URL || null,
  };
}

function positiveNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number of seconds (got "${raw}")`);
  return n;
}
