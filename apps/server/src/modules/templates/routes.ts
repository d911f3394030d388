import { asc, eq } from 'drizzle-orm';
import { Type } from 'typebox';
import { IdParams } from '@lamella/contracts';
import type { App, Ctx } from '../../app.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { notFound, validationFailed, type ErrorDetail } from '../../platform/http/errors.ts';
import { projectSettingsTemplates, users } from '../../platform/db/schema/index.ts';

const tags = ['project-settings-templates'];
const Body = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
    settings: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);

/**
 * The settings of a template must be a JSON object. The client sends it parsed; a string is accepted too
 * (the text of the editor) and parsed here, so a request that bypasses the client meets the same rule.
 */
function readBody(body: { name?: string; description?: string | null; settings?: unknown }) {
  const problems: ErrorDetail[] = [];
  const name = (body.name ?? '').trim();
  if (!name) problems.push({ field: 'name', key: 'errors.templateNameRequired' });
  let settings = body.settings;
  if (settings === undefined || settings === null || settings === '') problems.push({ field: 'settings', key: 'errors.templateSettingsRequired' });
  else {
    if (typeof settings === 'string') {
      try {
        settings = JSON.parse(settings);
      } catch {
        settings = undefined;
      }
    }
    if (!settings || typeof settings !== 'object' || Array.isArray(settings))
      problems.push({ field: 'settings', key: 'errors.templateSettingsInvalid' });
  }
  if (problems.length) throw validationFailed(problems);
  return { name, description: body.description?.trim() || null, settings: settings as Record<string, unknown> };
}

/** Project settings templates (accounts.md §2, §7): ADMIN only. */
export async function templatesRoutes(app: App, ctx: Ctx): Promise<void> {
  const guard = { auth: { roles: ['ADMIN' as const] } };
  const list = async (id?: string) => {
    const rows = await ctx.db
      .select({ t: projectSettingsTemplates, name: users.name, surname: users.surname })
      .from(projectSettingsTemplates)
      .leftJoin(users, eq(users.id, projectSettingsTemplates.createdById))
      .where(id ? eq(projectSettingsTemplates.id, id) : undefined)
      .orderBy(asc(projectSettingsTemplates.createdAt));
    return rows.map((r) => ({
      id: r.t.id,
      name: r.t.name,
      description: r.t.description,
      settings: r.t.settings,
      createdBy: r.name !== null ? { name: r.name, surname: r.surname } : null,
      createdAt: r.t.createdAt.toISOString(),
    }));
  };

  app.get('/admin/project-settings-templates', { config: guard, schema: { tags } }, async () => list());

  app.post('/admin/project-settings-templates', { config: guard, schema: { tags, body: Body } }, async (request) => {
    const values = readBody(request.body);
    const [row] = await ctx.db
      .insert(projectSettingsTemplates)
      .values({ ...values, createdById: requireAuth(request).user.id })
      .returning();
    return (await list(row.id))[0];
  });

  app.get('/admin/project-settings-templates/:id', { config: guard, schema: { tags, params: IdParams } }, async (request) => {
    const [row] = await list(request.params.id);
    if (!row) throw notFound('template');
    return row;
  });

  app.put('/admin/project-settings-templates/:id', { config: guard, schema: { tags, params: IdParams, body: Body } }, async (request) => {
    const values = readBody(request.body);
    const [row] = await ctx.db.update(projectSettingsTemplates).set(values).where(eq(projectSettingsTemplates.id, request.params.id)).returning();
    if (!row) throw notFound('template');
    return (await list(row.id))[0];
  });

  app.delete('/admin/project-settings-templates/:id', { config: guard, schema: { tags, params: IdParams } }, async (request, reply) => {
    const [row] = await ctx.db
      .delete(projectSettingsTemplates)
      .where(eq(projectSettingsTemplates.id, request.params.id))
      .returning({ id: projectSettingsTemplates.id });
    if (!row) throw notFound('template');
    return reply.status(204).send();
  });
}
