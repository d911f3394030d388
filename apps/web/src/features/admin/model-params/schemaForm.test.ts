import { describe, expect, it } from 'vitest';
import { fieldsOf, getAt, hexToRgb, humanize, problemsOf, rgbToHex, setAt } from './schemaForm';

const rgb = { type: 'object', properties: { r: { type: 'number' }, g: { type: 'number' }, b: { type: 'number' } }, required: ['r', 'g', 'b'] };
const schema = {
  type: 'object',
  properties: {
    magnification: {
      type: 'object',
      properties: {
        unit: { type: 'string', enum: ['µm', 'mm', 'nm'] },
        number: { type: 'number', exclusiveMinimum: 0 },
        length: { type: 'integer', minimum: 1, maximum: 1000 },
      },
    },
    modelVersion: { type: 'string', enum: ['20241025', '20250101'] },
    note: { type: 'string', description: 'free text' },
    strict: { type: 'boolean' },
    list: { type: 'array', items: { type: 'string' } },
    colours: { type: 'object', properties: { cracks: rgb } },
    empty: { type: 'object', properties: {} },
  },
};

describe('fieldsOf', () => {
  it('turns the schema into sections, selects, bounded numbers, switches and colour pickers', () => {
    const f = fieldsOf(schema);
    expect(f.map((x) => `${x.key}:${x.kind}`)).toEqual([
      'magnification:group',
      'modelVersion:enum',
      'note:string',
      'strict:boolean',
      'colours:group',
    ]);
    const mag = f[0];
    if (mag.kind !== 'group') throw new Error('group expected');
    expect(mag.children).toEqual([
      { key: 'unit', path: ['magnification', 'unit'], kind: 'enum', options: ['µm', 'mm', 'nm'], description: undefined },
      {
        key: 'number',
        path: ['magnification', 'number'],
        kind: 'number',
        min: undefined,
        max: undefined,
        exclusiveMin: 0,
        exclusiveMax: undefined,
        description: undefined,
      },
      {
        key: 'length',
        path: ['magnification', 'length'],
        kind: 'integer',
        min: 1,
        max: 1000,
        exclusiveMin: undefined,
        exclusiveMax: undefined,
        description: undefined,
      },
    ]);
    const colours = f[4];
    if (colours.kind !== 'group') throw new Error('group expected');
    expect(colours.children[0]).toMatchObject({ key: 'cracks', kind: 'colour', path: ['colours', 'cracks'] });
    expect(f[2].description).toBe('free text');
  });

  it('answers nothing for what is not an object schema', () => {
    expect(fieldsOf(null)).toEqual([]);
    expect(fieldsOf({ type: 'string' })).toEqual([]);
  });
});

describe('values by path', () => {
  it('reads and writes nested values without touching the original', () => {
    const v = { a: { b: 1 }, c: 2 };
    const w = setAt(v, ['a', 'd'], 3);
    expect(w).toEqual({ a: { b: 1, d: 3 }, c: 2 });
    expect(v).toEqual({ a: { b: 1 }, c: 2 });
    expect(getAt(w, ['a', 'd'])).toBe(3);
    expect(getAt(w, ['x', 'y'])).toBeUndefined();
    expect(setAt({ a: { b: 1 } }, ['a', 'b'], undefined)).toEqual({});
    expect(setAt({}, ['m', 'n'], 'x')).toEqual({ m: { n: 'x' } });
  });
});

describe('colours', () => {
  it('converts 0–1 channels to #rrggbb and back', () => {
    expect(rgbToHex({ r: 1, g: 0.1, b: 0 })).toBe('#ff1a00');
    expect(rgbToHex({ r: 2, g: -1 })).toBe('#ff0000');
    expect(hexToRgb('#ff1a00')).toEqual({ r: 1, g: 0.102, b: 0 });
    expect(hexToRgb('00CCFF')).toEqual({ r: 0, g: 0.8, b: 1 });
    expect(hexToRgb('red')).toBeNull();
  });
});

describe('problemsOf', () => {
  it('checks integers and every kind of bound, per field path', () => {
    const f = fieldsOf(schema);
    expect(problemsOf(f, { magnification: { unit: 'µm', number: 2, length: 10 } })).toEqual({});
    expect(problemsOf(f, { magnification: { number: 0, length: 1.5 } })).toEqual({
      'magnification.number': { key: 'above', limit: 0 },
      'magnification.length': { key: 'integer' },
    });
    expect(problemsOf(f, { magnification: { length: 0 } })).toEqual({ 'magnification.length': { key: 'min', limit: 1 } });
    expect(problemsOf(f, { magnification: { length: 1001 } })).toEqual({ 'magnification.length': { key: 'max', limit: 1000 } });
  });
});

it('humanizes keys for fields without a translation', () => {
  expect(humanize('maxIterations')).toBe('Max iterations');
  expect(humanize('cut_bottom')).toBe('Cut bottom');
});
