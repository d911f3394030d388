import { describe, expect, it } from 'vitest';
import { lineLength, parseDecimal, pixelSizeFromLine, roundPixelSize, toImagePixels } from './scale';

describe('set-scale arithmetic', () => {
  it('gives µm per pixel from a line over a known length in nm, µm and mm', () => {
    expect(pixelSizeFromLine(200, 50, 'µm')).toBe(0.25);
    expect(pixelSizeFromLine(400, 100, 'nm')).toBeCloseTo(0.00025, 12);
    expect(pixelSizeFromLine(500, 1, 'mm')).toBe(2);
  });

  it('refuses a zero, negative or missing length', () => {
    expect(pixelSizeFromLine(0, 50, 'µm')).toBeNull();
    expect(pixelSizeFromLine(100, 0, 'µm')).toBeNull();
    expect(pixelSizeFromLine(100, -1, 'mm')).toBeNull();
    expect(pixelSizeFromLine(Number.NaN, 1, 'mm')).toBeNull();
  });

  it('measures the line in the original pixels although the image is shown smaller', () => {
    const a = toImagePixels({ x: 0, y: 0 }, { width: 500, height: 250 }, { width: 2000, height: 1000 });
    const b = toImagePixels({ x: 30, y: 40 }, { width: 500, height: 250 }, { width: 2000, height: 1000 });
    expect(lineLength(a, b)).toBe(200);
    expect(pixelSizeFromLine(lineLength(a, b), 10, 'µm')).toBe(0.05);
  });

  it('reads typed numbers with a decimal point or comma and rounds to 6 digits', () => {
    expect(parseDecimal(' 0,137 ')).toBe(0.137);
    expect(parseDecimal('1.5')).toBe(1.5);
    expect(parseDecimal('abc')).toBeNaN();
    expect(parseDecimal('')).toBeNaN();
    expect(roundPixelSize(1 / 3)).toBe(0.333333);
  });
});
