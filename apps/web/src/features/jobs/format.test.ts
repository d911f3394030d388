import { describe, expect, it } from 'vitest';
import { histogramBinLabels } from '@lamella/contracts';
import { averageScore, feedbackColor, formatAxis, formatDuration, formatTableValue, roundTo, truncate } from './format';

describe('rounding', () => {
  it('rounds half away from zero at the given decimals', () => {
    expect(roundTo(1.005, 2)).toBe(1.01);
    expect(roundTo(2.25, 1)).toBe(2.3);
    expect(roundTo(-1.26, 1)).toBe(-1.3);
    expect(roundTo(Number.NaN, 1)).toBeNaN();
  });
  it('axis values have at most 1 decimal', () => {
    expect(formatAxis(12)).toBe('12');
    expect(formatAxis(1.25)).toBe('1.3');
    expect(formatAxis(1234.56)).toBe('1,234.6');
    expect(formatAxis(1234.56, 'de')).toBe('1.234,6');
    expect(formatAxis('label')).toBe('label');
  });
  it('table values have exactly 2 decimals', () => {
    expect(formatTableValue(3)).toBe('3.00');
    expect(formatTableValue(0.125)).toBe('0.13');
    expect(formatTableValue('7.5')).toBe('7.50');
    expect(formatTableValue(2.5, 'de')).toBe('2,50');
    expect(formatTableValue('G 7')).toBe('G 7');
    expect(formatTableValue(null)).toBe('–');
  });
  it('histogram bins show ranges, every label with the decimals of the bin width', () => {
    expect(histogramBinLabels([[1, 2.25]])).toEqual(['1–2']);
    expect(
      histogramBinLabels([
        [0.5, 1],
        [1, 1.5],
      ]),
    ).toEqual(['0.5–1.0', '1.0–1.5']);
    expect(histogramBinLabels([4.44, 4.64], 'de')).toEqual(['4,4', '4,6']);
  });
});

describe('feedback flag colour', () => {
  it('follows the score bands', () => {
    expect(feedbackColor(0)).toBe('black');
    expect(feedbackColor(0.1)).toBe('red');
    expect(feedbackColor(0.2)).toBe('red');
    expect(feedbackColor(0.21)).toBe('orange');
    expect(feedbackColor(0.8)).toBe('orange');
    expect(feedbackColor(0.81)).toBe('green');
    expect(feedbackColor(1)).toBe('green');
  });
  it('averages the flags', () => {
    expect(averageScore([])).toBe(0);
    expect(averageScore([{ score: 1 }, { score: 0.5 }])).toBe(0.75);
  });
});

describe('text helpers', () => {
  it('truncates at 70 characters plus an ellipsis', () => {
    expect(truncate('a'.repeat(70))).toBe('a'.repeat(70));
    expect(truncate('a'.repeat(71))).toBe('a'.repeat(70) + '…');
  });
  it('formats durations in the short form', () => {
    expect(formatDuration(500)).toBe('<1s');
    expect(formatDuration(93_600_000)).toBe('1d 2h');
    expect(formatDuration(61_000)).toBe('1m 1s');
  });
});
