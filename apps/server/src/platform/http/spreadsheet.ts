/**
 * Tables exported as files (the user's job export, the back-office reports): one module for the number rules, the
 * reader's CSV style and the two formats, so every export writes the same way (issue 14 item 3).
 *
 * - Numbers are rounded as the spec's tables are: 2 decimals (`round2`), counts as integers (`roundCount`), the
 *   pixel size to 4 significant digits (`significant`).
 * - CSV: platform/http/csv.ts cells (formula-safe text), a UTF-8 byte order mark, the reader's decimal separator
 *   from their profile (`csvDecimalSeparator`, comma by default as accounts.md says) and `;` between fields with the
 *   comma; dates as ISO 8601 UTC text; yes/no in the reader's language.
 * - XLSX (exceljs): the same headers and rows, numbers as numbers, dates as dates, booleans as booleans, a bold
 *   frozen header row. `xlsxStream` writes row by row (exceljs' streaming writer), so a report of a million rows
 *   never sits in memory.
 */
import { once } from 'node:events';
import { PassThrough, Readable, type Writable } from 'node:stream';
import { createRequire } from 'node:module';
import type ExcelJSModule from 'exceljs';

/** exceljs takes seconds to load: it is required at the first spreadsheet, not at the server's start (issue 30 item 5). */
let excel: typeof ExcelJSModule | undefined;
const ExcelJS = () => (excel ??= createRequire(import.meta.url)('exceljs') as typeof ExcelJSModule);
import type { FastifyRequest } from 'fastify';
import { translate, type Language } from '@lamella/i18n';
import { CSV_BOM, csvLine, type CsvOptions } from './csv.ts';

export type Cell = string | number | boolean | Date | null | undefined;
export type SpreadsheetFormat = 'csv' | 'xlsx';

/** A table whose rows come batch by batch (a report read from the database). */
export interface StreamedTable {
  headers: string[];
  batches: AsyncIterable<Cell[][]>;
}
/** A table held in memory (small exports). */
export interface Table {
  headers: string[];
  rows: Cell[][];
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const CSV_TYPE = 'text/csv; charset=utf-8';

/** A count as an integer; a count of halves (Jeffries: border grains count ½) keeps its .5. */
export const roundCount = (v: number) => (Number.isInteger(v * 2) ? v : Math.round(v));
/** `v` to `n` significant digits. */
export const significant = (v: number, n: number) => (v === 0 ? 0 : Number(v.toPrecision(n)));
/** `v` to 2 decimals (the tables' precision). */
export const round2 = (v: number) => Math.round((v + Number.EPSILON) * 100) / 100;
/** Milliseconds as seconds to 2 decimals; null stays null. */
export const seconds = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : round2(ms / 1000));

/** The reader's CSV style: comma decimals (and `;` between fields) unless their profile chose the dot. */
export const csvOptionsOf = (csvDecimalSeparator: string | null | undefined, booleans?: [string, string]): CsvOptions => ({
  ...(csvDecimalSeparator !== 'dot' ? { separator: ';', decimal: ',' } : { separator: ',', decimal: '.' }),
  ...(booleans ? { booleans } : {}),
});

/** The CSV style of the signed-in caller (their profile's separator) with yes and no in `lng`. */
export function readerCsvOptions(request: FastifyRequest, lng: Language): CsvOptions {
  return csvOptionsOf(request.auth?.user.csvDecimalSeparator, [translate(lng, 'adminReports.yes'), translate(lng, 'adminReports.no')]);
}

/** The whole table as CSV text (with the byte order mark). */
export function tableToCsv(table: Table, options: CsvOptions): string {
  return CSV_BOM + csvLine(table.headers, options) + table.rows.map((r) => csvLine(r, options)).join('');
}

/** The table as CSV text chunks, one per batch (for `Readable.from`: constant memory, backpressure kept). */
export async function* csvChunks(table: StreamedTable, options: CsvOptions): AsyncGenerator<string> {
  yield CSV_BOM + csvLine(table.headers, options);
  for await (const batch of table.batches) {
    let chunk = '';
    for (const r of batch) chunk += csvLine(r, options);
    if (chunk) yield chunk;
  }
}

const widthOf = (header: string) => Math.min(40, Math.max(10, header.length + 2));
const sheetTitle = (name: string) => name.replace(/[*?:\\/[\]]/g, ' ').slice(0, 31) || 'Sheet1';
/** exceljs has no `undefined` cell; an invalid date is left empty. */
const xlsxCell = (c: Cell) => (c === undefined || (c instanceof Date && Number.isNaN(c.getTime())) ? null : c);

/** The whole table as an XLSX file in memory (small exports). */
export async function tableToXlsx(table: Table, sheetName: string): Promise<Buffer> {
  const book = new (ExcelJS().Workbook)();
  book.creator = 'Lamella';
  const sheet = book.addWorksheet(sheetTitle(sheetName), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = table.headers.map((h) => ({ width: widthOf(h) }));
  sheet.addRow(table.headers).font = { bold: true };
  for (const r of table.rows) sheet.addRow(r.map(xlsxCell));
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** A stream of exceljs' zip (readable-stream 2: no `writableNeedDrain`, its state says it). */
type ZipInput = Writable & { _writableState?: { needDrain?: boolean } };
/** The streams exceljs' sheet writer pipes into (its internal StreamBuf keeps them in `pipes`). */
const sheetPipes = (sheet: ExcelJSModule.Worksheet): ZipInput[] => (sheet as unknown as { stream?: { pipes?: ZipInput[] } }).stream?.pipes ?? [];
const needsDrain = (w: ZipInput) => w.writableNeedDrain || w._writableState?.needDrain === true;

/**
 * The table as an XLSX file written while the batches are read: each row is committed (flushed into the zip) as
 * it is added, and the next batch waits while the answer's buffer is full, so memory stays flat.
 */
export function xlsxStream(table: StreamedTable, sheetName: string): Readable {
  const out = new PassThrough();
  const book = new (ExcelJS().stream.xlsx.WorkbookWriter)({ stream: out, useStyles: true, useSharedStrings: false });
  book.creator = 'Lamella';
  void (async () => {
    const sheet = book.addWorksheet(sheetTitle(sheetName), { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = table.headers.map((h) => ({ width: widthOf(h) }));
    const head = sheet.addRow(table.headers);
    head.font = { bold: true };
    head.commit();
    for await (const batch of table.batches) {
      for (const r of batch) sheet.addRow(r.map(xlsxCell)).commit();
      if (out.destroyed) return;
      // exceljs writes the sheet into the zip's deflate stream without waiting: wait for it, then for the answer.
      for (const pipe of sheetPipes(sheet)) if (needsDrain(pipe)) await once(pipe, 'drain');
      if (out.writableNeedDrain) await once(out, 'drain');
    }
    sheet.commit();
    await book.commit();
  })().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}

/** The answer headers of a download named `<name>.<format>`. */
export function downloadHeaders(format: SpreadsheetFormat, name: string): Record<string, string> {
  return {
    'content-type': format === 'xlsx' ? XLSX_TYPE : CSV_TYPE,
    'content-disposition': `attachment; filename="${name}.${format}"`,
  };
}

/** A streamed table as the body of a download in `format` (CSV text chunks or an XLSX stream). */
export function streamedBody(table: StreamedTable, format: SpreadsheetFormat, options: CsvOptions, sheetName: string): Readable {
  return format === 'xlsx' ? xlsxStream(table, sheetName) : Readable.from(csvChunks(table, options));
}
