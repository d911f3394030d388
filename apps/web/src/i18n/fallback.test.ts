import { describe, expect, it } from 'vitest';
import { bundledTree } from './fallback';

describe('bundled fallback translations (loaded only when the server cannot be reached)', () => {
  it('holds every namespace of a language', () => {
    const de = bundledTree('de');
    expect(Object.keys(de)).toEqual(expect.arrayContaining(['auth', 'common', 'shared']));
    expect((de.common as Record<string, string>).save).toBe('Speichern');
    expect((bundledTree('en').common as Record<string, string>).save).toBe('Save');
  });
});
