import type { Language } from '@lamella/i18n';
import type { FieldErrors } from './field-errors.ts';

/** The English and German title and content of an insight or a news item. */
export interface RichText {
  titleEn: string;
  titleDe: string;
  contentEn: string;
  contentDe: string;
}

export const isUuid = (v: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);

/**
 * Checks an insight or news form (back-office.md §5): both titles and contents are required (trimmed, non-empty:
 * 'Title is required', 'Content is required'). Contents are sanitised with `clean` first, so `<p></p>` or a lone
 * `<script>` counts as empty; images count as content. Adds the failures to `e` and answers the cleaned values.
 */
export function parseRichText(e: FieldErrors, body: Partial<Record<keyof RichText, unknown>>, clean: (html: string) => string): RichText {
  const title = (field: keyof RichText) => {
    const v = body[field];
    if (typeof v !== 'string' || !v.trim()) {
      e.add(field, 'insights.errors.titleRequired');
      return '';
    }
    return v.trim();
  };
  const content = (field: keyof RichText) => {
    const html = typeof body[field] === 'string' ? clean(body[field]).trim() : '';
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

/** Both languages of a stored row, for the back office. */
export const bilingualOf = (row: RichText & { id: string }) => ({
  id: row.id,
  titleEn: row.titleEn,
  titleDe: row.titleDe,
  contentEn: row.contentEn,
  contentDe: row.contentDe,
});

/** The title and content of a stored row in the caller's language (German for 'de', English otherwise). */
export function localized(row: RichText, lng: Language): { language: 'en' | 'de'; title: string; content: string } {
  const de = lng === 'de';
  return { language: de ? 'de' : 'en', title: de ? row.titleDe : row.titleEn, content: de ? row.contentDe : row.contentEn };
}
