import { and, count, eq, ne } from 'drizzle-orm';
import { Type } from 'typebox';
import { IdParams } from '@lamella/contracts';
import type { App, Ctx } from '../../app.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { endAllSessions, startSession } from '../../platform/auth/session.ts';
import { AppError, notFound, validationFailed } from '../../platform/http/errors.ts';
import { licenses, privileges, users } from '../../platform/db/schema/index.ts';
import { findUserById, updateUser } from '../users/repo.ts';
import { defaultDemoLicense, getDemoLicense, putSetting, type DemoLicenseSettings } from '../system/settings.ts';
import { jobStats, listCustomers, userSortColumns } from './repo.ts';

const tags = ['admin-users'];
const ADMIN = { auth: { roles: ['ADMIN' as const] } };
const USER_READ = { auth: { permission: 'USER.READ' } };
const ROLES = ['ADMIN', 'POWER_USER', 'EDITOR', 'USER', 'BLOCKED'] as const;
/** The privileges an administrator can grant (back-office §6). */
export const KNOWN_PRIVILEGES = ['USER.READ', 'JOB.READ'];
const csvColumns = [
  'id',
  'fullName',
  'email',
  'company',
  'phone',
  'role',
  'trainingConsent',
  'license',
  'timeJoined',
  'lastLogin',
  'uploaded',
] as const;
const DAY = 86_400_000;

/**
 * Users, roles, access control, licenses and impersonation (back-office "Users, access and vouchers" and
 * Settings → Demo license). A role change ends the user's sessions, so they sign in again with the new role.
 * Per the spec's menu, Activate account and Assign license are open to whoever may read users (USER.READ).
 */
export async function adminUsersRoutes(app: App, ctx: Ctx): Promise<void> {
  const Sort = Type.Optional(Type.Union(Object.keys(userSortColumns).map((k) => Type.Literal(k))));
  app.get(
    '/admin/users2',
    {
      config: USER_READ,
      schema: {
        tags,
        querystring: Type.Object({
          sortKey: Sort,
          sortOrder: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
          filter: Type.Optional(Type.String({ maxLength: 200 })),
          columns: Type.Optional(Type.Unknown()),
        }),
      },
    },
    async (request) =>
      listCustomers(ctx.db, { ...request.query, sortKey: request.query.sortKey as keyof typeof userSortColumns | undefined, limit: 5000 }),
  );

  app.get(
    '/admin/users2/csv',
    {
      config: USER_READ,
      schema: {
        tags,
        querystring: Type.Object({
          'columns[]': Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
          columns: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
        }),
      },
    },
    async (request, reply) => {
      const asked = [request.query['columns[]'] ?? request.query.columns ?? []].flat().flatMap((c) => String(c).split(','));
      const cols = asked.length ? csvColumns.filter((c) => asked.includes(c)) : [...csvColumns];
      const rows = await listCustomers(ctx.db, { limit: 1_000_000 });
      const cell = (v: unknown) => {
        const s = v === null || v === undefined ? '' : typeof v === 'object' ? ((v as { type?: string }).type ?? JSON.stringify(v)) : String(v);
        return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
      };
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="users.csv"');
      return [cols.join(','), ...rows.map((r) => cols.map((c) => cell(r[c])).join(','))].join('\r\n') + '\r\n';
    },
  );

  app.get('/users/:id/stats', { config: USER_READ, schema: { tags, params: IdParams } }, async (request) => {
    if (!(await findUserById(ctx.db, request.params.id))) throw notFound('user');
    return jobStats(ctx.db, request.params.id);
  });

  app.get('/users/:id', { config: USER_READ, schema: { tags, params: IdParams } }, async (request) => {
    const u = await findUserById(ctx.db, request.params.id);
    if (!u) throw notFound('user');
    return {
      id: u.id,
      name: u.name,
      surname: u.surname,
      email: u.email,
      timeJoined: u.createdAt.toISOString(),
      lastLogin: u.lastLoginAt?.toISOString() ?? null,
      verified: u.emailVerified,
      role: u.role,
      trainingConsent: u.trainingConsent,
      address: u.address,
      removeDataPermanently: u.removeDataPermanently,
    };
  });

  app.patch(
    '/users/:id',
    {
      config: ADMIN,
      schema: {
        tags,
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        body: Type.Object({ role: Type.Optional(Type.String({ maxLength: 20 })) }),
      },
    },
    async (request) => {
      const role = request.body.role as (typeof ROLES)[number] | undefined;
      if (!request.params.id || !role || !ROLES.includes(role) || !/^[0-9a-f-]{36}$/i.test(request.params.id)) {
        throw new AppError(400, 'USER_OR_ROLE_UNDEFINED', 'adminUsersErrors.userOrRoleUndefined', {}, [
          { field: 'role', key: 'adminUsersErrors.userOrRoleUndefined' },
        ]);
      }
      const target = await findUserById(ctx.db, request.params.id);
      if (!target) throw notFound('user');
      if (target.role === 'ADMIN' && role !== 'ADMIN') await assertAnotherAdmin(target.id);
      await updateUser(ctx.db, target.id, { role });
      if (role !== target.role) await endAllSessions(ctx.db, target.id);
      return { id: target.id, role };
    },
  );

  const assertAnotherAdmin = async (exceptId: string) => {
    const [row] = await ctx.db
      .select({ n: count() })
      .from(users)
      .where(and(eq(users.role, 'ADMIN'), ne(users.id, exceptId)));
    if (Number(row.n) === 0) throw new AppError(409, 'LAST_ADMIN', 'adminUsersErrors.lastAdmin');
  };

  app.delete('/users/:id', { config: ADMIN, schema: { tags, params: IdParams } }, async (request, reply) => {
    const auth = requireAuth(request);
    if (request.params.id === auth.user.id) throw new AppError(409, 'CANNOT_DELETE_SELF', 'adminUsersErrors.deleteSelf');
    const target = await findUserById(ctx.db, request.params.id);
    if (!target) throw notFound('user');
    if (target.role === 'ADMIN') await assertAnotherAdmin(target.id);
    await ctx.db.delete(users).where(eq(users.id, target.id));
    if (target.logoKey) await ctx.storage.delete(target.logoKey);
    return reply.status(204).send();
  });

  app.put('/admin/users/:id/activate', { config: USER_READ, schema: { tags, params: IdParams } }, async (request) => {
    const target = await findUserById(ctx.db, request.params.id);
    if (!target) throw notFound('user');
    await updateUser(ctx.db, target.id, { emailVerified: true, ...(target.role === 'BLOCKED' ? { role: 'USER' as const } : {}) });
    return { status: 'OK' };
  });

  app.patch(
    '/admin/users/:id/preferences',
    {
      config: ADMIN,
      schema: { tags, params: IdParams, body: Type.Object({ removeDataPermanently: Type.Boolean() }, { additionalProperties: false }) },
    },
    async (request) => {
      const target = await findUserById(ctx.db, request.params.id);
      if (!target) throw notFound('user');
      await updateUser(ctx.db, target.id, { removeDataPermanently: request.body.removeDataPermanently });
      return { status: 'OK' };
    },
  );

  /** The admin's browser now acts as the user (GET /users/me shows impersonatedBy); signing out ends it. */
  app.post('/users/:id/impersonate', { config: ADMIN, schema: { tags, params: IdParams } }, async (request, reply) => {
    const auth = requireAuth(request);
    const target = await findUserById(ctx.db, request.params.id);
    if (!target || target.id === auth.user.id) throw notFound('user');
    if (target.role === 'BLOCKED') throw new AppError(403, 'ACCOUNT_BLOCKED', 'errors.accountBlocked');
    await startSession(ctx.db, request, reply, ctx.sessionOptions, target.id, { impersonatorId: auth.user.id });
    return { status: 'OK' };
  });

  app.get('/admin/acl', { config: ADMIN, schema: { tags } }, async () => {
    const rows = await ctx.db
      .select({ p: privileges, name: users.name, surname: users.surname, role: users.role, id: users.id })
      .from(users)
      .leftJoin(privileges, eq(privileges.userId, users.id))
      .where(eq(users.role, 'POWER_USER'));
    const byUser = new Map<string, { userId: string; name: string; privileges: Array<{ resource: string; action: string }> }>();
    for (const r of rows) {
      const entry = byUser.get(r.id) ?? { userId: r.id, name: `${r.name} ${r.surname}`.trim(), privileges: [] };
      if (r.p) entry.privileges.push({ resource: r.p.resource, action: r.p.action });
      byUser.set(r.id, entry);
    }
    return [...byUser.values()];
  });

  app.put(
    '/admin/acl/:id',
    {
      config: ADMIN,
      schema: {
        tags,
        params: IdParams,
        body: Type.Object(
          {
            privileges: Type.Array(Type.Object({ resource: Type.String({ maxLength: 40 }), action: Type.String({ maxLength: 40 }) }), {
              maxItems: 20,
            }),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const unknown = request.body.privileges.findIndex((p) => !KNOWN_PRIVILEGES.includes(`${p.resource}.${p.action}`));
      if (unknown >= 0) throw validationFailed([{ field: `privileges.${unknown}`, key: 'adminUsersErrors.unknownPrivilege' }]);
      const target = await findUserById(ctx.db, request.params.id);
      if (!target) throw notFound('user');
      await ctx.db.transaction(async (tx) => {
        await tx.delete(privileges).where(eq(privileges.userId, target.id));
        const unique = [...new Map(request.body.privileges.map((p) => [`${p.resource}.${p.action}`, p])).values()];
        if (unique.length) await tx.insert(privileges).values(unique.map((p) => ({ userId: target.id, ...p })));
      });
      return { userId: target.id, privileges: request.body.privileges };
    },
  );

  app.post(
    '/admin/licenses',
    {
      config: USER_READ,
      schema: {
        tags,
        body: Type.Object(
          {
            type: Type.Union([Type.Literal('IMAGES_LIMITED'), Type.Literal('TIME_LIMITED'), Type.Literal('UNLIMITED')]),
            images: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
            days: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
            userId: Type.String({ format: 'uuid' }),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const { type, images, days, userId } = request.body;
      const problems = [];
      if (type === 'IMAGES_LIMITED' && !(images && images > 0)) problems.push({ field: 'images', key: 'adminUsersErrors.imagesRequired' });
      if (type === 'TIME_LIMITED' && !(days && days > 0)) problems.push({ field: 'days', key: 'adminUsersErrors.daysRequired' });
      if (problems.length) throw validationFailed(problems);
      if (!(await findUserById(ctx.db, userId))) throw notFound('user');
      const row = await ctx.db.transaction(async (tx) => {
        await tx
          .update(licenses)
          .set({ active: false })
          .where(and(eq(licenses.userId, userId), eq(licenses.active, true)));
        const [l] = await tx
          .insert(licenses)
          .values({
            userId,
            type,
            createdBy: 'ADMIN',
            createdById: requireAuth(request).user.id,
            images: type === 'IMAGES_LIMITED' ? images! : null,
            finishAt: type === 'TIME_LIMITED' ? new Date(Date.now() + days! * DAY) : null,
          })
          .returning();
        return l;
      });
      return {
        type: row.type,
        limits: { images: row.images, used: row.used, finish: row.finishAt?.toISOString() ?? null },
        createdBy: row.createdBy,
      };
    },
  );

  app.get('/admin/licenses/demo', { config: ADMIN, schema: { tags } }, async () => getDemoLicense(ctx.db));

  const Count = Type.Integer({ minimum: 0, maximum: 100_000 });
  app.put(
    '/admin/licenses/demo',
    {
      config: ADMIN,
      schema: {
        tags,
        body: Type.Object(
          { maxImages: Count, demoDuration: Count, extensionDuration: Count, reminderBeforeExpiry: Count, reminderBeforeExtensionExpiry: Count },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const value: DemoLicenseSettings = { ...defaultDemoLicense, ...request.body };
      await putSetting(ctx.db, 'demoLicense', value);
      return value;
    },
  );
}
