import { and, desc, eq } from 'drizzle-orm';
import { Type } from 'typebox';
import { AccessKey, CreateAccessKeyBody, CreatedAccessKey, IdParams, UpdateAccessKeyBody, requiredRule } from '@lamella/contracts';
import type { App, Ctx } from '../../app.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { newToken } from '../../platform/auth/tokens.ts';
import { notFound } from '../../platform/http/errors.ts';
import { accessKeys } from '../../platform/db/schema/index.ts';
import { FieldErrors } from '../auth/form-fields.ts';

const tags = ['access-keys'];
type Row = typeof accessKeys.$inferSelect;
const present = (k: Row) => ({
  id: k.id,
  name: k.name,
  createdAt: k.createdAt.toISOString(),
  lastUsed: k.lastUsedAt ? k.lastUsedAt.toISOString() : null,
  enabled: k.enabled,
});

/**
 * Access keys for programmatic use (`Authorization: Bearer <code>`). The code is shown once, in the creation
 * response; only its SHA-256 hash is stored. Another user's key id answers 404.
 */
export async function accessKeysRoutes(app: App, ctx: Ctx): Promise<void> {
  app.get('/access-keys', { config: { auth: 'user' }, schema: { tags, response: { 200: Type.Array(AccessKey) } } }, async (request) => {
    const rows = await ctx.db
      .select()
      .from(accessKeys)
      .where(eq(accessKeys.userId, requireAuth(request).user.id))
      .orderBy(desc(accessKeys.createdAt));
    return rows.map(present);
  });

  app.post(
    '/access-keys',
    { config: { auth: 'user' }, schema: { tags, body: CreateAccessKeyBody, response: { 200: CreatedAccessKey } } },
    async (request) => {
      const name = request.body.name.trim();
      new FieldErrors().add('name', requiredRule(name)).throwIfAny();
      const { token, hash } = newToken('lam_');
      const [row] = await ctx.db
        .insert(accessKeys)
        .values({ userId: requireAuth(request).user.id, name, keyHash: hash })
        .returning();
      return { ...present(row), code: token };
    },
  );

  app.patch(
    '/access-keys/:id',
    { config: { auth: 'user' }, schema: { tags, params: IdParams, body: UpdateAccessKeyBody, response: { 200: AccessKey } } },
    async (request) => {
      const [row] = await ctx.db
        .update(accessKeys)
        .set({ enabled: request.body.enabled })
        .where(and(eq(accessKeys.id, request.params.id), eq(accessKeys.userId, requireAuth(request).user.id)))
        .returning();
      if (!row) throw notFound('access key');
      return present(row);
    },
  );

  app.delete('/access-keys/:id', { config: { auth: 'user' }, schema: { tags, params: IdParams } }, async (request, reply) => {
    const [row] = await ctx.db
      .delete(accessKeys)
      .where(and(eq(accessKeys.id, request.params.id), eq(accessKeys.userId, requireAuth(request).user.id)))
      .returning({ id: accessKeys.id });
    if (!row) throw notFound('access key');
    return reply.status(204).send();
  });
}
