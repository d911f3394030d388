import { translate, type Language } from '@lamella/i18n';
import type { Insight, InsightBody, InsightDeleted, InsightHidden, InsightsVisibilityReset, SavedInsight, UserInsight } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { notFound } from '../../platform/http/errors.ts';
import { bilingualOf, isUuid, localized, parseRichText } from '../../platform/http/bilingual.ts';
import { FieldErrors } from '../../platform/http/field-errors.ts';
import { recordAudit } from '../audit/service.ts';
import { cleanHtml } from '../compute-models/service.ts';
import * as repo from './repo.ts';

function present(row: repo.InsightRow): Insight {
  return { ...bilingualOf(row), createdAt: row.createdAt.toISOString() };
}

function forUser(row: repo.InsightRow, lng: Language, withContent: boolean): UserInsight {
  const { content, ...text } = localized(row, lng);
  return { id: row.id, ...text, ...(withContent ? { content } : {}), createdAt: row.createdAt.toISOString() };
}

async function find(db: Db, id: string): Promise<repo.InsightRow> {
  const row = isUuid(id) ? await repo.find(db, id) : undefined;
  if (!row) throw notFound('insight');
  return row;
}

export async function adminList(db: Db): Promise<Insight[]> {
  return (await repo.listAll(db)).map(present);
}

export async function create(db: Db, actorId: string, body: InsightBody, lng: Language): Promise<SavedInsight> {
  const e = new FieldErrors();
  const values = parseRichText(e, body, cleanHtml);
  e.throwIfAny();
  const row = await repo.inTransaction(db, async (tx) => {
    const r = await repo.insert(tx, values);
    await recordAudit(tx, { actorId, action: 'insight.create', targetType: 'insight', targetId: r.id, details: { titleEn: r.titleEn } });
    return r;
  });
  return { ...present(row), message: translate(lng, 'insights.messages.created') };
}

export async function update(db: Db, actorId: string, id: string, body: InsightBody, lng: Language): Promise<SavedInsight> {
  await find(db, id);
  const e = new FieldErrors();
  const values = parseRichText(e, body, cleanHtml);
  e.throwIfAny();
  const row = await repo.inTransaction(db, async (tx) => {
    const r = await repo.update(tx, id, values);
    if (!r) throw notFound('insight');
    await recordAudit(tx, { actorId, action: 'insight.update', targetType: 'insight', targetId: id, details: { titleEn: r.titleEn } });
    return r;
  });
  return { ...present(row), message: translate(lng, 'insights.messages.updated') };
}

export async function remove(db: Db, actorId: string, id: string, lng: Language): Promise<InsightDeleted> {
  const row = await find(db, id);
  await repo.inTransaction(db, async (tx) => {
    if (!(await repo.remove(tx, id))) throw notFound('insight');
    await recordAudit(tx, { actorId, action: 'insight.delete', targetType: 'insight', targetId: id, details: { titleEn: row.titleEn } });
  });
  return { id, deleted: true, message: translate(lng, 'insights.messages.deleted') };
}

/** PUT /admin/users/preferences/insights: every user sees every insight again. */
export async function resetVisibility(db: Db, actorId: string, lng: Language): Promise<InsightsVisibilityReset> {
  await repo.inTransaction(db, async (tx) => {
    const removed = await repo.resetAll(tx);
    await recordAudit(tx, { actorId, action: 'insight.visibility.reset', targetType: 'insight', targetId: null, details: { removed } });
  });
  return { message: translate(lng, 'adminMessages.insightsReset') };
}

/** The caller's dashboard list: insights they have not hidden, in their language. */
export async function userList(db: Db, userId: string, lng: Language, withoutDetails: boolean): Promise<UserInsight[]> {
  return (await repo.listVisible(db, userId)).map((r) => forUser(r, lng, !withoutDetails));
}

export async function userGet(db: Db, id: string, lng: Language): Promise<UserInsight> {
  return forUser(await find(db, id), lng, true);
}

export async function hide(db: Db, userId: string, id: string): Promise<InsightHidden> {
  await find(db, id);
  await repo.hide(db, userId, id);
  return { id, hidden: true };
}
