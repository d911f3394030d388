import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { modelName } from './modelName';

/** A `t` over the shipped names of one built-in model, answering in `lng` (or the option's language). */
const tIn = (lng: 'en' | 'de') =>
  ((key: string, opts?: { lng?: string; defaultValue?: string }) => {
    const names = { en: 'Grain size (ASTM E112)', de: 'Korngröße (ASTM E112)' };
    if (key !== 'resultText.models.grain-size') return opts?.defaultValue ?? key;
    return names[(opts?.lng as 'en' | 'de') ?? lng];
  }) as unknown as TFunction;

describe('modelName', () => {
  const shipped = { name: 'grain-size', displayName: 'Grain size (ASTM E112)' };
  it('German readers: the German name staff set, else the translation of a name left as shipped, else the display name', () => {
    expect(modelName(tIn('de'), { ...shipped, displayNameDe: 'Korngröße' }, 'de')).toBe('Korngröße');
    expect(modelName(tIn('de'), { ...shipped, displayNameDe: null }, 'de')).toBe('Korngröße (ASTM E112)');
    expect(modelName(tIn('de'), { name: 'grain-size', displayName: 'Grain size' }, 'de')).toBe('Grain size');
    expect(modelName(tIn('de'), { name: 'hardness', displayName: 'Hardness map', displayNameDe: 'Härtekarte' }, 'de')).toBe('Härtekarte');
  });
  it('English readers: the display name, whatever German name is set', () => {
    expect(modelName(tIn('en'), { ...shipped, displayNameDe: 'Korngröße' }, 'en')).toBe('Grain size (ASTM E112)');
    expect(modelName(tIn('en'), { name: 'hardness', displayName: 'Hardness map', displayNameDe: 'Härtekarte' }, 'en')).toBe('Hardness map');
  });
  it('the admin jobs list, job detail and Model filter shapes (issue 26 item 8): name or display name may be null', () => {
    // AdminJobRow.model: { id, name: string | null, displayName: string | null, displayNameDe? }
    expect(modelName(tIn('de'), { name: 'hardness', displayName: 'Hardness map', displayNameDe: 'Härtekarte' }, 'de')).toBe('Härtekarte');
    expect(modelName(tIn('de'), { name: 'grain-size', displayName: 'Grain size (ASTM E112)', displayNameDe: null }, 'de')).toBe(
      'Korngröße (ASTM E112)',
    );
    expect(modelName(tIn('de'), { name: 'hardness', displayName: null }, 'de')).toBe('hardness');
    expect(modelName(tIn('de'), { name: null, displayName: null }, 'de')).toBe('');
  });
});
