import type { DestinationStream, LoggerOptions } from 'pino';

/**
 * Structured JSON logs (pino, through Fastify's logger): one object per line with `level`, `time`, `service`,
 * and the ids a line concerns — `reqId` (Fastify's request id, also answered in `x-request-id`), `userId`,
 * `jobId`, `launcherId`, `model`, `modelVersion` — so one grep of an id follows it. `LOG_LEVEL` per process.
 * No secrets or personal data: credentials are redacted, and lines name users by id only (never e-mail or name).
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.secret',
  '*.authorization',
  '*.cookie',
];

/** E-mail addresses in a message (e.g. "mail to … failed") are replaced: lines name people by id only. */
const EMAIL = /[^\s<>"'@]+@[^\s<>"'@]+\.[^\s<>"'@]+/g;
export const scrubEmails = (text: string): string => text.replace(EMAIL, '[email]');

export function loggerOptions(level: string, service: string): LoggerOptions {
  return {
    level,
    base: { service, pid: process.pid },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: () => `,"time":"${new Date().toISOString()}"`,
    formatters: { level: (label) => ({ level: label }) },
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map((a) => (typeof a === 'string' ? scrubEmails(a) : a)) as Parameters<typeof method>);
      },
    },
    // the request line names the method and the route, never the query string (it may carry tokens: ?token=)
    serializers: {
      req: (req: { method?: string; url?: string; routeOptions?: { url?: string } }) => ({
        method: req.method,
        url: req.url?.split('?')[0],
      }),
    },
  };
}

/** Fastify's `logger` option: the options and, in tests, the stream the lines go to. */
export function fastifyLogger(level: string, service: string, stream?: DestinationStream) {
  return stream ? { ...loggerOptions(level, service), stream } : loggerOptions(level, service);
}

/** The part of a pino logger the dispatcher and other non-request code use. */
export interface Log {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  child(bindings: Record<string, unknown>): Log;
}

/** A logger that drops everything (tests without a log stream, tools). */
export const silentLog: Log = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLog,
};
