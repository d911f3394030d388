import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { hasContent, validateBilingual } from './bilingual';

const t = ((key: string) => key) as unknown as TFunction;

describe('insight and news form checks', () => {
  it('an empty paragraph is no content; text or an image is', () => {
    expect(hasContent('<p></p>')).toBe(false);
    expect(hasContent('<p>&nbsp; </p>')).toBe(false);
    expect(hasContent('<p>Hi</p>')).toBe(true);
    expect(hasContent('<p><img src="/api/image/public/a.png"></p>')).toBe(true);
  });

  it('names each missing title and content (trimmed)', () => {
    expect(validateBilingual(t, { titleEn: ' ', titleDe: 'Titel', contentEn: '<p></p>', contentDe: '<p>Text</p>' })).toEqual({
      titleEn: 'insights.errors.titleRequired',
      contentEn: 'insights.errors.contentRequired',
    });
    expect(validateBilingual(t, { titleEn: 'A', titleDe: 'B', contentEn: '<p>x</p>', contentDe: '<p>y</p>' })).toEqual({});
  });
});
