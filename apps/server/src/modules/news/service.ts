import { translate, type Language } from '@lamella/i18n';
import type { News, NewsBody, NewsDeleted, SavedNews, UserNews } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { AppError, notFound } from '../../platform/http/errors.ts';
import { bilingualOf, isUuid, localized, parseRichText } from '../../platform/http/bilingual.ts';
import { FieldErrors } from '../../platform/http/field-errors.ts';
import { recordAudit } from '../audit/service.ts';
import { canUse, cleanHtml, findModel } from '../compute-models/service.ts';
import * as repo from './repo.ts';

function present(row: repo.NewsRow): News {
  return { ...bilingualOf(row), modelId: row.modelId, createdAt: row.createdAt.toISOString() };
}

function forUser(row: repo.NewsRow, lng: Language): UserNews {
  return { id: row.id, ...localized(row, lng), modelId: row.modelId, createdAt: row.createdAt.toISOString() };
}

async function find(db: Db, id: string): Promise<repo.NewsRow> {
  const row = isUuid(id) ? await repo.find(db, id) : undefined;
  if (!row) throw notFound('news');
  return row;
}

/** Both languages required; the model is optional (empty: general news) but must exist when given. */
async function parse(db: Db, body: NewsBody): Promise<repo.NewsValues> {
  const e = new FieldErrors();
  const text = parseRichText(e, body, cleanHtml);
  const raw = typeof body.modelId === 'string' ? body.modelId.trim() : '';
  let modelId: string | null = null;
  if (raw) {
    try {
      modelId = (await findModel(db, raw)).id;
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode !== 404) throw error;
      e.add('modelId', 'news.errors.modelNotFound');
    }
  }
  e.throwIfAny();
  return { ...text, modelId };
}

export async function list(db: Db): Promise<News[]> {
  return (await repo.listAll(db)).map(present);
}

export async function get(db: Db, id: string): Promise<News> {
  return present(await find(db, id));
}

export async function create(db: Db, actorId: string, body: NewsBody, lng: Language): Promise<SavedNews> {
  const values = await parse(db, body);
  const row = await repo.inTransaction(db, async (tx) => {
    const r = await repo.insert(tx, values);
    await recordAudit(tx, {
      actorId,
      action: 'news.create',
      targetType: 'news',
      targetId: r.id,
      details: { titleEn: r.titleEn, modelId: r.modelId },
    });
    return r;
  });
  return { ...present(row), message: translate(lng, 'news.messages.created') };
}

export async function update(db: Db, actorId: string, id: string, body: NewsBody, lng: Language): Promise<SavedNews> {
  await find(db, id);
  const values = await parse(db, body);
  const row = await repo.inTransaction(db, async (tx) => {
    const r = await repo.update(tx, id, values);
    if (!r) throw notFound('news');
    await recordAudit(tx, { actorId, action: 'news.update', targetType: 'news', targetId: id, details: { titleEn: r.titleEn, modelId: r.modelId } });
    return r;
  });
  return { ...present(row), message: translate(lng, 'news.messages.updated') };
}

export async function remove(db: Db, actorId: string, id: string, lng: Language): Promise<NewsDeleted> {
  const row = await find(db, id);
  await repo.inTransaction(db, async (tx) => {
    if (!(await repo.remove(tx, id))) throw notFound('news');
    await recordAudit(tx, {
      actorId,
      action: 'news.delete',
      targetType: 'news',
      targetId: id,
      details: { titleEn: row.titleEn, modelId: row.modelId },
    });
  });
  return { id, deleted: true, message: translate(lng, 'news.messages.deleted') };
}

/** General news, or the news of a model the caller may use (another model answers 404, like its manual). */
export async function userList(db: Db, user: { id: string; role: string }, modelId: string | undefined, lng: Language): Promise<UserNews[]> {
  if (modelId === undefined) return (await repo.listFor(db, null)).map((r) => forUser(r, lng));
  const model = await findModel(db, modelId);
  if (!(await canUse(db, model, user.id, user.role))) throw notFound('model');
  return (await repo.listFor(db, model.id)).map((r) => forUser(r, lng));
}
