import { and, eq, isNull } from 'drizzle-orm';
import { IdParams } from '@lamella/contracts';
import type { App, Ctx } from '../../app.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { notFound } from '../../platform/http/errors.ts';
import { notifications } from '../../platform/db/schema/index.ts';
import { listNotifications, ownNotification } from './service.ts';

const tags = ['notifications'];

/** The notification panel (user-app.md §7): list, mark seen (one or all), delete (one or all). */
export async function notificationsRoutes(app: App, ctx: Ctx): Promise<void> {
  app.get('/notifications', { config: { auth: 'user' }, schema: { tags } }, async (request) =>
    listNotifications(ctx.db, requireAuth(request).user.id),
  );

  app.patch('/notifications/all/seen', { config: { auth: 'user' }, schema: { tags } }, async (request) => {
    const rows = await ctx.db
      .update(notifications)
      .set({ seenAt: new Date() })
      .where(and(eq(notifications.userId, requireAuth(request).user.id), isNull(notifications.seenAt)))
      .returning({ id: notifications.id });
    return { updated: rows.length };
  });

  app.patch('/notifications/:id/seen', { config: { auth: 'user' }, schema: { tags, params: IdParams } }, async (request) => {
    const [row] = await ctx.db
      .update(notifications)
      .set({ seenAt: new Date() })
      .where(ownNotification(requireAuth(request).user.id, request.params.id))
      .returning({ id: notifications.id });
    if (!row) throw notFound('notification');
    return { updated: 1 };
  });

  app.delete('/notifications/all', { config: { auth: 'user' }, schema: { tags } }, async (request) => {
    const rows = await ctx.db
      .delete(notifications)
      .where(eq(notifications.userId, requireAuth(request).user.id))
      .returning({ id: notifications.id });
    return { deleted: rows.length };
  });

  app.delete('/notifications/:id', { config: { auth: 'user' }, schema: { tags, params: IdParams } }, async (request) => {
    const [row] = await ctx.db
      .delete(notifications)
      .where(ownNotification(requireAuth(request).user.id, request.params.id))
      .returning({ id: notifications.id });
    if (!row) throw notFound('notification');
    return { deleted: 1 };
  });
}
