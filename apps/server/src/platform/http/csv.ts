/**
 * CSV writing shared by every export (users, jobs, masks, metadata). One rule for all of them:
 * a text cell that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, tab or CR)
 * gets a leading apostrophe, and a cell holding the separator, a quote or a line break is quoted.
 * Numbers are written as numbers (never prefixed), with the reader's decimal separator.
 */
export interface CsvOptions {
  /** `,` (default) or `;` (used with the comma decimal separator, as spreadsheets in such locales expect). */
  separator?: ',' | ';';
  /** `.` (default) or `,`. */
  decimal?: '.' | ',';
  /** The texts of true and false (default `true`, `false`), e.g. the reader's yes and no. */
  booleans?: readonly [string, string];
}

const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell as CSV text. */
export function csvCell(value: unknown, options: CsvOptions = {}): string {
  const sep = options.separator ?? ',';
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? (options.decimal === ',' ? String(value).replace('.', ',') : String(value)) : '';
  if (typeof value === 'boolean') return options.booleans ? csvCell(options.booleans[value ? 0 : 1], options) : String(value);
  let text = value instanceof Date ? value.toISOString() : typeof value === 'string' ? value : JSON.stringify(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return text.includes(sep) || text.includes('"') || text.includes('\n') || text.includes('\r') ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line (with CRLF). */
export function csvLine(cells: readonly unknown[], options: CsvOptions = {}): string {
  return cells.map((c) => csvCell(c, options)).join(options.separator ?? ',') + '\r\n';
}

/** Byte order mark: spreadsheet programs then read the file as UTF-8. */
export const CSV_BOM = '\uFEFF';
