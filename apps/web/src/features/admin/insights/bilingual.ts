/** The form values and checks shared by the insight and news dialogs (back-office.md §5). */
import type { TFunction } from 'i18next';

export interface BilingualValues {
  titleEn: string;
  titleDe: string;
  contentEn: string;
  contentDe: string;
}
export type BilingualErrors = Partial<Record<keyof BilingualValues, string>>;

export const emptyBilingual = (): BilingualValues => ({ titleEn: '', titleDe: '', contentEn: '', contentDe: '' });

/** Text content counts, and so does an image; `<p></p>` does not. */
export const hasContent = (html: string) =>
  Boolean(
    html
      .replace(/<[^>]*>/g, '')
      .replace(/&nbsp;/g, ' ')
      .trim(),
  ) || /<img/i.test(html);

/** 'Title is required' / 'Content is required' per field (trimmed, non-empty); the server checks the same. */
export function validateBilingual(t: TFunction, v: BilingualValues): BilingualErrors {
  const errors: BilingualErrors = {};
  for (const f of ['titleEn', 'titleDe'] as const) if (!v[f].trim()) errors[f] = t('insights.errors.titleRequired');
  for (const f of ['contentEn', 'contentDe'] as const) if (!hasContent(v[f])) errors[f] = t('insights.errors.contentRequired');
  return errors;
}
