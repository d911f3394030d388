import type { Db } from '../../platform/db/client.ts';
import { notFound } from '../../platform/http/errors.ts';
import { CSV_BOM, csvLine, type CsvOptions } from '../../platform/http/csv.ts';
import * as repo from './repo.ts';

/**
 * One row per job: job, image, model, version, status, date, then every measurement key found in the jobs.
 * Written with platform/http/csv.ts: text cells that a spreadsheet would run as a formula (an image named
 * `=HYPERLINK(…)`) get a leading apostrophe; numbers stay numbers, with the user's decimal separator
 * (comma → fields separated by ';', as spreadsheets expect).
 */
export async function jobsCsv(db: Db, user: { id: string; csvDecimalSeparator: string | null }, ids: string[]): Promise<string> {
  const rows = await repo.exportRows(db, user.id, ids);
  if (rows.length !== new Set(ids).size) throw notFound('job');
  const options: CsvOptions = user.csvDecimalSeparator !== 'dot' ? { separator: ';', decimal: ',' } : { separator: ',', decimal: '.' };
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r.measurements ?? {})))].sort();
  const header = csvLine(['jobId', 'image', 'model', 'modelVersion', 'status', 'createdAt', ...keys], options);
  const lines = rows.map((r) => {
    const m = r.measurements ?? {};
    return csvLine(
      [r.job.id, r.image, r.model, r.job.modelVersion, r.job.status, r.job.createdAt, ...keys.map((k) => (Object.hasOwn(m, k) ? m[k] : null))],
      options,
    );
  });
  return CSV_BOM + header + lines.join('');
}
