import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db/client.ts';
import { recordAudit } from '../audit/service.ts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Every write made while an admin impersonates a user is audit-logged with both: the admin as the actor, the user
 * as the target (and in the details), with the route and its answer (issue 28 item 6). Recorded before the answer
 * is sent, so whoever got the answer finds the row.
 */
export function auditImpersonatedWrites(app: FastifyInstance, db: Db): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const auth = request.auth;
    if (!auth?.impersonatorId || READS.has(request.method)) return payload;
    try {
      await recordAudit(db, {
        actorId: auth.impersonatorId,
        action: 'impersonation.write',
        targetType: 'user',
        targetId: auth.user.id,
        details: {
          impersonatorId: auth.impersonatorId,
          impersonatedUserId: auth.user.id,
          method: request.method,
          route: request.routeOptions.url ?? request.url.split('?')[0],
          statusCode: reply.statusCode,
        },
      });
    } catch (err) {
      request.log.error({ err }, 'impersonated write not audited');
    }
    return payload;
  });
}
