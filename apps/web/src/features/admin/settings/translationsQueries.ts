/** Translation-override calls of the Settings screen's Translations card, typed from the contracts. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { translationsApi } from '@lamella/contracts';
import { call } from '../../../api/client';

export const TRANSLATIONS_KEY = ['admin', 'translations'] as const;

/** Keys matching `search` (key or text), or the keys with an override when it is empty. */
export function useTranslationEntries(search: string) {
  return useQuery({
    queryKey: [...TRANSLATIONS_KEY, search],
    queryFn: () => call(translationsApi.list, { query: search ? { search } : {} }),
    placeholderData: keepPreviousData,
  });
}

/** The `{{name}}` placeholders of a text, as the server checks them (sorted, unique). */
export function placeholdersOf(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(/\{\{\s*([^{}\s,]+)[^{}]*\}\}/g)) names.add(m[1]);
  return [...names].sort();
}

export { translationsApi };
