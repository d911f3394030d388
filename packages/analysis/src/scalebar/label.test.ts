import { describe, expect, it } from 'vitest';
import { parseLabelText } from './label.js';
import { unitByGlyphs, type TextLine } from './general.js';

describe('scale-bar label text as OCR reads it', () => {
  const table: [string, boolean, { value: number; unit: string } | null][] = [
    ['100 µm', false, { value: 100, unit: 'µm' }],
    ['100 μm', false, { value: 100, unit: 'µm' }], // Greek mu
    ['2 um', false, { value: 2, unit: 'µm' }],
    ['10.0um', false, { value: 10, unit: 'µm' }],
    ['50 pm', false, { value: 50, unit: 'µm' }], // µ read as p
    ['20 jm', false, { value: 20, unit: 'µm' }],
    ['5 urn', false, { value: 5, unit: 'µm' }], // m read as rn
    ['2 1m', false, { value: 2, unit: 'µm' }], // µ read as 1 after the space
    ['2 4m', true, { value: 2, unit: 'µm' }], // µ read as 4, its tail seen
    ['2 4m', false, null], // no tail: not read as a label
    ['500 nm', false, { value: 500, unit: 'nm' }],
    ['500 nm', true, { value: 500, unit: 'µm' }], // the glyph has a tail: µ
    ['1 mm', false, { value: 1, unit: 'mm' }],
    ['0.5 mm', false, { value: 0.5, unit: 'mm' }],
    ['2,5 µm', false, { value: 2.5, unit: 'µm' }], // decimal comma
    ['0,2 mm', false, { value: 0.2, unit: 'mm' }],
    ['1,000 nm', false, { value: 1000, unit: 'nm' }], // thousands
    ['1O µm', false, { value: 10, unit: 'µm' }], // O for 0
    ['2 . 5 µm', false, { value: 2.5, unit: 'µm' }],
    ['1 micron', false, { value: 1, unit: 'µm' }],
    ['5 m', true, { value: 5, unit: 'µm' }],
    ['5 m', false, null], // metres are not a micrograph's bar
    ['15.00 kV', false, null],
    ['x5.00k', false, null],
    ['Mag = 500 X', false, null],
    ['50', false, null], // no unit: not a label
    ['', false, null],
  ];
  for (const [text, descender, want] of table)
    it(`${JSON.stringify(text)}${descender ? ' (descender)' : ''}`, () => {
      expect(parseLabelText(text, descender)).toEqual(want);
    });
});

describe('n or m by the glyphs of the label', () => {
  // "500 nm" in glyph boxes: three digits 20x32, then the unit's two letters on the digits' baseline
  const line = (unit: [number, number][]): TextLine => {
    const digits = [0, 1, 2].map((i) => ({ x: 22 * i, y: 0, width: 20, height: 32 }));
    let x = 80;
    const letters = unit.map(([w, h]) => {
      const r = { x, y: 32 - h, width: w, height: h };
      x += w + 3;
      return r;
    });
    return { rect: { x: 0, y: 0, width: x, height: 32 }, pixels: new Int32Array(0), glyphs: [...digits, ...letters] };
  };
  it('an n about 0.6 of the m beside it is nm, two of the same width mm', () => {
    expect(
      unitByGlyphs(
        line([
          [14, 24],
          [23, 24],
        ]),
        'mm',
      ),
    ).toBe('nm');
    expect(
      unitByGlyphs(
        line([
          [23, 24],
          [23, 24],
        ]),
        'nm',
      ),
    ).toBe('mm');
  });
  it('leaves the unit as read when the last glyph is narrower than an m (a letter broken in pieces)', () => {
    expect(
      unitByGlyphs(
        line([
          [23, 24],
          [13, 24],
        ]),
        'nm',
      ),
    ).toBe('nm');
    expect(
      unitByGlyphs(
        line([
          [4, 24],
          [23, 24],
        ]),
        'mm',
      ),
    ).toBe('mm');
  });
});
