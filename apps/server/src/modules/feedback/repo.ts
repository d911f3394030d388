import { and, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { issueReports, userFeedback } from '../../platform/db/schema/index.ts';

/** All SQL of the feedback module (user ratings and issue reports). */
export type RatingRow = typeof userFeedback.$inferSelect;

export async function upsertRating(db: Db, values: { jobId: string; userId: string; rating: number; comment: string | null }): Promise<RatingRow> {
  const [row] = await db
    .insert(userFeedback)
    .values(values)
    .onConflictDoUpdate({
      target: [userFeedback.jobId, userFeedback.userId],
      set: { rating: values.rating, comment: values.comment, createdAt: new Date() },
    })
    .returning();
  return row;
}

export async function rating(db: Db, jobId: string, userId: string): Promise<RatingRow | undefined> {
  const [row] = await db
    .select()
    .from(userFeedback)
    .where(and(eq(userFeedback.jobId, jobId), eq(userFeedback.userId, userId)));
  return row;
}

export async function insertIssueReport(db: Db, values: typeof issueReports.$inferInsert): Promise<{ id: string }> {
  const [row] = await db.insert(issueReports).values(values).returning({ id: issueReports.id });
  return row;
}
