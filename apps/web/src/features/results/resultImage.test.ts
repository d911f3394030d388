import { describe, expect, it } from 'vitest';
import en from '../../../../../packages/i18n/locales/en/calibration.json';
import de from '../../../../../packages/i18n/locales/de/calibration.json';
import resultsEn from '../../../../../packages/i18n/locales/en/results.json';
import resultsDe from '../../../../../packages/i18n/locales/de/results.json';
import { orderResultImages, overlayCaptionKey, resultImageKind } from './resultImage';

describe('result images', () => {
  it('tells the scale bar found from the overlays and shows it after them', () => {
    expect(resultImageKind('scale-bar.png')).toBe('scale-bar');
    expect(resultImageKind('grain-boundaries.png')).toBe('overlay');
    const items = [{ filename: 'scale-bar.png' }, { filename: 'grain-boundaries.png' }, { filename: 'e112-test-lines.png' }];
    expect(orderResultImages(items).map((i) => i.filename)).toEqual(['grain-boundaries.png', 'e112-test-lines.png', 'scale-bar.png']);
    expect(orderResultImages([{ filename: 'pores.png' }])).toEqual([{ filename: 'pores.png' }]);
  });

  it('captions the scale bar found in English and German, naming the outline colours', () => {
    expect(en.barFound.caption).toMatch(/scale bar/i);
    expect(en.barFound.caption).toMatch(/red/);
    expect(en.barFound.caption).toMatch(/blue/);
    expect(de.barFound.caption).toMatch(/Maßstab/);
    expect(de.barFound.caption).toMatch(/rot/);
    expect(de.barFound.caption).toMatch(/blau/);
    // short enough not to be cut in a phone's figure caption
    for (const c of [en.barFound.caption, de.barFound.caption]) expect(c.length).toBeLessThanOrEqual(40);
  });

  it('captions each overlay by what it shows, so the two grain-size overlays differ (not both "Result image")', () => {
    const read = (tree: unknown, key: string) =>
      key
        .split('.')
        .slice(1)
        .reduce<unknown>((n, k) => (n as Record<string, unknown>)?.[k], tree);
    const files = [
      'grain-boundaries.png',
      'e112-test-lines.png',
      'porosity-overlay.png',
      'cracks-overlay.png',
      'layer-overlay.png',
      'recipe-classes.png',
    ];
    for (const [tree, lang] of [
      [resultsEn, 'en'],
      [resultsDe, 'de'],
    ] as const) {
      const captions = files.map((f) => read(tree, overlayCaptionKey(f)));
      for (const c of captions) {
        expect(typeof c, lang).toBe('string');
        // short enough beside the opacity slider of a phone's figure
        expect((c as string).length, `${lang}: ${String(c)}`).toBeLessThanOrEqual(20);
      }
      expect(new Set(captions).size, lang).toBe(files.length);
      expect(captions).not.toContain(read(tree, 'results.panel.resultImage'));
    }
    expect(read(resultsEn, overlayCaptionKey('e112-test-lines.png'))).toMatch(/test line/i);
    expect(read(resultsDe, overlayCaptionKey('grain-boundaries.png'))).toBe('Korngrenzen');
    // an overlay no caption is known for keeps the generic one
    expect(overlayCaptionKey('future-model.png')).toBe('results.panel.resultImage');
    expect(overlayCaptionKey('toString')).toBe('results.panel.resultImage');
  });
});
