import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { App, Ctx } from '../../app.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { AppError, notFound, type ErrorDetail } from '../../platform/http/errors.ts';
import type { Db } from '../../platform/db/client.ts';
import { computeModels, customizationGroups, customizationMembers, customizationParents, users } from '../../platform/db/schema/index.ts';
import { setSettingsResolver, type SettingsResolver } from '../jobs/service.ts';
import { ADMIN, FieldErrors, USER, conflict, isUuid, message, userFromBody } from './common.ts';
import { canUse, findModel } from './models.ts';
import { inheritanceChain, resolveSettings, sortParents, findCycle, type GroupNode, type Json } from './customizations-resolve.ts';
import { modelSettingsSource, validateAgainst } from './settings-schema.ts';

/**
 * Customization groups (back-office.md §2 "Customization groups screen", §4 inheritance, §5, §7, §8).
 * ADMIN only: §6 gives this page no permission a POWER_USER could hold, so power users do not see it.
 * Decisions where the spec is silent:
 * - A user is a member of at most one group per model (adding them to a second group of the same model is
 *   409 CUSTOMIZATION_MEMBER_CONFLICT naming the other group); that group is what their jobs of the model run with.
 * - Parents may belong to another model (the same-model restriction is an optional filter of the screen).
 *   `POST .../parents` replaces the whole set; self-parent (400 CUSTOMIZATION_SELF_PARENT) and cycles
 *   (400 CUSTOMIZATION_CYCLE) are refused.
 * - Resolved settings: model defaults ← parents (priority 0 is the strongest) ← the group's own settings,
 *   deep-merged (customizations-resolve.ts).
 * - A group's own settings are validated with Ajv against its model's settings schema before saving (and again
 *   when the group is moved to another model). Resolved settings are not re-validated: a parent of another
 *   model may bring values the model refuses, which then fails the job with the model's own message.
 * - Jobs: a member's jobs of the group's model run with the resolved settings and record the group
 *   (`jobs.customization_id`); see `customizationSettingsResolver`.
 */
const tags = ['admin-customizations'];
const base = '/admin/customizations';
const GroupId = Type.Object({ groupId: Type.String({ format: 'uuid' }) });
const GroupBody = Type.Object({
  nameEn: Type.Optional(Type.Unknown()),
  nameDe: Type.Optional(Type.Unknown()),
  modelId: Type.Optional(Type.Unknown()),
  description: Type.Optional(Type.Unknown()),
});
const NAME_MAX = 200;
const DESCRIPTION_MAX = 5000;

type GroupRow = typeof customizationGroups.$inferSelect;
const isPlain = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

async function findGroup(db: Db, id: string): Promise<GroupRow> {
  if (!isUuid(id)) throw notFound('customization group');
  const [g] = await db.select().from(customizationGroups).where(eq(customizationGroups.id, id));
  if (!g) throw notFound('customization group');
  return g;
}

/** Groups as the screen shows them: model, members (by surname), parents (priority order, 0 first). */
async function presentGroups(db: Db, ids?: string[]) {
  if (ids && !ids.length) return [];
  const groups = await db
    .select({ g: customizationGroups, model: { id: computeModels.id, displayName: computeModels.displayName } })
    .from(customizationGroups)
    .innerJoin(computeModels, eq(computeModels.id, customizationGroups.modelId))
    .where(ids ? inArray(customizationGroups.id, ids) : undefined)
    .orderBy(asc(computeModels.displayName), asc(customizationGroups.nameEn), asc(customizationGroups.createdAt));
  const gids = groups.map((r) => r.g.id);
  if (!gids.length) return [];
  const [members, parents] = await Promise.all([
    db
      .select({ groupId: customizationMembers.groupId, id: users.id, name: users.name, surname: users.surname, email: users.email })
      .from(customizationMembers)
      .innerJoin(users, eq(users.id, customizationMembers.userId))
      .where(inArray(customizationMembers.groupId, gids))
      .orderBy(asc(users.surname), asc(users.name), asc(users.email)),
    db
      .select({
        groupId: customizationParents.groupId,
        parentId: customizationParents.parentId,
        priority: customizationParents.priority,
        nameEn: customizationGroups.nameEn,
        nameDe: customizationGroups.nameDe,
      })
      .from(customizationParents)
      .innerJoin(customizationGroups, eq(customizationGroups.id, customizationParents.parentId))
      .where(inArray(customizationParents.groupId, gids)),
  ]);
  return groups.map(({ g, model }) => ({
    id: g.id,
    nameEn: g.nameEn,
    nameDe: g.nameDe,
    description: g.description,
    modelId: g.modelId,
    model,
    members: members.filter((m) => m.groupId === g.id).map(({ groupId: _g, ...m }) => m),
    parents: sortParents(parents.filter((p) => p.groupId === g.id)).map((p) => ({
      parentId: p.parentId,
      priority: p.priority,
      parent: { id: p.parentId, nameEn: p.nameEn, nameDe: p.nameDe },
    })),
    createdAt: g.createdAt.toISOString(),
    updatedAt: g.updatedAt.toISOString(),
  }));
}

async function presentGroup(db: Db, id: string) {
  const [g] = await presentGroups(db, [id]);
  return g;
}

/** Every group with its own settings and parents (the tables stay small: a few groups per model). */
async function loadGraph(db: Db): Promise<Map<string, GroupNode & { modelId: string }>> {
  const [groups, links] = await Promise.all([
    db.select({ id: customizationGroups.id, settings: customizationGroups.settings, modelId: customizationGroups.modelId }).from(customizationGroups),
    db.select().from(customizationParents),
  ]);
  const graph = new Map(groups.map((g) => [g.id, { id: g.id, settings: g.settings ?? {}, modelId: g.modelId, parents: [] as GroupNode['parents'] }]));
  for (const l of links) graph.get(l.groupId)?.parents.push({ parentId: l.parentId, priority: l.priority });
  return graph;
}

async function schemaOf(db: Db, modelId: string) {
  const source = await modelSettingsSource(db, modelId);
  if (!source) throw notFound('model');
  return source;
}

/** 400 SETTINGS_INVALID naming each Ajv error (path and reason) when `settings` do not match the schema. */
function assertValid(schema: Json, settings: Json): void {
  const errors = validateAgainst(schema, settings);
  if (!errors) return;
  const details: ErrorDetail[] = errors.map((e) => ({
    field: `settings${e.instancePath.replace(/\//g, '.')}`,
    key: 'adminErrors.schemaError',
    vars: { path: e.instancePath || '/', reason: e.message },
  }));
  throw new AppError(400, 'SETTINGS_INVALID', 'adminErrors.settingsInvalid', {}, details);
}

function parseGroup(body: Record<string, unknown>) {
  const e = new FieldErrors();
  const nameEn = e.required('nameEn', body.nameEn, 'groupNameRequired');
  const nameDe = e.required('nameDe', body.nameDe, 'groupNameRequired');
  if (nameEn.length > NAME_MAX) e.add('nameEn', 'tooLong', { max: NAME_MAX });
  if (nameDe.length > NAME_MAX) e.add('nameDe', 'tooLong', { max: NAME_MAX });
  const modelId = body.modelId;
  if (typeof modelId !== 'string' || !modelId.trim()) e.add('modelId', 'modelRequired');
  else if (!isUuid(modelId)) e.add('modelId', 'modelUnknown');
  let description: string | null = null;
  if (body.description !== undefined && body.description !== null) {
    if (typeof body.description !== 'string') e.add('description', 'filterInvalid');
    else if (body.description.length > DESCRIPTION_MAX) e.add('description', 'tooLong', { max: DESCRIPTION_MAX });
    else description = body.description.trim() || null;
  }
  e.throwIfAny();
  return { nameEn, nameDe, modelId: modelId as string, description };
}

async function assertModelExists(db: Db, modelId: string): Promise<void> {
  const [m] = await db.select({ id: computeModels.id }).from(computeModels).where(eq(computeModels.id, modelId));
  if (!m) {
    const e = new FieldErrors();
    e.add('modelId', 'modelUnknown');
    e.throwIfAny();
  }
}

/**
 * 409 when one of `userIds` is already a member of another group of `modelId`. Runs inside the caller's
 * transaction after locking the users' rows, so two concurrent additions cannot both pass.
 */
async function assertNoOtherGroup(tx: Db, groupId: string, modelId: string, userIds: string[]): Promise<void> {
  if (!userIds.length) return;
  await tx.execute(
    sql`select id from users where id in (${sql.join(
      userIds.map((u) => sql`${u}`),
      sql`, `,
    )}) for update`,
  );
  const [other] = await tx
    .select({ nameEn: customizationGroups.nameEn, nameDe: customizationGroups.nameDe })
    .from(customizationMembers)
    .innerJoin(customizationGroups, eq(customizationGroups.id, customizationMembers.groupId))
    .where(and(inArray(customizationMembers.userId, userIds), eq(customizationGroups.modelId, modelId), ne(customizationGroups.id, groupId)))
    .limit(1);
  if (other) throw conflict('CUSTOMIZATION_MEMBER_CONFLICT', 'memberInOtherGroup', { group: other.nameEn });
}

/**
 * The settings a user's jobs of a model run with (jobs/service.ts `setSettingsResolver`): with an explicit
 * group of that model (the admin sandbox's customizationId), that group; otherwise the group of the model the
 * user is a member of; otherwise none (`{}`: the model applies its own defaults). The settings are the
 * resolved settings, except that a `modelVersion` coming only from the model defaults is left out, so a job
 * runs on the model's current version unless a group sets one.
 */
export const customizationSettingsResolver: SettingsResolver = async (db, userId, modelId, customizationId) => {
  let group: GroupRow | undefined;
  if (customizationId && isUuid(customizationId)) {
    [group] = await db
      .select()
      .from(customizationGroups)
      .where(and(eq(customizationGroups.id, customizationId), eq(customizationGroups.modelId, modelId)));
  }
  if (!group) {
    [group] = await db
      .select({ g: customizationGroups })
      .from(customizationMembers)
      .innerJoin(customizationGroups, eq(customizationGroups.id, customizationMembers.groupId))
      .where(and(eq(customizationMembers.userId, userId), eq(customizationGroups.modelId, modelId)))
      .orderBy(asc(customizationGroups.createdAt))
      .limit(1)
      .then((r) => r.map((x) => x.g));
  }
  if (!group) return { customizationId: null, settings: {} };
  const [source, graph] = await Promise.all([schemaOf(db, modelId), loadGraph(db)]);
  const { modelVersion: _v, ...defaults } = source.defaults;
  return { customizationId: group.id, settings: resolveSettings(graph, group.id, defaults) };
};

export async function customizationRoutes(app: App, ctx: Ctx): Promise<void> {
  const db = ctx.db;
  setSettingsResolver(customizationSettingsResolver);

  app.get(`${base}/groups`, { config: ADMIN, schema: { tags } }, async () => presentGroups(db));

  app.post(`${base}/groups`, { config: ADMIN, schema: { tags, body: GroupBody } }, async (request) => {
    const values = parseGroup(request.body as Record<string, unknown>);
    await assertModelExists(db, values.modelId);
    const [g] = await db.insert(customizationGroups).values(values).returning();
    return { ...(await presentGroup(db, g.id)), message: message(request, 'groupCreated') };
  });

  app.put(`${base}/groups/:groupId`, { config: ADMIN, schema: { tags, params: GroupId, body: GroupBody } }, async (request) => {
    const group = await findGroup(db, request.params.groupId);
    const values = parseGroup(request.body as Record<string, unknown>);
    await assertModelExists(db, values.modelId);
    await db.transaction(async (tx) => {
      if (values.modelId !== group.modelId) {
        // Moving the group to another model: its members must be free there, and its settings must fit.
        const members = await tx
          .select({ userId: customizationMembers.userId })
          .from(customizationMembers)
          .where(eq(customizationMembers.groupId, group.id));
        await assertNoOtherGroup(
          tx as unknown as Db,
          group.id,
          values.modelId,
          members.map((m) => m.userId),
        );
        assertValid((await schemaOf(tx as unknown as Db, values.modelId)).schema, group.settings ?? {});
      }
      await tx
        .update(customizationGroups)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(customizationGroups.id, group.id));
    });
    return { ...(await presentGroup(db, group.id)), message: message(request, 'groupEdited') };
  });

  // Links to it as a parent go with it (cascade); jobs that ran with it keep their settings (customizationId → null).
  app.delete(`${base}/groups/:groupId`, { config: ADMIN, schema: { tags, params: GroupId } }, async (request) => {
    const group = await findGroup(db, request.params.groupId);
    await db.delete(customizationGroups).where(eq(customizationGroups.id, group.id));
    return { id: group.id, deleted: true, message: message(request, 'groupDeleted') };
  });

  // A copy with the settings, description and parents (same priorities); members are not copied, since a user
  // may be in only one group per model.
  app.post(`${base}/groups/:groupId/clone`, { config: ADMIN, schema: { tags, params: GroupId } }, async (request) => {
    const group = await findGroup(db, request.params.groupId);
    const copy = await db.transaction(async (tx) => {
      const [c] = await tx
        .insert(customizationGroups)
        .values({
          nameEn: `${group.nameEn} (copy)`.slice(0, NAME_MAX + 10),
          nameDe: `${group.nameDe} (Kopie)`.slice(0, NAME_MAX + 10),
          description: group.description,
          modelId: group.modelId,
          settings: group.settings ?? {},
        })
        .returning();
      const parents = await tx.select().from(customizationParents).where(eq(customizationParents.groupId, group.id));
      if (parents.length)
        await tx.insert(customizationParents).values(parents.map((p) => ({ groupId: c.id, parentId: p.parentId, priority: p.priority })));
      return c;
    });
    return { ...(await presentGroup(db, copy.id)), message: message(request, 'groupCloned') };
  });

  app.put(
    `${base}/groups/:groupId/members`,
    { config: ADMIN, schema: { tags, params: GroupId, body: Type.Object({ userId: Type.Optional(Type.Unknown()) }) } },
    async (request) => {
      const group = await findGroup(db, request.params.groupId);
      const u = await userFromBody(db, request.body.userId);
      await db.transaction(async (tx) => {
        await assertNoOtherGroup(tx as unknown as Db, group.id, group.modelId, [u.id]);
        await tx.insert(customizationMembers).values({ groupId: group.id, userId: u.id }).onConflictDoNothing();
      });
      return { groupId: group.id, userId: u.id, message: message(request, 'memberAdded') };
    },
  );

  app.delete(
    `${base}/groups/:groupId/members/:userId`,
    { config: ADMIN, schema: { tags, params: Type.Object({ groupId: Type.String({ format: 'uuid' }), userId: Type.String({ format: 'uuid' }) }) } },
    async (request) => {
      const group = await findGroup(db, request.params.groupId);
      const gone = await db
        .delete(customizationMembers)
        .where(and(eq(customizationMembers.groupId, group.id), eq(customizationMembers.userId, request.params.userId)))
        .returning();
      if (!gone.length) throw notFound('member');
      return { groupId: group.id, userId: request.params.userId, message: message(request, 'memberRemoved') };
    },
  );

  // Replaces the parent set (the screen sends every parent with its new priority, for adding and reordering).
  app.post(
    `${base}/groups/:groupId/parents`,
    { config: ADMIN, schema: { tags, params: GroupId, body: Type.Object({ parents: Type.Optional(Type.Unknown()) }) } },
    async (request) => {
      const group = await findGroup(db, request.params.groupId);
      const raw = request.body.parents;
      const e = new FieldErrors();
      if (!Array.isArray(raw)) {
        e.add('parents', 'filterInvalid');
        e.throwIfAny();
      }
      const list = raw as unknown[];
      const parents: Array<{ parentId: string; priority: number }> = [];
      const seen = new Set<string>();
      list.forEach((item, i) => {
        const p = (isPlain(item) ? item : {}) as { parentId?: unknown; priority?: unknown };
        if (!isUuid(p.parentId)) e.add(`parents.${i}.parentId`, 'parentUnknown', { parent: String(p.parentId ?? '') });
        else if (seen.has(p.parentId)) e.add(`parents.${i}.parentId`, 'parentDuplicate', { parent: p.parentId });
        // A missing priority means the list order.
        const priority = p.priority ?? i;
        if (typeof priority !== 'number' || !Number.isInteger(priority) || priority < 0 || priority > 1_000_000)
          e.add(`parents.${i}.priority`, 'priorityInvalid');
        if (isUuid(p.parentId)) seen.add(p.parentId);
        parents.push({ parentId: String(p.parentId), priority: priority as number });
      });
      e.throwIfAny();
      const self = parents.findIndex((p) => p.parentId === group.id);
      if (self >= 0)
        throw new AppError(400, 'CUSTOMIZATION_SELF_PARENT', 'adminErrors.selfParent', {}, [
          { field: `parents.${self}.parentId`, key: 'adminErrors.selfParent' },
        ]);
      await db.transaction(async (tx) => {
        // Serialises parent changes, so two concurrent requests cannot each close half of a cycle.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('customization_parents'))`);
        const graph = await loadGraph(tx as unknown as Db);
        const unknown = parents.findIndex((p) => !graph.has(p.parentId));
        if (unknown >= 0) {
          e.add(`parents.${unknown}.parentId`, 'parentUnknown', { parent: parents[unknown].parentId });
          e.throwIfAny();
        }
        const cyclic = findCycle(
          graph,
          group.id,
          parents.map((p) => p.parentId),
        );
        if (cyclic) {
          const [p] = await tx.select({ nameEn: customizationGroups.nameEn }).from(customizationGroups).where(eq(customizationGroups.id, cyclic));
          const vars = { parent: p?.nameEn ?? cyclic };
          const i = parents.findIndex((x) => x.parentId === cyclic);
          throw new AppError(400, 'CUSTOMIZATION_CYCLE', 'adminErrors.parentCycle', vars, [
            { field: `parents.${i}.parentId`, key: 'adminErrors.parentCycle', vars },
          ]);
        }
        await tx.delete(customizationParents).where(eq(customizationParents.groupId, group.id));
        if (parents.length)
          await tx.insert(customizationParents).values(parents.map((p) => ({ groupId: group.id, parentId: p.parentId, priority: p.priority })));
        await tx.update(customizationGroups).set({ updatedAt: new Date() }).where(eq(customizationGroups.id, group.id));
      });
      return { ...(await presentGroup(db, group.id)), message: message(request, 'parentsAdded') };
    },
  );

  app.delete(
    `${base}/groups/:groupId/parents/:parentId`,
    { config: ADMIN, schema: { tags, params: Type.Object({ groupId: Type.String({ format: 'uuid' }), parentId: Type.String({ format: 'uuid' }) }) } },
    async (request) => {
      const group = await findGroup(db, request.params.groupId);
      const gone = await db
        .delete(customizationParents)
        .where(and(eq(customizationParents.groupId, group.id), eq(customizationParents.parentId, request.params.parentId)))
        .returning();
      if (!gone.length) throw notFound('parent');
      return { ...(await presentGroup(db, group.id)), message: message(request, 'parentRemoved') };
    },
  );

  // The ancestors, strongest first: each with its depth (1 = direct parent) and, for direct parents, the priority.
  app.get(`${base}/groups/:groupId/inheritance-chain`, { config: ADMIN, schema: { tags, params: GroupId } }, async (request) => {
    const group = await findGroup(db, request.params.groupId);
    const graph = await loadGraph(db);
    const chain = inheritanceChain(graph, group.id);
    if (!chain.length) return [];
    const rows = await db
      .select({
        id: customizationGroups.id,
        nameEn: customizationGroups.nameEn,
        nameDe: customizationGroups.nameDe,
        model: { id: computeModels.id, displayName: computeModels.displayName },
      })
      .from(customizationGroups)
      .innerJoin(computeModels, eq(computeModels.id, customizationGroups.modelId))
      .where(inArray(customizationGroups.id, chain));
    const byId = new Map(rows.map((r) => [r.id, r]));
    // Depth: shortest distance from the group along parent links.
    const depth = new Map<string, number>([[group.id, 0]]);
    const queue = [group.id];
    while (queue.length) {
      const id = queue.shift()!;
      for (const p of graph.get(id)?.parents ?? []) {
        if (!depth.has(p.parentId)) {
          depth.set(p.parentId, depth.get(id)! + 1);
          queue.push(p.parentId);
        }
      }
    }
    const direct = new Map((graph.get(group.id)?.parents ?? []).map((p) => [p.parentId, p.priority]));
    return chain
      .filter((id) => byId.has(id))
      .map((id, order) => ({ ...byId.get(id)!, order, depth: depth.get(id) ?? null, priority: direct.get(id) ?? null }));
  });

  app.get(`${base}/groups/:groupId/settings`, { config: ADMIN, schema: { tags, params: GroupId } }, async (request) => {
    const group = await findGroup(db, request.params.groupId);
    return { groupId: group.id, modelId: group.modelId, settings: group.settings ?? {}, updatedAt: group.updatedAt.toISOString() };
  });

  app.put(
    `${base}/groups/:groupId/settings`,
    { config: ADMIN, schema: { tags, params: GroupId, body: Type.Object({ settings: Type.Optional(Type.Unknown()) }) } },
    async (request) => {
      const group = await findGroup(db, request.params.groupId);
      const settings = request.body.settings;
      if (!isPlain(settings)) {
        const e = new FieldErrors();
        e.add('settings', 'settingsObject');
        e.throwIfAny();
      }
      assertValid((await schemaOf(db, group.modelId)).schema, settings as Json);
      const [g] = await db
        .update(customizationGroups)
        .set({ settings: settings as Json, updatedAt: new Date() })
        .where(eq(customizationGroups.id, group.id))
        .returning();
      return {
        groupId: g.id,
        modelId: g.modelId,
        settings: g.settings,
        updatedAt: g.updatedAt.toISOString(),
        message: message(request, 'settingsUpdated'),
      };
    },
  );

  app.get(`${base}/groups/:groupId/resolved-settings`, { config: ADMIN, schema: { tags, params: GroupId } }, async (request) => {
    const group = await findGroup(db, request.params.groupId);
    const [source, graph] = await Promise.all([schemaOf(db, group.modelId), loadGraph(db)]);
    return { groupId: group.id, modelId: group.modelId, version: source.version, settings: resolveSettings(graph, group.id, source.defaults) };
  });

  app.get(
    `${base}/models/:modelId/defaults`,
    { config: ADMIN, schema: { tags, params: Type.Object({ modelId: Type.String({ format: 'uuid' }) }) } },
    async (request) => {
      const source = await schemaOf(db, request.params.modelId);
      return { modelId: source.modelId, version: source.version, source: source.source, defaults: source.defaults, schema: source.schema };
    },
  );

  // null when valid, else Ajv's errors [{instancePath, message}] (200 either way: the answer is the result).
  app.post(
    `${base}/validate`,
    {
      config: ADMIN,
      schema: {
        tags,
        body: Type.Object({
          modelId: Type.Optional(Type.Unknown()),
          groupId: Type.Optional(Type.Unknown()),
          settings: Type.Optional(Type.Unknown()),
        }),
      },
    },
    async (request, reply) => {
      const { modelId, groupId, settings } = request.body;
      let target: string | null = null;
      if (typeof modelId === 'string' && modelId) target = (await findModel(db, modelId)).id;
      else if (typeof groupId === 'string' && groupId) target = (await findGroup(db, groupId)).modelId;
      if (!target) {
        const e = new FieldErrors();
        e.add('modelId', 'modelRequired');
        e.throwIfAny();
      }
      const errors = validateAgainst((await schemaOf(db, target!)).schema, settings === undefined ? {} : settings);
      return reply.type('application/json').send(JSON.stringify(errors));
    },
  );

  // User side (admin sandbox, "Params identification"): the groups of a model the caller may use — every group
  // for ADMIN, for anyone else only the group they are a member of.
  app.get(
    '/models/:modelId/customizations',
    { config: USER, schema: { tags: ['models'], params: Type.Object({ modelId: Type.String({ format: 'uuid' }) }) } },
    async (request) => {
      const auth = requireAuth(request);
      const m = await findModel(db, request.params.modelId);
      if (!(await canUse(db, m, auth.user.id, auth.user.role))) throw notFound('model');
      const cols = {
        id: customizationGroups.id,
        nameEn: customizationGroups.nameEn,
        nameDe: customizationGroups.nameDe,
        modelId: customizationGroups.modelId,
      };
      if (auth.user.role === 'ADMIN')
        return db.select(cols).from(customizationGroups).where(eq(customizationGroups.modelId, m.id)).orderBy(asc(customizationGroups.nameEn));
      return db
        .select(cols)
        .from(customizationGroups)
        .innerJoin(customizationMembers, eq(customizationMembers.groupId, customizationGroups.id))
        .where(and(eq(customizationGroups.modelId, m.id), eq(customizationMembers.userId, auth.user.id)))
        .orderBy(asc(customizationGroups.nameEn));
    },
  );
}
