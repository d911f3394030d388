import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { computeModels, customizationGroups, customizationMembers, customizationParents, users } from '../../platform/db/schema/index.ts';
import type { GroupNode } from './resolve.ts';

/** All SQL of the customization groups: groups, members, parents (and the names shown with them). */
export type GroupRow = typeof customizationGroups.$inferSelect;
type Json = Record<string, unknown>;

export async function findGroup(db: Db, id: string): Promise<GroupRow | null> {
  const [g] = await db.select().from(customizationGroups).where(eq(customizationGroups.id, id));
  return g ?? null;
}

export async function findGroupOfModel(db: Db, id: string, modelId: string): Promise<GroupRow | null> {
  const [g] = await db
    .select()
    .from(customizationGroups)
    .where(and(eq(customizationGroups.id, id), eq(customizationGroups.modelId, modelId)));
  return g ?? null;
}

/** The (oldest) group of `modelId` that `userId` is a member of. */
export async function memberGroup(db: Db, userId: string, modelId: string): Promise<GroupRow | null> {
  const [r] = await db
    .select({ g: customizationGroups })
    .from(customizationMembers)
    .innerJoin(customizationGroups, eq(customizationGroups.id, customizationMembers.groupId))
    .where(and(eq(customizationMembers.userId, userId), eq(customizationGroups.modelId, modelId)))
    .orderBy(asc(customizationGroups.createdAt))
    .limit(1);
  return r?.g ?? null;
}

/** Groups with their model, members (by surname) and parents; every group when `ids` is not given. */
export async function groupsWithLinks(db: Db, ids?: string[]) {
  if (ids && !ids.length) return { groups: [], members: [], parents: [] };
  const groups = await db
    .select({ g: customizationGroups, model: { id: computeModels.id, displayName: computeModels.displayName } })
    .from(customizationGroups)
    .innerJoin(computeModels, eq(computeModels.id, customizationGroups.modelId))
    .where(ids ? inArray(customizationGroups.id, ids) : undefined)
    .orderBy(asc(computeModels.displayName), asc(customizationGroups.nameEn), asc(customizationGroups.createdAt));
  const gids = groups.map((r) => r.g.id);
  if (!gids.length) return { groups, members: [], parents: [] };
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
  return { groups, members, parents };
}

/** Every group with its own settings and parents (the tables stay small: a few groups per model). */
export async function loadGraph(db: Db): Promise<Map<string, GroupNode & { modelId: string }>> {
  const [groups, links] = await Promise.all([
    db.select({ id: customizationGroups.id, settings: customizationGroups.settings, modelId: customizationGroups.modelId }).from(customizationGroups),
    db.select().from(customizationParents),
  ]);
  const graph = new Map(groups.map((g) => [g.id, { id: g.id, settings: g.settings ?? {}, modelId: g.modelId, parents: [] as GroupNode['parents'] }]));
  for (const l of links) graph.get(l.groupId)?.parents.push({ parentId: l.parentId, priority: l.priority });
  return graph;
}

export async function modelExists(db: Db, modelId: string): Promise<boolean> {
  const [m] = await db.select({ id: computeModels.id }).from(computeModels).where(eq(computeModels.id, modelId));
  return !!m;
}

/**
 * Locks the users' rows (FOR UPDATE, in the caller's transaction) and answers another group of `modelId`
 * (not `groupId`) one of them is a member of, or null.
 */
export async function lockUsersAndFindOtherGroup(tx: Db, groupId: string, modelId: string, userIds: string[]) {
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
  return other ?? null;
}

export async function memberIds(tx: Db, groupId: string): Promise<string[]> {
  const rows = await tx.select({ userId: customizationMembers.userId }).from(customizationMembers).where(eq(customizationMembers.groupId, groupId));
  return rows.map((r) => r.userId);
}

export async function insertGroup(db: Db, values: { nameEn: string; nameDe: string; modelId: string; description: string | null; settings?: Json }) {
  const [g] = await db.insert(customizationGroups).values(values).returning();
  return g;
}

export async function updateGroup(
  tx: Db,
  id: string,
  values: Partial<Pick<GroupRow, 'nameEn' | 'nameDe' | 'modelId' | 'description' | 'settings' | 'modelVersion'>>,
) {
  const [g] = await tx
    .update(customizationGroups)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(customizationGroups.id, id))
    .returning();
  return g;
}

export async function deleteGroup(db: Db, id: string): Promise<void> {
  await db.delete(customizationGroups).where(eq(customizationGroups.id, id));
}

export async function parentLinks(tx: Db, groupId: string) {
  return tx.select().from(customizationParents).where(eq(customizationParents.groupId, groupId));
}

export async function replaceParents(tx: Db, groupId: string, parents: Array<{ parentId: string; priority: number }>): Promise<void> {
  await tx.delete(customizationParents).where(eq(customizationParents.groupId, groupId));
  if (parents.length) await tx.insert(customizationParents).values(parents.map((p) => ({ groupId, parentId: p.parentId, priority: p.priority })));
}

export async function deleteParent(db: Db, groupId: string, parentId: string): Promise<boolean> {
  const gone = await db
    .delete(customizationParents)
    .where(and(eq(customizationParents.groupId, groupId), eq(customizationParents.parentId, parentId)))
    .returning();
  return gone.length > 0;
}

/** Serialises parent changes (transaction-scoped), so two concurrent requests cannot each close half of a cycle. */
export async function lockParents(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('customization_parents'))`);
}

export async function groupName(db: Db, id: string): Promise<string | null> {
  const [p] = await db.select({ nameEn: customizationGroups.nameEn }).from(customizationGroups).where(eq(customizationGroups.id, id));
  return p?.nameEn ?? null;
}

export async function insertMember(tx: Db, groupId: string, userId: string): Promise<void> {
  await tx.insert(customizationMembers).values({ groupId, userId }).onConflictDoNothing();
}

export async function deleteMember(db: Db, groupId: string, userId: string): Promise<boolean> {
  const gone = await db
    .delete(customizationMembers)
    .where(and(eq(customizationMembers.groupId, groupId), eq(customizationMembers.userId, userId)))
    .returning();
  return gone.length > 0;
}

export async function groupsNamed(db: Db, ids: string[]) {
  return db
    .select({
      id: customizationGroups.id,
      nameEn: customizationGroups.nameEn,
      nameDe: customizationGroups.nameDe,
      model: { id: computeModels.id, displayName: computeModels.displayName },
    })
    .from(customizationGroups)
    .innerJoin(computeModels, eq(computeModels.id, customizationGroups.modelId))
    .where(inArray(customizationGroups.id, ids));
}

/** The groups of a model: all of them, or only those `memberId` belongs to. */
export async function groupsOfModel(db: Db, modelId: string, memberId: string | null) {
  const cols = {
    id: customizationGroups.id,
    nameEn: customizationGroups.nameEn,
    nameDe: customizationGroups.nameDe,
    modelId: customizationGroups.modelId,
  };
  if (memberId === null)
    return db.select(cols).from(customizationGroups).where(eq(customizationGroups.modelId, modelId)).orderBy(asc(customizationGroups.nameEn));
  return db
    .select(cols)
    .from(customizationGroups)
    .innerJoin(customizationMembers, eq(customizationMembers.groupId, customizationGroups.id))
    .where(and(eq(customizationGroups.modelId, modelId), eq(customizationMembers.userId, memberId)))
    .orderBy(asc(customizationGroups.nameEn));
}
