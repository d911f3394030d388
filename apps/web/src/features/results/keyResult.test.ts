import { describe, expect, it } from 'vitest';
import { formatResultValue } from '../jobs/format';
import { keyResultOf } from './keyResult';

describe('key result of a collapsed job', () => {
  it('is G, then the mean thickness, the crack length, the area fraction', () => {
    expect(keyResultOf({ astmGPlanimetric: 8.314, grainCount: 120 })).toEqual({ labelKey: 'resultText.ui.key.g', value: 8.314, kind: 'g' });
    expect(keyResultOf({ meanThicknessUm: 12.3 })?.labelKey).toBe('resultText.ui.key.thickness');
    expect(keyResultOf({ totalLengthUm: 401.2, crackCount: 3 })?.labelKey).toBe('resultText.ui.key.crackLength');
    expect(keyResultOf({ areaFractionPercent: 4.5 })?.labelKey).toBe('resultText.ui.key.areaFraction');
  });
  it('is absent without a number (an uncalibrated grain size has no G)', () => {
    expect(keyResultOf({ astmGPlanimetric: null, grainCount: 80 })).toBeNull();
    expect(keyResultOf(null)).toBeNull();
  });
});

describe('result table numbers (en and de)', () => {
  it('counts as integers, halves of a Jeffries count kept', () => {
    expect(formatResultValue(3, 'count', 'en')).toBe('3');
    expect(formatResultValue(1234, 'count', 'de')).toBe('1.234');
    expect(formatResultValue(127.5, 'count', 'de')).toBe('127,5');
    expect(formatResultValue(2.9999999, 'count', 'en')).toBe('3');
  });
  it('G to 2 decimals, the pixel size to 4 significant digits, others to 2 decimals', () => {
    expect(formatResultValue(8.3, 'g', 'en')).toBe('8.30');
    expect(formatResultValue(8.314, 'g', 'de')).toBe('8,31');
    expect(formatResultValue(0.23456, 'pixelSize', 'en')).toBe('0.2346');
    expect(formatResultValue(0.23456, 'pixelSize', 'de')).toBe('0,2346');
    expect(formatResultValue(1.5, 'pixelSize', 'en')).toBe('1.5');
    expect(formatResultValue(12.3456, 'number', 'de')).toBe('12,35');
    expect(formatResultValue(12.3456, undefined, 'en')).toBe('12.35');
    expect(formatResultValue('50 µm = 200 px', 'number', 'en')).toBe('50 µm = 200 px');
  });
});
