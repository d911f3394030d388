import { describe, expect, it } from 'vitest';
import { formatResultValue, histogramBinLabels, type HistogramItem } from '@lamella/contracts';
import { cell, histogramSpec, overlayCaption } from './job-pdf.ts';
import { reportText } from './text.ts';

const en = reportText('en');
const de = reportText('de');

describe('job PDF table cells', () => {
  it('a Jeffries count of halves keeps its ,5 as on the results page (143,5, not 143,50); whole counts are integers', () => {
    expect(cell(de, 143.5, '', 'count')).toBe('143,5');
    expect(cell(en, 708.5, '', 'count')).toBe('708.5');
    expect(cell(de, 136, '', 'count')).toBe('136');
    expect(cell(en, 2306, '', 'count')).toBe('2,306');
    // a count that is no whole or half number (never from the models) is shown as an integer
    expect(cell(en, 12.3, '', 'count')).toBe('12');
  });

  it('other numbers and G have 2 decimals as on the results page (not the model’s 4), the pixel size 4 significant digits', () => {
    expect(cell(de, 8.2178, '', 'g')).toBe('8,22');
    expect(cell(de, 8.2, '', 'g')).toBe('8,20');
    expect(cell(en, 12.3456, 'µm', 'number')).toBe('12.35');
    expect(cell(de, 12.5, 'µm', 'number')).toBe('12,50');
    expect(cell(en, 1234.5678, 'µm²', 'number')).toBe('1,234.57');
    expect(cell(de, 0.2252, 'µm/px', 'pixelSize')).toBe('0,2252');
    expect(cell(en, 0.22524, 'µm/px')).toBe('0.2252');
    expect(cell(en, 12.5, 'µm')).toBe('12.50');
    expect(cell(en, null)).toBe('–');
    expect(cell(en, '100 µm = 200 px')).toBe('100 µm = 200 px');
    // one rule: the results page's formatter gives the same strings
    for (const [v, kind] of [
      [8.2178, 'g'],
      [143.5, 'count'],
      [0.2252, 'pixelSize'],
      [1234.5678, 'number'],
    ] as const)
      for (const tx of [en, de]) expect(cell(tx, v, '', kind)).toBe(formatResultValue(v, kind, tx.lng));
  });
});

describe('job PDF pictures', () => {
  it('captions each overlay by what it shows, in the reader’s language; an unknown one as the result’s overlay', () => {
    expect(overlayCaption(en, 'grain-boundaries.png')).toBe('Grain boundaries');
    expect(overlayCaption(en, 'e112-test-lines.png')).toMatch(/E112 test lines/);
    expect(overlayCaption(de, 'grain-boundaries.png')).toBe('Korngrenzen');
    expect(overlayCaption(de, 'e112-test-lines.png')).toMatch(/Messlinien/);
    expect(overlayCaption(de, 'scale-bar.png')).toMatch(/Maßstab/);
    const files = [
      'grain-boundaries.png',
      'e112-test-lines.png',
      'porosity-overlay.png',
      'cracks-overlay.png',
      'layer-overlay.png',
      'recipe-classes.png',
      'scale-bar.png',
    ];
    for (const tx of [en, de]) {
      const captions = files.map((f) => overlayCaption(tx, f));
      expect(new Set(captions).size).toBe(files.length);
      expect(captions).not.toContain(tx.t('reports.job.overlay'));
    }
    expect(overlayCaption(en, 'future.png')).toBe('Overlay of the result');
  });
});

describe('job PDF histograms', () => {
  it('labels each bin by its lower edge with the decimals of the bins’ width, as the results page does', () => {
    const item = (x: Array<[number, number]>): HistogramItem => ({
      type: 'histogram',
      label: 'Grain area distribution',
      unit: 'µm²',
      data: x.map((b) => ({ x: b, y: 1 })),
    });
    const half = item([
      [0, 0.5],
      [0.5, 1],
      [1, 1.5],
    ]);
    expect(histogramSpec(en, half, 1).groups.map((g) => g.label)).toEqual(['0.0', '0.5', '1.0']);
    expect(histogramSpec(de, half, 1).groups.map((g) => g.label)).toEqual(['0,0', '0,5', '1,0']);
    // a result stored with min…max bins: whole numbers (was 12.0, 87.1, 162), the page's "12–87", "87–162"
    const stored = item([
      [12.0012, 87.1234],
      [87.1234, 162.2456],
    ]);
    const labels = histogramSpec(en, stored, 1).groups.map((g) => g.label);
    expect(labels).toEqual(['12', '87']);
    expect(histogramBinLabels(stored.data.map((p) => p.x)).map((l) => l.split('–')[0])).toEqual(labels);
  });
});
