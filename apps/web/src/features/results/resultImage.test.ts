import { describe, expect, it } from 'vitest';
import en from '../../../../../packages/i18n/locales/en/calibration.json';
import de from '../../../../../packages/i18n/locales/de/calibration.json';
import { orderResultImages, resultImageKind } from './resultImage';

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
});
