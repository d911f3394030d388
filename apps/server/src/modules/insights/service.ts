import { translate, type Language } from '@lamella/i18n';
import type { Insight, InsightBody, InsightDeleted, InsightHidden, InsightsVisibilityReset, SavedInsight, UserInsight } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { notFound } from '../../platform/http/errors.ts';
import { FieldErrors } from '../../platform/http/field-errors.ts';
import { recordAudit } from '../audit/service.ts';
import { cleanHtml } from '../compute-models/service.ts';
import * as repo from './repo.ts';

export interface RichText {
  titleEn: string;
  titleDe: string;
  contentEn: string;
  contentDe: string;
}

/**
 * Checks an insight or news form (back-office.md §5): both titles and contents are required (trimmed, non-empty:
 * 'Title is required', 'Content is required'). Contents are sanitised first, so `<p></p>` or a lone `<script>`
 * counts as empty; images count as content. Adds the failures to `e` and answers the cleaned values.
 */
export function parseRichText(e: FieldErrors, body: Partial<Record<keyof RichText, unknown>>): RichText {
  const title = (field: keyof RichText) => {
    const v = body[field];
    if (typeof v !== 'string' || !v.trim()) {
      e.add(field, 'insights.errors.titleRequired');
      return '';
    }
    return v.trim();
  };
  const content = (field: keyof RichText) => {
    const html = typeof body[field] === 'string' ? cleanHtml(body[field]).trim() : '';
    const visible = html
      .replace(/<img\b/gi, 'x<img')
      .replace(/<[^>]*>/g, '')
      .replace(/&nbsp;/g, ' ')
      .trim();
    if (!visible) e.add(field, 'insights.errors.contentRequired');
    return html;
  };
  return { titleEn: title('titleEn'), titleDe: title('titleDe'), contentEn: content('contentEn'), contentDe: content('contentDe') };
}

const isUuid = (v: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);

function present(row: repo.InsightRow): Insight {
  return {
    id: row.id,
    titleEn: row.titleEn,
    titleDe: row.titleDe,
    contentEn: row.contentEn,
    contentDe: row.contentDe,
    createdAt: row.createdAt.toISOString(),
  };
}

function forUser(row: repo.InsightRow, lng: Language, withContent: boolean): UserInsight {
  const de = lng === 'de';
  return {
    id: row.id,
    language: de ? 'de' : 'en',
    title: de ? row.titleDe : row.titleEn,
    ...(withContent ? { content: de ? row.contentDe : row.contentEn } : {}),
    createdAt: row.createdAt.toISOString(),
  };
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
  const values = parseRichText(e, body);
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
  const values = parseRichText(e, body);
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
