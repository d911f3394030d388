/**
 * SQL of user groups. Writes: `groups`, the membership column `users.group_id` (both in the users schema; the
 * old `group_members` table is not used) and `group_invitations`. Reads for the group-admin area (member usage, the group licence, jobs
 * shared with the group admin) are read-only aggregates over images, jobs, licenses and projects.
 */
import { and, asc, count, countDistinct, desc, eq, gt, gte, inArray, isNull, ne, notInArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import {
  computeModels,
  groupInvitations,
  groups,
  images,
  jobs,
  licenses,
  projectImages,
  projectShares,
  projects,
  users,
} from '../../platform/db/schema/index.ts';

export type GroupRow = typeof groups.$inferSelect;

export interface UserRef {
  id: string;
  name: string;
  surname: string;
  email: string;
  address: Record<string, string>;
  groupId: string | null;
  role: string;
}

const userRef = {
  id: users.id,
  name: users.name,
  surname: users.surname,
  email: users.email,
  address: users.address,
  groupId: users.groupId,
  role: users.role,
};

/** Runs `fn` in one transaction (the transaction handed over as a Db). */
export function inTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => fn(tx as unknown as Db));
}

export function listGroups(db: Db): Promise<GroupRow[]> {
  return db
    .select()
    .from(groups)
    .orderBy(asc(sql`lower(${groups.name})`), asc(groups.createdAt));
}

export async function findGroup(db: Db, id: string): Promise<GroupRow | undefined> {
  const [row] = await db.select().from(groups).where(eq(groups.id, id));
  return row;
}

/** The group `userId` administers (a user administers at most one). */
export async function findGroupAdministeredBy(db: Db, userId: string): Promise<GroupRow | undefined> {
  const [row] = await db.select().from(groups).where(eq(groups.adminId, userId)).orderBy(asc(groups.createdAt)).limit(1);
  return row;
}

export async function insertGroup(db: Db, values: { name: string; adminId: string | null }): Promise<GroupRow> {
  const [row] = await db.insert(groups).values(values).returning();
  return row;
}

export async function updateGroup(db: Db, id: string, values: { name?: string; adminId?: string | null }): Promise<GroupRow | undefined> {
  const [row] = await db
    .update(groups)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(groups.id, id))
    .returning();
  return row;
}

/** Deletes the group; members' `group_id` is cleared by the foreign key (set null), the group's licences go (cascade). */
export async function deleteGroup(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(groups).where(eq(groups.id, id)).returning({ id: groups.id });
  return rows.length > 0;
}

export function usersByIds(db: Db, ids: string[]): Promise<UserRef[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.select(userRef).from(users).where(inArray(users.id, ids));
}

export function membersOf(db: Db, groupIds: string[]): Promise<UserRef[]> {
  if (groupIds.length === 0) return Promise.resolve([]);
  return db
    .select(userRef)
    .from(users)
    .where(inArray(users.groupId, groupIds))
    .orderBy(asc(sql`lower(${users.surname})`), asc(sql`lower(${users.name})`), asc(users.email));
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRef | undefined> {
  const [row] = await db.select(userRef).from(users).where(eq(users.email, email)).limit(1);
  return row;
}

/** Every account but blocked ones, for the selects (a lab-sized list). */
export function listUserOptions(db: Db): Promise<UserRef[]> {
  return db
    .select(userRef)
    .from(users)
    .where(ne(users.role, 'BLOCKED'))
    .orderBy(asc(sql`lower(${users.surname})`), asc(sql`lower(${users.name})`), asc(users.email))
    .limit(10_000);
}

/** Replaces the members of `groupId` by `userIds`; a user of another group is left where they are (the caller re-checks). */
export async function setMembers(db: Db, groupId: string, userIds: string[]): Promise<void> {
  const now = new Date();
  await db
    .update(users)
    .set({ groupId: null, updatedAt: now })
    .where(and(eq(users.groupId, groupId), userIds.length ? notInArray(users.id, userIds) : undefined));
  if (userIds.length) {
    await db
      .update(users)
      .set({ groupId, updatedAt: now })
      .where(and(inArray(users.id, userIds), isNull(users.groupId)));
  }
}

/** `userId` joins `groupId` when they belong to no group (answers false when they already belong to one). */
export async function joinGroup(db: Db, groupId: string, userId: string): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ groupId, updatedAt: new Date() })
    .where(and(eq(users.id, userId), isNull(users.groupId)))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** `userId` leaves `groupId` (answers false when they were not a member). */
export async function leaveGroup(db: Db, groupId: string, userId: string): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ groupId: null, updatedAt: new Date() })
    .where(and(eq(users.id, userId), eq(users.groupId, groupId)))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Live images per user. */
export async function imageCounts(db: Db, userIds: string[]): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: images.ownerId, n: count() })
    .from(images)
    .where(and(inArray(images.ownerId, userIds), eq(images.isDeleted, false)))
    .groupBy(images.ownerId);
  return new Map(rows.map((r) => [r.userId, Number(r.n)]));
}

/** Jobs per user created since `since` (deleted jobs left out). */
export async function jobCountsSince(db: Db, userIds: string[], since: Date): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: jobs.ownerId, n: count() })
    .from(jobs)
    .where(and(inArray(jobs.ownerId, userIds), gte(jobs.createdAt, since), eq(jobs.deleted, false)))
    .groupBy(jobs.ownerId);
  return new Map(rows.map((r) => [r.userId, Number(r.n)]));
}

/** The group's newest active, unexpired licence. */
export async function activeGroupLicense(db: Db, groupId: string) {
  const now = new Date();
  const [row] = await db
    .select()
    .from(licenses)
    .where(and(eq(licenses.groupId, groupId), eq(licenses.active, true), or(isNull(licenses.finishAt), gt(licenses.finishAt, now))))
    .orderBy(desc(licenses.createdAt))
    .limit(1);
  return row;
}

/** Distinct images of `userIds` with a job that did not fail, created since `since`. */
export async function distinctImagesAnalysed(db: Db, userIds: string[], since: Date): Promise<number> {
  if (userIds.length === 0) return 0;
  const [row] = await db
    .select({ n: countDistinct(jobs.imageId) })
    .from(jobs)
    .where(and(inArray(jobs.ownerId, userIds), ne(jobs.status, 'FAILED'), gte(jobs.createdAt, since)));
  return Number(row.n);
}

/**
 * Jobs of `memberIds` on images in their own projects that are shared with `adminId` (newest first, at most
 * `limit`): what a member shared with the group.
 */
export function sharedJobs(db: Db, adminId: string, memberIds: string[], limit: number) {
  if (memberIds.length === 0) return Promise.resolve([]);
  return db
    .selectDistinctOn([jobs.createdAt, jobs.id], {
      id: jobs.id,
      status: jobs.status,
      createdAt: jobs.createdAt,
      ownerId: jobs.ownerId,
      modelName: computeModels.displayName,
      imageName: images.orginalFilename,
      projectId: projects.id,
      projectName: projects.name,
    })
    .from(projectShares)
    .innerJoin(projects, eq(projects.id, projectShares.projectId))
    .innerJoin(projectImages, eq(projectImages.projectId, projects.id))
    .innerJoin(jobs, and(eq(jobs.imageId, projectImages.imageId), eq(jobs.ownerId, projects.ownerId)))
    .innerJoin(images, eq(images.id, jobs.imageId))
    .innerJoin(computeModels, eq(computeModels.id, jobs.modelId))
    .where(and(eq(projectShares.userId, adminId), inArray(projects.ownerId, memberIds), eq(jobs.deleted, false), eq(images.isDeleted, false)))
    .orderBy(desc(jobs.createdAt), desc(jobs.id))
    .limit(limit);
}

// ---- invitations (a user joins only by accepting) --------------------------------------------------------

export type InvitationRow = typeof groupInvitations.$inferSelect;

/** Records an invitation; false when the same one already waits (no second notification). */
export async function insertInvitation(db: Db, values: { groupId: string; userId: string; invitedById: string }): Promise<InvitationRow | undefined> {
  const [row] = await db.insert(groupInvitations).values(values).onConflictDoNothing().returning();
  return row;
}

/** The user's waiting invitations with their group's name and the inviter's name, newest first. */
export function invitationsOf(db: Db, userId: string) {
  return db
    .select({
      id: groupInvitations.id,
      groupId: groups.id,
      groupName: groups.name,
      createdAt: groupInvitations.createdAt,
      inviterName: users.name,
      inviterSurname: users.surname,
    })
    .from(groupInvitations)
    .innerJoin(groups, eq(groups.id, groupInvitations.groupId))
    .leftJoin(users, eq(users.id, groupInvitations.invitedById))
    .where(eq(groupInvitations.userId, userId))
    .orderBy(desc(groupInvitations.createdAt));
}

/** Removes the user's invitation `id` (accepted or declined) and answers it; undefined when it is not theirs. */
export async function takeInvitation(db: Db, userId: string, id: string): Promise<InvitationRow | undefined> {
  const [row] = await db
    .delete(groupInvitations)
    .where(and(eq(groupInvitations.id, id), eq(groupInvitations.userId, userId)))
    .returning();
  return row;
}
