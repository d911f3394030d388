import { and, desc, eq, inArray, or } from 'drizzle-orm';
import { Type } from 'typebox';
import { IdParams } from '@lamella/contracts';
import type { App, Ctx } from '../../app.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { AppError, notFound, validationFailed } from '../../platform/http/errors.ts';
import { projectShares, projects, users } from '../../platform/db/schema/index.ts';
import { normalizeEmail } from '../users/repo.ts';
import { notify } from '../notifications/service.ts';

const tags = ['projects'];

/**
 * Projects group a user's jobs and can be shared (user-app.md says only that a project can be deleted and
 * opened by ?project=, and that sharing notifies with PROJECT_SHARED). Owners manage; people it is shared
 * with see it.
 */
export async function projectsRoutes(app: App, ctx: Ctx): Promise<void> {
  const present = (p: typeof projects.$inferSelect, userId: string) => ({
    id: p.id,
    name: p.name,
    description: p.description,
    isOwner: p.ownerId === userId,
    createdAt: p.createdAt.toISOString(),
  });

  app.get('/projects', { config: { auth: 'user' }, schema: { tags } }, async (request) => {
    const userId = requireAuth(request).user.id;
    const shared = ctx.db.select({ id: projectShares.projectId }).from(projectShares).where(eq(projectShares.userId, userId));
    const rows = await ctx.db
      .select()
      .from(projects)
      .where(or(eq(projects.ownerId, userId), inArray(projects.id, shared)))
      .orderBy(desc(projects.createdAt));
    return rows.map((p) => present(p, userId));
  });

  app.post(
    '/projects',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        body: Type.Object(
          { name: Type.String({ maxLength: 200 }), description: Type.Optional(Type.String({ maxLength: 2000 })) },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const name = request.body.name.trim();
      if (!name) throw validationFailed([{ field: 'name', key: 'validation.required' }]);
      const userId = requireAuth(request).user.id;
      const [row] = await ctx.db
        .insert(projects)
        .values({ ownerId: userId, name, description: request.body.description?.trim() || null })
        .returning();
      return present(row, userId);
    },
  );

  app.delete('/projects/:id', { config: { auth: 'user' }, schema: { tags, params: IdParams } }, async (request, reply) => {
    const [row] = await ctx.db
      .delete(projects)
      .where(and(eq(projects.id, request.params.id), eq(projects.ownerId, requireAuth(request).user.id)))
      .returning({ id: projects.id });
    if (!row) throw notFound('project');
    return reply.status(204).send();
  });

  app.post(
    '/projects/:id/share',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        params: IdParams,
        body: Type.Object(
          { email: Type.String({ maxLength: 254 }), role: Type.Optional(Type.Union([Type.Literal('VIEWER'), Type.Literal('EDITOR')])) },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const [project] = await ctx.db
        .select()
        .from(projects)
        .where(and(eq(projects.id, request.params.id), eq(projects.ownerId, auth.user.id)));
      if (!project) throw notFound('project');
      const [target] = await ctx.db
        .select()
        .from(users)
        .where(eq(users.email, normalizeEmail(request.body.email)));
      if (!target || target.role === 'BLOCKED')
        throw new AppError(404, 'USER_NOT_FOUND', 'errors.notFound', { what: 'user' }, [{ field: 'email', key: 'errors.userNotFound' }]);
      if (target.id === auth.user.id) throw validationFailed([{ field: 'email', key: 'errors.shareWithSelf' }]);
      await ctx.db
        .insert(projectShares)
        .values({ projectId: project.id, userId: target.id, role: request.body.role ?? 'VIEWER', sharedById: auth.user.id })
        .onConflictDoUpdate({ target: [projectShares.projectId, projectShares.userId], set: { role: request.body.role ?? 'VIEWER' } });
      await notify(ctx.db, ctx.realtime, target.id, 'PROJECT_SHARED', {
        projectId: project.id,
        projectName: project.name,
        sharedByName: `${auth.user.name} ${auth.user.surname}`.trim(),
      });
      return { status: 'OK' };
    },
  );
}
