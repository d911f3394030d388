import { describe, expect, it } from 'vitest';
import { binDecimals, formatBinLabel, histogramBinLabels } from './number-format.ts';

describe('histogram bin labels (results page and PDF)', () => {
  it('takes the decimals from the narrowest bin: 0 from a width of 1 up, 1 from 0.1, 2 from 0.01', () => {
    expect(binDecimals([[0, 50]])).toBe(0);
    expect(binDecimals([[0, 1]])).toBe(0);
    expect(binDecimals([[0, 0.5]])).toBe(1);
    expect(binDecimals([[0.2, 0.3]])).toBe(1);
    expect(binDecimals([[0, 0.02]])).toBe(2);
    expect(binDecimals([1, 1.5, 2])).toBe(1); // values: the gap between neighbours
    expect(binDecimals([])).toBe(1);
    expect(binDecimals([[3, 3]])).toBe(1);
  });

  it('writes every label of a histogram with as many decimals, in the reader’s style', () => {
    const bins: Array<[number, number]> = [
      [0, 0.5],
      [0.5, 1],
      [1, 1.5],
    ];
    expect(histogramBinLabels(bins)).toEqual(['0.0–0.5', '0.5–1.0', '1.0–1.5']);
    expect(histogramBinLabels(bins, 'de')).toEqual(['0,0–0,5', '0,5–1,0', '1,0–1,5']);
    expect(
      histogramBinLabels([
        [0, 2000],
        [2000, 4000],
      ]),
    ).toEqual(['0–2,000', '2,000–4,000']);
  });

  it('reads the odd edges of results stored before the round bins regularly too', () => {
    // min…max in equal parts, edges to 4 decimals: were "12.3–87.1", "87.1–161.9" (and "12–87.1" where a 0 fell off)
    const stored: Array<[number, number]> = [
      [12.0012, 87.1234],
      [87.1234, 162.2456],
      [162.2456, 237.3678],
    ];
    expect(histogramBinLabels(stored)).toEqual(['12–87', '87–162', '162–237']);
    expect(formatBinLabel(0.1234, 2, 'de')).toBe('0,12');
  });
});
