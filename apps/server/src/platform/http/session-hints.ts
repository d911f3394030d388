import type { FastifyReply, FastifyRequest } from 'fastify';
import { clearSessionCookie, SESSION_COOKIE, setSignedInMarker, SIGNED_IN_COOKIE, type AuthContext } from '../auth/session.ts';

/**
 * The web app asks for the session (GET /api/users/me) only where the browser has one: SIGNED_IN_COOKIE says so
 * (apps/web/src/features/auth/session.ts). A signed-out visitor's page makes no call that answers 401, an error in
 * the browser's console. The pages (index.html, the first screen) carry for that:
 * - with a session cookie and its marker: a preload hint for GET /api/users/me (a Link header), so the session
 *   loads with the page, as index.html's own hint did before it was made for every visitor;
 * - with a session cookie but no marker (a session started before the marker existed): the session is looked up
 *   once; a valid one gets its marker (for the browser's session) and the hint, an ended one loses its cookie;
 * - a marker without a session cookie goes.
 * `lookup` reads the caller's session (`authenticate`); it is called only in the second case.
 */
export async function sessionHints(request: FastifyRequest, reply: FastifyReply, lookup: () => Promise<AuthContext | null>): Promise<void> {
  const hasSession = Boolean(request.cookies[SESSION_COOKIE]);
  const hasMarker = Boolean(request.cookies[SIGNED_IN_COOKIE]);
  if (!hasSession) {
    if (hasMarker) reply.clearCookie(SIGNED_IN_COOKIE, { path: '/' });
    return;
  }
  if (!hasMarker) {
    const auth = await lookup().catch((error: unknown) => {
      request.log.warn({ err: error }, 'session hints: session lookup failed');
      return undefined;
    });
    // a failed lookup changes nothing (the next page looks again); an access key is no browser's session
    if (auth === undefined || auth?.via === 'key') return;
    if (!auth) {
      clearSessionCookie(reply);
      return;
    }
    setSignedInMarker(reply, { secure: request.protocol === 'https' });
  }
  reply.header('link', '</api/users/me>; rel=preload; as=fetch; crossorigin=use-credentials');
}
