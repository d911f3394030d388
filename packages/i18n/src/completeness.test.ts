/**
 * Completeness of the translations (issue 8 item 6):
 *  - every namespace file of `en` exists in `de` and the other way round, with exactly the same keys;
 *  - the `{{placeholders}}` of each German text are those of the English one;
 *  - every namespace file is listed in resources.ts (the type behind the typed `t()` keys of the web app);
 *  - every key is used somewhere in the sources (see usage.ts for what counts as a use, and its DYNAMIC_KEYS
 *    for keys built at run time).
 */
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { typedNamespaces } from './index.ts';
import { DYNAMIC_KEYS, de, dynamicPrefixesInSources, en, root, scannedFiles, unlistedDynamicPrefixes, unusedKeys } from './usage.ts';

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort();

describe('translations', () => {
  it('de has the same namespace files as en', () => {
    expect(de.files).toEqual(en.files);
  });

  it('de has every key of en', () => {
    const missing = [...en.keys.keys()].filter((k) => !de.keys.has(k));
    expect(missing, `keys missing in de: ${missing.join(', ')}`).toEqual([]);
  });

  it('de has no key that en lacks', () => {
    const extra = [...de.keys.keys()].filter((k) => !en.keys.has(k));
    expect(extra, `keys only in de: ${extra.join(', ')}`).toEqual([]);
  });

  it('every German text has the placeholders of the English one', () => {
    const wrong = [...en.keys].filter(([k, v]) => de.keys.has(k) && placeholders(v).join() !== placeholders(de.keys.get(k)!).join()).map(([k]) => k);
    expect(wrong, `placeholders differ: ${wrong.join(', ')}`).toEqual([]);
  });

  it('no text is empty', () => {
    const empty = [...en.keys, ...de.keys].filter(([, v]) => v.trim() === '').map(([k]) => k);
    expect(empty).toEqual([]);
  });

  it('every namespace file is part of the typed keys (resources.ts)', () => {
    expect([...typedNamespaces].sort(), 'run `npm run i18n:types` to add the new namespace file to packages/i18n/src/resources.ts').toEqual(en.files);
  });

  it('every key is used', () => {
    const unused = unusedKeys();
    expect(
      unused,
      `unused keys (delete them from en and de, or add a DYNAMIC_KEYS pattern if they are built at run time):\n${unused.join('\n')}`,
    ).toEqual([]);
  });

  it('the scanner sees the sources', () => {
    const files = scannedFiles().map((f) => relative(root, f));
    expect(files.some((f) => f.startsWith('apps/web/src/'))).toBe(true);
    expect(files.some((f) => f.startsWith('apps/server/src/'))).toBe(true);
    expect(dynamicPrefixesInSources().map((d) => d.prefix)).toContain('placeholders.');
  });

  it('every key the sources build at run time has a DYNAMIC_KEYS entry', () => {
    const unlisted = unlistedDynamicPrefixes();
    expect(unlisted, `add these prefixes to DYNAMIC_KEYS in packages/i18n/src/usage.ts: ${unlisted.join(', ')}`).toEqual([]);
  });

  it('every DYNAMIC_KEYS entry is still built somewhere', () => {
    const built = dynamicPrefixesInSources().map((d) => d.prefix);
    const stale = DYNAMIC_KEYS.filter((d) => !built.some((p) => p.startsWith(d.prefix) || d.prefix.startsWith(p))).map((d) => d.prefix);
    expect(stale, `remove these stale entries from DYNAMIC_KEYS: ${stale.join(', ')}`).toEqual([]);
  });
});
