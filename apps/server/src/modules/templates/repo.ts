import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { projectSettingsTemplates, users } from '../../platform/db/schema/index.ts';

/** All SQL of the project settings templates. */
export type TemplateValues = { name: string; description: string | null; settings: Record<string, unknown> };

/** Templates with their author's name, oldest first; one template when `id` is given. */
export async function listWithAuthor(db: Db, id?: string) {
  return db
    .select({ t: projectSettingsTemplates, name: users.name, surname: users.surname })
    .from(projectSettingsTemplates)
    .leftJoin(users, eq(users.id, projectSettingsTemplates.createdById))
    .where(id ? eq(projectSettingsTemplates.id, id) : undefined)
    .orderBy(asc(projectSettingsTemplates.createdAt));
}
export type TemplateWithAuthor = Awaited<ReturnType<typeof listWithAuthor>>[number];

export async function insert(db: Db, values: TemplateValues & { createdById: string }): Promise<string> {
  const [row] = await db.insert(projectSettingsTemplates).values(values).returning({ id: projectSettingsTemplates.id });
  return row.id;
}

export async function update(db: Db, id: string, values: TemplateValues): Promise<boolean> {
  const rows = await db
    .update(projectSettingsTemplates)
    .set(values)
    .where(eq(projectSettingsTemplates.id, id))
    .returning({ id: projectSettingsTemplates.id });
  return rows.length > 0;
}

export async function remove(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(projectSettingsTemplates).where(eq(projectSettingsTemplates.id, id)).returning({ id: projectSettingsTemplates.id });
  return rows.length > 0;
}
