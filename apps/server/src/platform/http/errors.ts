import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { translate } from '@lamella/i18n';
import { requestLanguage } from './language.ts';

export interface ErrorDetail {
  field: string;
  /** Translation key of the message; `vars` fill its placeholders. */
  key: string;
  vars?: Record<string, string | number>;
}

/**
 * A failure with a stable `code` and a translated human message. Thrown anywhere in a request; the error
 * handler turns it into `{statusCode, code, message, details?}` in the caller's language.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    readonly key: string,
    readonly vars: Record<string, string | number> = {},
    readonly details: ErrorDetail[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(key);
  }
}

export const notFound = (what = 'resource') => new AppError(404, 'NOT_FOUND', 'errors.notFound', { what });
export const unauthenticated = () => new AppError(401, 'UNAUTHENTICATED', 'errors.unauthenticated');
export const forbidden = () => new AppError(403, 'FORBIDDEN', 'errors.forbidden');

/** 400 VALIDATION_FAILED naming each field. */
export function validationFailed(details: ErrorDetail[]): AppError {
  return new AppError(400, 'VALIDATION_FAILED', 'errors.validationFailed', {}, details);
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
    const lng = requestLanguage(request);
    if (error instanceof AppError) {
      for (const [k, v] of Object.entries(error.headers)) reply.header(k, v);
      const vars =
        error.code === 'VALIDATION_FAILED'
          ? { fields: error.details.map((d) => fieldLabel(lng, d.field)).join(', ') }
          : error.key === 'errors.notFound'
            ? { ...error.vars, what: thingLabel(lng, error.vars.what) }
            : error.vars;
      return reply.status(error.statusCode).send({
        statusCode: error.statusCode,
        code: error.code,
        message: translate(lng, error.key, vars),
        ...(error.details.length
          ? {
              details: error.details.map((d) => ({
                field: d.field,
                key: d.key,
                message: translate(lng, d.key, { field: fieldLabel(lng, d.field), ...d.vars }),
              })),
            }
          : {}),
      });
    }
    if (error.validation) {
      const details = error.validation.map((v) => {
        const path = (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.');
        const missing = (v.params as { missingProperty?: string })?.missingProperty;
        const field = [error.validationContext === 'body' ? '' : error.validationContext, path, missing].filter(Boolean).join('.') || 'body';
        return { field, key: missing ? 'validation.required' : 'errors.invalidField', vars: { reason: v.message ?? '' } };
      });
      return reply.status(400).send({
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        message: translate(lng, 'errors.validationFailed', { fields: details.map((d) => d.field).join(', ') }),
        details: details.map((d) => ({ field: d.field, key: d.key, message: translate(lng, d.key, { field: d.field, ...d.vars }) })),
      });
    }
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, 'unhandled error');
    const code =
      status === 500
        ? 'INTERNAL_ERROR'
        : status === 413
          ? 'PAYLOAD_TOO_LARGE'
          : status === 415
            ? 'UNSUPPORTED_MEDIA_TYPE'
            : (error.code ?? 'BAD_REQUEST');
    return reply.status(status).send({
      statusCode: status,
      code,
      message: status === 500 ? translate(lng, 'errors.internal') : error.message,
    });
  });
}

/**
 * The thing a 404 names, in the caller's language ("Das Rezept wurde nicht gefunden.", was "recipe wurde nicht
 * gefunden."); a thing without a translation as the code names it.
 */
function thingLabel(lng: string, what: string | number | undefined): string | number {
  if (typeof what !== 'string') return what ?? '';
  const key = `errors.things.${what}`;
  const label = translate(lng, key);
  return label === key ? what : label;
}

function fieldLabel(lng: string, field: string): string {
  const key = `errors.fields.${field}`;
  const label = translate(lng, key);
  return label === key ? field : label;
}
