import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

/**
 * Whether a browser sent this request from another site: `Sec-Fetch-Site` when the browser sends it, else the
 * `Origin` or `Referer` compared with the request's host and the public address. A request without any of these
 * (a script, curl) is not a browser's cross-site request.
 */
export function isCrossSite(request: FastifyRequest, publicUrl: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && site) return site !== 'same-origin' && site !== 'none';
  const from = request.headers.origin ?? request.headers.referer;
  if (typeof from !== 'string' || !from) return false;
  try {
    const url = new URL(from);
    return url.host !== request.headers.host && url.origin !== new URL(publicUrl).origin;
  } catch {
    return true;
  }
}

/** 403 CROSS_SITE_REQUEST for a state-changing GET that another site's page or link made (issue 28 item 9). */
export function assertSameOrigin(request: FastifyRequest, publicUrl: string): void {
  if (isCrossSite(request, publicUrl)) throw new AppError(403, 'CROSS_SITE_REQUEST', 'errors.crossSite');
}
