import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * The Content-Security-Policy of every answer. What the web app needs: its own scripts only (Vite emits no
 * inline script); Mantine's inline styles (`style-src 'unsafe-inline'`); images from blob: and data: URLs
 * (previews, masks, QR codes); socket.io over WebSocket (`connect-src ws: wss:`); fonts from data: URLs.
 * Swagger UI at /api/docs (its own scripts, inline styles, data: images, fetches /api/openapi.json) fits the
 * same policy. Framing is refused (`frame-ancestors 'none'` and X-Frame-Options DENY).
 */
export const contentSecurityPolicy = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'", 'ws:', 'wss:'],
  'worker-src': ["'self'", 'blob:'],
  'media-src': ["'self'", 'blob:', 'data:'],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** Security headers on every answer (API, web app, static files, errors) via @fastify/helmet. */
export async function registerSecurityHeaders(app: FastifyInstance, opts: { https: boolean }): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    // Only meaningful over HTTPS; a plain-HTTP installation must not be told to upgrade.
    strictTransportSecurity: opts.https ? { maxAge: 31_536_000 } : false,
    crossOriginEmbedderPolicy: false,
  });
}
