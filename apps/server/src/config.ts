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
  environment: 'development' | 'testing' | 'staging' | 'production';
  sessionTtlDays: number;
  s3: { endpoint: string | null; bucket: string | null; region: string; accessKeyId: string | null; secretAccessKey: string | null };
  logLevel: string;
  /** Secret for signing short-lived values; random per process when unset. */
  secret: string;
}

const environments = ['development', 'testing', 'staging', 'production'] as const;

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
    environment: envName,
    sessionTtlDays: Number(env.SESSION_TTL_DAYS ?? 14),
    s3: {
      endpoint: env.S3_ENDPOINT || null,
      bucket: env.S3_BUCKET || null,
      region: env.S3_REGION ?? 'us-east-1',
      accessKeyId: env.S3_ACCESS_KEY_ID || null,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY || null,
    },
    logLevel: env.LOG_LEVEL ?? 'info',
    secret: env.SESSION_SECRET ?? randomBytes(32).toString('hex'),
  };
}
