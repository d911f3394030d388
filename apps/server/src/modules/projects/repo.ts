import { and, count, desc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { notifications, projectFields, projectImages, projectInvitations, projectShares, projects } from '../../platform/db/schema/index.ts';

/** All SQL of the projects module (projects, their images, shares and invitations of addresses without an account). */
export type ProjectRow = typeof projects.$inferSelect;
export type ShareRole = (typeof projectShares.$inferInsert)['role'] & string;
export type InvitationRow = typeof projectInvitations.$inferSelect;

/** Projects the user owns or that are shared with them, newest first. */
export function listVisible(db: Db, userId: string): Promise<ProjectRow[]> {
  const shared = db.select({ id: projectShares.projectId }).from(projectShares).where(eq(projectShares.userId, userId));
  return db
    .select()
    .from(projects)
    .where(or(eq(projects.ownerId, userId), inArray(projects.id, shared)))
    .orderBy(desc(projects.createdAt));
}

export async function insert(db: Db, values: { ownerId: string; name: string; description: string | null }): Promise<ProjectRow> {
  const [row] = await db.insert(projects).values(values).returning();
  return row;
}

export async function removeOwn(db: Db, ownerId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(projects)
    .where(and(eq(projects.id, id), eq(projects.ownerId, ownerId)))
    .returning({ id: projects.id });
  return rows.length > 0;
}

/** The project's applied template when the user owns it or it is shared with them as EDITOR; else null. */
export async function editableBy(db: Db, userId: string, projectId: string): Promise<{ templateId: string | null } | null> {
  const [row] = await db
    .select({ templateId: projects.templateId })
    .from(projects)
    .leftJoin(projectShares, and(eq(projectShares.projectId, projects.id), eq(projectShares.userId, userId), eq(projectShares.role, 'EDITOR')))
    .where(and(eq(projects.id, projectId), or(eq(projects.ownerId, userId), isNotNull(projectShares.userId))));
  return row ?? null;
}

export async function upsertShare(db: Db, values: { projectId: string; userId: string; role: ShareRole; sharedById: string | null }): Promise<void> {
  await db
    .insert(projectShares)
    .values(values)
    .onConflictDoUpdate({ target: [projectShares.projectId, projectShares.userId], set: { role: values.role } });
}

export async function upsertInvitation(db: Db, values: { projectId: string; email: string; role: ShareRole; invitedById: string }): Promise<void> {
  await db
    .insert(projectInvitations)
    .values(values)
    .onConflictDoUpdate({ target: [projectInvitations.projectId, projectInvitations.email], set: { role: values.role } });
}

/** Takes (deletes and answers) the invitations of an address, with their projects. */
export async function takeInvitations(db: Db, email: string): Promise<Array<{ invitation: InvitationRow; project: ProjectRow }>> {
  const taken = await db.delete(projectInvitations).where(eq(projectInvitations.email, email)).returning();
  if (!taken.length) return [];
  const rows = await db
    .select()
    .from(projects)
    .where(
      inArray(
        projects.id,
        taken.map((i) => i.projectId),
      ),
    );
  const byId = new Map(rows.map((p) => [p.id, p]));
  return taken.flatMap((invitation) => {
    const project = byId.get(invitation.projectId);
    return project ? [{ invitation, project }] : [];
  });
}

export type Access = 'OWNER' | ShareRole;

/** The project and the user's access to it (owner or share role); undefined when the user has none. */
export async function findVisible(db: Db, userId: string, id: string): Promise<{ project: ProjectRow; access: Access } | undefined> {
  const [row] = await db
    .select({ project: projects, role: projectShares.role })
    .from(projects)
    .leftJoin(projectShares, and(eq(projectShares.projectId, projects.id), eq(projectShares.userId, userId)))
    .where(and(eq(projects.id, id), or(eq(projects.ownerId, userId), isNotNull(projectShares.userId))));
  if (!row) return undefined;
  return { project: row.project, access: row.project.ownerId === userId ? 'OWNER' : (row.role as ShareRole) };
}

/** The roles the projects are shared with the user as (project id → role). */
export async function shareRolesOf(db: Db, userId: string, projectIds: string[]): Promise<Map<string, ShareRole>> {
  if (!projectIds.length) return new Map();
  const rows = await db
    .select({ projectId: projectShares.projectId, role: projectShares.role })
    .from(projectShares)
    .where(and(eq(projectShares.userId, userId), inArray(projectShares.projectId, projectIds)));
  return new Map(rows.map((r) => [r.projectId, r.role as ShareRole]));
}

export async function update(db: Db, id: string, set: Partial<Pick<ProjectRow, 'name' | 'description' | 'templateId'>>): Promise<ProjectRow> {
  const [row] = await db.update(projects).set(set).where(eq(projects.id, id)).returning();
  return row;
}

export function sharesOf(db: Db, projectId: string) {
  return db.select().from(projectShares).where(eq(projectShares.projectId, projectId)).orderBy(projectShares.createdAt);
}

export function invitationsOf(db: Db, projectId: string) {
  return db
    .select({ email: projectInvitations.email, role: projectInvitations.role })
    .from(projectInvitations)
    .where(eq(projectInvitations.projectId, projectId))
    .orderBy(projectInvitations.email);
}

export async function deleteShare(db: Db, projectId: string, userId: string): Promise<boolean> {
  const rows = await db
    .delete(projectShares)
    .where(and(eq(projectShares.projectId, projectId), eq(projectShares.userId, userId)))
    .returning({ id: projectShares.userId });
  return rows.length > 0;
}

export async function deleteInvitation(db: Db, projectId: string, email: string): Promise<boolean> {
  const rows = await db
    .delete(projectInvitations)
    .where(and(eq(projectInvitations.projectId, projectId), eq(projectInvitations.email, email)))
    .returning({ id: projectInvitations.id });
  return rows.length > 0;
}

/** Number of images held per project. */
export async function imageCounts(db: Db, projectIds: string[]): Promise<Map<string, number>> {
  if (!projectIds.length) return new Map();
  const rows = await db
    .select({ projectId: projectImages.projectId, n: count() })
    .from(projectImages)
    .where(inArray(projectImages.projectId, projectIds))
    .groupBy(projectImages.projectId);
  return new Map(rows.map((r) => [r.projectId, Number(r.n)]));
}

export function imagesOf(db: Db, projectId: string) {
  return db
    .select({ imageId: projectImages.imageId, createdAt: projectImages.createdAt })
    .from(projectImages)
    .where(eq(projectImages.projectId, projectId))
    .orderBy(desc(projectImages.createdAt));
}

export async function holdsImage(db: Db, projectId: string, imageId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: projectImages.imageId })
    .from(projectImages)
    .where(and(eq(projectImages.projectId, projectId), eq(projectImages.imageId, imageId)));
  return Boolean(row);
}

export async function addImages(db: Db, projectId: string, imageIds: string[], addedById: string): Promise<void> {
  if (!imageIds.length) return;
  await db
    .insert(projectImages)
    .values(imageIds.map((imageId) => ({ projectId, imageId, addedById })))
    .onConflictDoNothing();
}

export async function removeImage(db: Db, projectId: string, imageId: string): Promise<boolean> {
  const rows = await db
    .delete(projectImages)
    .where(and(eq(projectImages.projectId, projectId), eq(projectImages.imageId, imageId)))
    .returning({ id: projectImages.imageId });
  return rows.length > 0;
}

/** Takes the images out of every project (they were deleted). */
export async function dropImages(db: Db, imageIds: string[]): Promise<void> {
  if (imageIds.length) await db.delete(projectImages).where(inArray(projectImages.imageId, imageIds));
}

/** The projects visible to the user that hold each of these images. */
export async function projectsOfImages(db: Db, userId: string, imageIds: string[]): Promise<Map<string, Array<{ id: string; name: string }>>> {
  const out = new Map<string, Array<{ id: string; name: string }>>();
  if (!imageIds.length) return out;
  const shared = db.select({ id: projectShares.projectId }).from(projectShares).where(eq(projectShares.userId, userId));
  const rows = await db
    .select({ imageId: projectImages.imageId, id: projects.id, name: projects.name })
    .from(projectImages)
    .innerJoin(projects, eq(projects.id, projectImages.projectId))
    .where(and(inArray(projectImages.imageId, imageIds), or(eq(projects.ownerId, userId), inArray(projects.id, shared))))
    .orderBy(projects.name);
  for (const r of rows) {
    const list = out.get(r.imageId) ?? [];
    list.push({ id: r.id, name: r.name });
    out.set(r.imageId, list);
  }
  return out;
}

export type AcceptedField = typeof projectFields.$inferSelect;

/** The fields members accepted in the project (image × model → job). */
export function acceptedFields(db: Db, projectId: string): Promise<AcceptedField[]> {
  return db.select().from(projectFields).where(eq(projectFields.projectId, projectId));
}

/** Accepts a job as the field of an image for a model (replaces an earlier choice). */
export async function acceptField(
  db: Db,
  values: { projectId: string; imageId: string; modelId: string; jobId: string; acceptedById: string },
): Promise<void> {
  await db
    .insert(projectFields)
    .values(values)
    .onConflictDoUpdate({
      target: [projectFields.projectId, projectFields.imageId, projectFields.modelId],
      set: { jobId: values.jobId, acceptedById: values.acceptedById, acceptedAt: new Date() },
    });
}

export async function releaseField(db: Db, projectId: string, imageId: string, modelId: string): Promise<boolean> {
  const rows = await db
    .delete(projectFields)
    .where(and(eq(projectFields.projectId, projectId), eq(projectFields.imageId, imageId), eq(projectFields.modelId, modelId)))
    .returning({ id: projectFields.jobId });
  return rows.length > 0;
}

/** Whether any project the user owns or is a member of holds the image. */
export async function visibleProjectHolds(db: Db, userId: string, imageId: string): Promise<boolean> {
  const shared = db.select({ id: projectShares.projectId }).from(projectShares).where(eq(projectShares.userId, userId));
  const [row] = await db
    .select({ id: projectImages.imageId })
    .from(projectImages)
    .innerJoin(projects, eq(projects.id, projectImages.projectId))
    .where(and(eq(projectImages.imageId, imageId), or(eq(projects.ownerId, userId), inArray(projects.id, shared))))
    .limit(1);
  return Boolean(row);
}

/** The invitations waiting for an address, with their projects' names. */
export async function pendingInvitationsOf(db: Db, email: string) {
  return db
    .select({
      id: projectInvitations.id,
      projectId: projects.id,
      projectName: projects.name,
      role: projectInvitations.role,
      ownerId: projects.ownerId,
    })
    .from(projectInvitations)
    .innerJoin(projects, eq(projects.id, projectInvitations.projectId))
    .where(eq(projectInvitations.email, email))
    .orderBy(projectInvitations.createdAt);
}

/** Takes (deletes and answers) one invitation of an address; undefined: none with this id for it. */
export async function takeInvitation(db: Db, id: string, email: string): Promise<InvitationRow | undefined> {
  const [row] = await db
    .delete(projectInvitations)
    .where(and(eq(projectInvitations.id, id), eq(projectInvitations.email, email)))
    .returning();
  return row;
}

/** Of these invitations, the ones the user already has a PROJECT_INVITATION notification of (the notifications table, read only). */
export async function notifiedInvitations(db: Db, userId: string, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db
    .select({ id: sql<string>`${notifications.payload}->>'invitationId'` })
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, userId),
        eq(notifications.type, 'PROJECT_INVITATION'),
        inArray(sql`${notifications.payload}->>'invitationId'`, ids),
      ),
    );
  return new Set(rows.map((r) => r.id));
}
