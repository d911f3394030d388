/**
 * Translations of the whole product (web app, server messages, mails), one JSON file per namespace and
 * language under `locales/<lng>/<namespace>.json`. English is the source and the fallback; completeness.test.ts
 * checks that German has exactly the English keys and that every key is used, and resources.ts types the keys
 * of the web app's `t()`. The server serves the merged tree at `GET /api/languages/{lng}` (with admin overrides
 * on top); keys are addressed as `<namespace>.<path>`, e.g. `auth.passwordValidator.length`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type { EnglishResources } from './resources.ts';
export { typedNamespaces } from './resources.ts';

export const languages = ['en', 'de'] as const;
export type Language = (typeof languages)[number];
export const fallbackLanguage: Language = 'en';

export type TranslationTree = { [key: string]: string | TranslationTree };

const localesDir = fileURLToPath(new URL('../locales/', import.meta.url));

function load(): Record<Language, TranslationTree> {
  const out = { en: {}, de: {} } as Record<Language, TranslationTree>;
  for (const lng of languages) {
    for (const file of readdirSync(join(localesDir, lng))) {
      if (!file.endsWith('.json')) continue;
      out[lng][file.slice(0, -5)] = JSON.parse(readFileSync(join(localesDir, lng, file), 'utf8')) as TranslationTree;
    }
  }
  return out;
}

export const translations: Record<Language, TranslationTree> = load();

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

/** Reads `a.b.c` from a tree; undefined when absent. */
export function lookup(tree: TranslationTree, key: string): string | undefined {
  let node: string | TranslationTree | undefined = tree;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** Translates `key` into `lng` (falling back to English, then to the key), filling `{{name}}` placeholders. */
export function translate(lng: string, key: string, vars: Record<string, string | number> = {}): string {
  const language = isLanguage(lng) ? lng : fallbackLanguage;
  const text = lookup(translations[language], key) ?? lookup(translations[fallbackLanguage], key) ?? key;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => (name in vars ? String(vars[name]) : `{{${name}}}`));
}

/** Deep merge of translation trees (right wins); used for admin overrides. */
export function mergeTrees(base: TranslationTree, over: TranslationTree): TranslationTree {
  const out: TranslationTree = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = typeof v === 'object' && typeof b === 'object' ? mergeTrees(b, v) : v;
  }
  return out;
}
