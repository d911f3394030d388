import { and, desc, eq, inArray, isNotNull, or } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { projectInvitations, projectShares, projects } from '../../platform/db/schema/index.ts';

/** All SQL of the projects module (projects, their shares and invitations of addresses without an account). */
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

/** The user owns the project or it is shared with them as EDITOR. */
export async function editableBy(db: Db, userId: string, projectId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: projects.id })
    .from(projects)
    .leftJoin(projectShares, and(eq(projectShares.projectId, projects.id), eq(projectShares.userId, userId), eq(projectShares.role, 'EDITOR')))
    .where(and(eq(projects.id, projectId), or(eq(projects.ownerId, userId), isNotNull(projectShares.userId))));
  return Boolean(row);
}

export async function findOwn(db: Db, ownerId: string, id: string): Promise<ProjectRow | undefined> {
  const [row] = await db
    .select()
    .from(projects)
    .where(and(eq(projects.id, id), eq(projects.ownerId, ownerId)));
  return row;
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
