import { desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { modelNews } from '../../platform/db/schema/index.ts';

export type NewsRow = typeof modelNews.$inferSelect;
export type NewsValues = Pick<typeof modelNews.$inferInsert, 'titleEn' | 'titleDe' | 'contentEn' | 'contentDe' | 'modelId'>;

/** Runs `fn` in one transaction (the transaction handed over as a Db). */
export function inTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => fn(tx as unknown as Db));
}

export function listAll(db: Db): Promise<NewsRow[]> {
  return db.select().from(modelNews).orderBy(desc(modelNews.createdAt), desc(modelNews.id));
}

/** General news (modelId null) or one model's news, newest first. */
export function listFor(db: Db, modelId: string | null): Promise<NewsRow[]> {
  return db
    .select()
    .from(modelNews)
    .where(modelId === null ? isNull(modelNews.modelId) : eq(modelNews.modelId, modelId))
    .orderBy(desc(modelNews.createdAt), desc(modelNews.id));
}

export async function find(db: Db, id: string): Promise<NewsRow | undefined> {
  const [row] = await db.select().from(modelNews).where(eq(modelNews.id, id));
  return row;
}

export async function insert(db: Db, values: NewsValues): Promise<NewsRow> {
  const [row] = await db.insert(modelNews).values(values).returning();
  return row;
}

export async function update(db: Db, id: string, values: NewsValues): Promise<NewsRow | undefined> {
  const [row] = await db.update(modelNews).set(values).where(eq(modelNews.id, id)).returning();
  return row;
}

export async function remove(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(modelNews).where(eq(modelNews.id, id)).returning({ id: modelNews.id });
  return rows.length > 0;
}
