import { isLanguage, languages, lookup, mergeTrees, translate, translations, type Language, type TranslationTree } from '@lamella/i18n';
import type { SavedTranslationOverride, TranslationEntry, TranslationList, TranslationOverrideBody, TranslationsReloaded } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { AppError, notFound } from '../../platform/http/errors.ts';
import { FieldErrors } from '../../platform/http/field-errors.ts';
import { recordAudit } from '../audit/service.ts';
import * as repo from './repo.ts';

/**
 * Translation overrides (back-office Settings → Translations): staff replace the text of a key of the English or
 * German files; the web app's tree (GET /api/languages/{lng}) is the files with the overrides merged over them.
 * Merged trees are cached per database (so per server process); PUT /languages rebuilds them, which is when saved
 * overrides are published. Overrides change what the web app shows; texts the server writes itself (API error
 * messages, mails) keep the files' wording, so the mail namespace cannot be overridden.
 */

/** Namespaces only the server renders (mails): an override would change nothing, so it is refused. */
const SERVER_ONLY_NAMESPACES = new Set(['mail']);
const DEFAULT_LIMIT = 50;

/** Every text of the English files as `[key, text]`, in file order. */
const englishKeys: ReadonlyArray<readonly [string, string]> = (() => {
  const out: Array<readonly [string, string]> = [];
  const walk = (node: TranslationTree, prefix: string) => {
    for (const [k, v] of Object.entries(node)) {
      const key = prefix ? `${prefix}.${k}` : k;
      if (typeof v === 'string') out.push([key, v] as const);
      else walk(v, key);
    }
  };
  for (const [ns, tree] of Object.entries(translations.en)) if (!SERVER_ONLY_NAMESPACES.has(ns) && typeof tree === 'object') walk(tree, ns);
  return out;
})();
const englishKeySet = new Set(englishKeys.map(([k]) => k));

/** The `{{name}}` placeholders of a text (i18next's `{{name, format}}` counts as `name`), sorted and unique. */
export function placeholdersOf(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(/\{\{\s*([^{}\s,]+)[^{}]*\}\}/g)) names.add(m[1]);
  return [...names].sort();
}

/** The file text of a key in a language (English when the language's file lacks it). */
const fileText = (language: Language, key: string): string => lookup(translations[language], key) ?? lookup(translations.en, key) ?? '';

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** True when a stored override still fits the files (the key exists, same placeholders): stale ones are skipped. */
const applicable = (row: repo.OverrideRow) =>
  isLanguage(row.language) && englishKeySet.has(row.key) && sameSet(placeholdersOf(row.value), placeholdersOf(fileText(row.language, row.key)));

function treeOf(rows: repo.OverrideRow[]): TranslationTree {
  const tree: TranslationTree = {};
  for (const row of rows) {
    if (!applicable(row)) continue;
    const parts = row.key.split('.');
    let node = tree;
    for (const part of parts.slice(0, -1)) {
      const next = node[part];
      node = (typeof next === 'object' ? next : (node[part] = {})) as TranslationTree;
    }
    node[parts[parts.length - 1]] = row.value;
  }
  return tree;
}

/** The merged trees, per database (one per server process; several test apps in one process stay apart). */
const cache = new WeakMap<Db, Map<Language, TranslationTree>>();

async function build(db: Db, language: Language): Promise<TranslationTree> {
  return mergeTrees(translations[language], treeOf(await repo.listOfLanguage(db, language)));
}

/** GET /api/languages/{lng}: the files with the published overrides merged over them; an unknown language is 404. */
export async function mergedTree(db: Db, lng: string): Promise<TranslationTree> {
  if (!isLanguage(lng)) throw notFound('language');
  let trees = cache.get(db);
  if (!trees) cache.set(db, (trees = new Map()));
  const hit = trees.get(lng);
  if (hit) return hit;
  const tree = await build(db, lng);
  trees.set(lng, tree);
  return tree;
}

/** PUT /languages: rebuilds the merged trees from the files and the stored overrides (publishes saved overrides). */
export async function reload(db: Db, actorId: string, lng: Language): Promise<TranslationsReloaded> {
  let trees: Map<Language, TranslationTree>;
  try {
    trees = new Map(await Promise.all(languages.map(async (l) => [l, await build(db, l)] as const)));
  } catch {
    throw new AppError(500, 'TRANSLATIONS_RELOAD_FAILED', 'adminTranslations.messages.reloadFailed');
  }
  cache.set(db, trees);
  await recordAudit(db, { actorId, action: 'translations.reload', targetType: 'translations', targetId: null, details: {} });
  return { message: translate(lng, 'adminTranslations.messages.reloaded') };
}

function entryOf(key: string, rows: repo.OverrideRow[]): TranslationEntry {
  const side = (language: Language) => {
    const row = rows.find((r) => r.key === key && r.language === language);
    return { file: fileText(language, key), override: row?.value ?? null, updatedAt: row ? row.updatedAt.toISOString() : null };
  };
  return { key, en: side('en'), de: side('de') };
}

/**
 * GET /admin/translations: with `search`, the keys whose key, file text (either language) or override contains it
 * (case-insensitive); without, the keys that have an override. Sorted by key, at most `limit` (default 50).
 */
export async function list(db: Db, query: { search?: string; limit?: number }): Promise<TranslationList> {
  const search = query.search?.trim().toLowerCase() ?? '';
  const limit = query.limit ?? DEFAULT_LIMIT;
  const all = await repo.listAll(db);
  const overridden = new Set(all.map((r) => r.key));
  const hit = (text: string | undefined) => text !== undefined && text.toLowerCase().includes(search);
  const keys = englishKeys
    .map(([key]) => key)
    .filter((key) =>
      search
        ? hit(key) || hit(fileText('en', key)) || hit(fileText('de', key)) || all.some((r) => r.key === key && hit(r.value))
        : overridden.has(key),
    )
    .sort();
  return { items: keys.slice(0, limit).map((key) => entryOf(key, all)), total: keys.length, overrides: all.length };
}

/**
 * PUT /admin/translations: sets one override. The key must be a text of the English files and the value must keep
 * exactly the file text's placeholders; a failure names the field and stores nothing. Published by PUT /languages.
 */
export async function set(db: Db, actorId: string, body: TranslationOverrideBody, lng: Language): Promise<SavedTranslationOverride> {
  const key = body.key.trim();
  const e = new FieldErrors();
  if (!key) e.add('key', 'adminTranslations.errors.keyRequired');
  else if (!englishKeySet.has(key)) {
    const mailOnly = SERVER_ONLY_NAMESPACES.has(key.split('.')[0]) && lookup(translations.en, key) !== undefined;
    e.add('key', mailOnly ? 'adminTranslations.errors.keyNotOverridable' : 'adminTranslations.errors.keyUnknown', { key });
  }
  if (!body.value.trim()) e.add('value', 'adminTranslations.errors.valueRequired');
  else if (englishKeySet.has(key)) {
    const expected = placeholdersOf(fileText(body.language, key));
    if (!sameSet(placeholdersOf(body.value), expected)) {
      const list = expected.map((p) => `{{${p}}}`).join(', ');
      e.add('value', expected.length ? 'adminTranslations.errors.placeholders' : 'adminTranslations.errors.noPlaceholders', { expected: list });
    }
  }
  e.throwIfAny();
  await repo.inTransaction(db, async (tx) => {
    await repo.upsert(tx, { language: body.language, key, value: body.value, updatedBy: actorId });
    await recordAudit(tx, {
      actorId,
      action: 'translation.override.set',
      targetType: 'translation',
      targetId: `${body.language}:${key}`,
      details: { language: body.language, key, value: body.value },
    });
  });
  return { entry: entryOf(key, await repo.listOfKeys(db, [key])), message: translate(lng, 'adminTranslations.messages.saved') };
}

/** DELETE /admin/translations/{language}/{key}: the file text applies again after the next reload. */
export async function remove(db: Db, actorId: string, language: Language, key: string, lng: Language): Promise<SavedTranslationOverride> {
  await repo.inTransaction(db, async (tx) => {
    const row = await repo.remove(tx, language, key);
    if (!row) throw notFound('translation override');
    await recordAudit(tx, {
      actorId,
      action: 'translation.override.delete',
      targetType: 'translation',
      targetId: `${language}:${key}`,
      details: { language, key },
    });
  });
  return { entry: entryOf(key, await repo.listOfKeys(db, [key])), message: translate(lng, 'adminTranslations.messages.deleted') };
}

/** For the Services status card (the translations store is this database table): true when it answers. */
export async function storeReachable(db: Db): Promise<boolean> {
  await repo.countAll(db);
  return true;
}
