import { and, desc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { projectShares, projects, recipes, recipeVersions } from '../../platform/db/schema/index.ts';

/** All SQL of recipes (issue 22). */
export type RecipeRow = typeof recipes.$inferSelect;
export type RecipeVersionRow = typeof recipeVersions.$inferSelect;
export type VersionValues = Omit<typeof recipeVersions.$inferInsert, 'recipeId' | 'version' | 'createdAt'>;

/**
 * The projects the user owns or is a member of (read here rather than through the projects service: one
 * subquery of the recipe list, not a call per project).
 */
const visibleProjects = (userId: string) =>
  sql`(select ${projects.id} from ${projects} left join ${projectShares} on ${projectShares.projectId} = ${projects.id} and ${projectShares.userId} = ${userId}
       where ${projects.ownerId} = ${userId} or ${projectShares.userId} is not null)`;

/** The recipes the user may read: their own and those shared with a project of theirs, newest first. */
export async function listReadable(db: Db, userId: string): Promise<Array<{ r: RecipeRow; v: RecipeVersionRow }>> {
  return db
    .select({ r: recipes, v: recipeVersions })
    .from(recipes)
    .innerJoin(recipeVersions, and(eq(recipeVersions.recipeId, recipes.id), eq(recipeVersions.version, recipes.currentVersion)))
    .where(or(eq(recipes.ownerId, userId), and(isNotNull(recipes.projectId), inArray(recipes.projectId, visibleProjects(userId)))))
    .orderBy(desc(recipes.updatedAt));
}

/** One recipe the user may read, with its given (or current) version; undefined otherwise. */
export async function findReadable(db: Db, userId: string, id: string, version?: number): Promise<{ r: RecipeRow; v: RecipeVersionRow } | undefined> {
  const [row] = await db
    .select({ r: recipes, v: recipeVersions })
    .from(recipes)
    .innerJoin(
      recipeVersions,
      and(
        eq(recipeVersions.recipeId, recipes.id),
        version === undefined ? eq(recipeVersions.version, recipes.currentVersion) : eq(recipeVersions.version, version),
      ),
    )
    .where(
      and(
        eq(recipes.id, id),
        or(eq(recipes.ownerId, userId), and(isNotNull(recipes.projectId), inArray(recipes.projectId, visibleProjects(userId)))),
      ),
    );
  return row;
}

/** A recipe by id whatever its owner (the dispatcher reads the version a job names). */
export async function findVersion(db: Db, id: string, version: number): Promise<{ r: RecipeRow; v: RecipeVersionRow } | undefined> {
  const [row] = await db
    .select({ r: recipes, v: recipeVersions })
    .from(recipes)
    .innerJoin(recipeVersions, and(eq(recipeVersions.recipeId, recipes.id), eq(recipeVersions.version, version)))
    .where(eq(recipes.id, id));
  return row;
}

export async function insert(db: Db, ownerId: string, name: string, projectId: string | null, values: VersionValues): Promise<string> {
  const [row] = await db.insert(recipes).values({ ownerId, name, projectId }).returning({ id: recipes.id });
  await db.insert(recipeVersions).values({ ...values, recipeId: row.id, version: 1 });
  return row.id;
}

/** A new version of the owner's recipe (locks the recipe row); false when it is not theirs. */
export async function addVersion(
  db: Db,
  ownerId: string,
  id: string,
  name: string,
  projectId: string | null,
  values: VersionValues,
): Promise<boolean> {
  const [row] = await db
    .select({ v: recipes.currentVersion })
    .from(recipes)
    .where(and(eq(recipes.id, id), eq(recipes.ownerId, ownerId)))
    .for('update');
  if (!row) return false;
  const version = row.v + 1;
  await db.insert(recipeVersions).values({ ...values, recipeId: id, version });
  await db.update(recipes).set({ currentVersion: version, name, projectId, updatedAt: new Date() }).where(eq(recipes.id, id));
  return true;
}

export async function remove(db: Db, ownerId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(recipes)
    .where(and(eq(recipes.id, id), eq(recipes.ownerId, ownerId)))
    .returning({ id: recipes.id });
  return rows.length > 0;
}
