import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from './csv.ts';

describe('CSV cells', () => {
  it('neutralises text a spreadsheet would run as a formula', () => {
    for (const bad of ['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\tx', '\rx']) expect(csvCell(bad).replace(/^"/, '').startsWith("'")).toBe(true);
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
  });

  it('keeps numbers as numbers, with the reader decimal separator', () => {
    expect(csvCell(-1.5)).toBe('-1.5');
    expect(csvCell(-1.5, { decimal: ',', separator: ';' })).toBe('-1,5');
    expect(csvCell(Number.NaN)).toBe('');
  });

  it('quotes separators, quotes and line breaks', () => {
    expect(csvLine(['a,b', 'say "hi"', 'x\ny', null])).toBe('"a,b","say ""hi""","x\ny",\r\n');
    expect(csvLine(['a,b', 'c;d'], { separator: ';' })).toBe('a,b;"c;d"\r\n');
  });
});
