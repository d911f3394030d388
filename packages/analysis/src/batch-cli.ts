/**
 * `npx lamella analyse <folder|files…> --model grain-size [options]` (issue 27 item 3): analyses every image on the
 * embedded engine (this package), or on a Lamella server with --server and --key, with a progress bar on stderr,
 * and writes one row per image plus per-field statistics (n, mean, standard deviation, min, max of each numeric
 * measurement) as CSV or XLSX.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { models, runModel } from './registry.js';
import { terminateOcr } from './ocr.js';
import type { Measurements, ModelVersion } from './types.js';

const IMAGE = /\.(png|jpe?g|tiff?)$/i;

export const HELP = `usage: lamella analyse <folder | image files…> --model <name> [options]

Analyses every image (PNG, JPEG, TIFF; a folder: its images, not its subfolders) and writes one row per image
and the per-field statistics (n, mean, standard deviation, min, max of each numeric measurement).

  --model <name>           ${models.map((m) => m.name).join(', ')} (required)
  --calibration <µm/px>    pixel size of every image in micrometres per pixel (else metadata, scale bar, settings)
  --version <v>            model version (default: the model's current one)
  --settings <file.json>   model settings (local runs)
  --lang <en|de>           language of texts (default en)
  --out <file.csv|.xlsx>   where the table goes (default lamella-results.csv); .xlsx: rows and a Statistics sheet
  --server <URL>           run on a Lamella server instead of the embedded engine
  --key <lam_…>            its access key (READ_WRITE), or the LAMELLA_KEY environment variable
  --concurrency <n>        images at once on the embedded engine (default 1)
  -h, --help               this text

Exit status: 0 when every image was analysed, 1 when any failed (its row says why), 2 for a usage error.
Example: npx lamella analyse fields/ --model grain-size --calibration 0.25 --out fields.xlsx`;

export interface Row {
  image: string;
  status: 'FINISHED' | 'FAILED';
  error: string;
  measurements: Measurements;
}

class UsageError extends Error {}

export function parseArgs(argv: string[]): { files: string[]; opt: Record<string, string> } {
  const opt: Record<string, string> = {};
  const pos: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h' || a === '--help') opt.help = 'true';
    else if (a.startsWith('--')) {
      const [k, v] = a.includes('=') ? [a.slice(2, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a.slice(2), argv[++i]];
      if (v === undefined) throw new UsageError(`--${k} needs a value`);
      opt[k] = v;
    } else pos.push(a);
  }
  const files = pos.flatMap((p) => {
    if (!statSync(p, { throwIfNoEntry: false })) throw new UsageError(`${p}: no such file or folder`);
    if (statSync(p).isDirectory())
      return readdirSync(p)
        .filter((f) => IMAGE.test(f))
        .sort()
        .map((f) => path.join(p, f));
    return [p];
  });
  return { files, opt };
}

/** n, mean, sample standard deviation, min and max of each numeric measurement over the finished rows. */
export function statistics(rows: Row[]): Array<{ name: string; n: number; mean: number; std: number; min: number; max: number }> {
  const names = [...new Set(rows.flatMap((r) => Object.keys(r.measurements)))];
  return names.flatMap((name) => {
    const v = rows.map((r) => r.measurements[name]).filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
    if (!v.length) return [];
    const mean = v.reduce((a, b) => a + b, 0) / v.length;
    const std = v.length > 1 ? Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / (v.length - 1)) : 0;
    return [{ name, n: v.length, mean, std, min: Math.min(...v), max: Math.max(...v) }];
  });
}

const csvCell = (v: unknown) => {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\n\r]/.test(s) || /^[=+\-@]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export function toCsv(rows: Row[]): string {
  const names = [...new Set(rows.flatMap((r) => Object.keys(r.measurements)))];
  const lines = [['image', 'status', 'error', ...names].map(csvCell).join(',')];
  for (const r of rows) lines.push([r.image, r.status, r.error, ...names.map((n) => r.measurements[n])].map(csvCell).join(','));
  lines.push('', ['statistic', ...['n', 'mean', 'std', 'min', 'max']].join(','));
  for (const s of statistics(rows)) lines.push([s.name, s.n, s.mean, s.std, s.min, s.max].map(csvCell).join(','));
  return lines.join('\r\n') + '\r\n';
}

async function toXlsx(rows: Row[]): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  const names = [...new Set(rows.flatMap((r) => Object.keys(r.measurements)))];
  const sheet = book.addWorksheet('Images');
  sheet.addRow(['image', 'status', 'error', ...names]).font = { bold: true };
  for (const r of rows) sheet.addRow([r.image, r.status, r.error, ...names.map((n) => r.measurements[n] ?? null)]);
  const stats = book.addWorksheet('Statistics');
  stats.addRow(['measurement', 'n', 'mean', 'std', 'min', 'max']).font = { bold: true };
  for (const s of statistics(rows)) stats.addRow([s.name, s.n, s.mean, s.std, s.min, s.max]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

function progress(done: number, total: number, label: string): void {
  const width = 30;
  const filled = total ? Math.round((done / total) * width) : width;
  const line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} ${label}`.slice(0, 100);
  process.stderr.write(process.stderr.isTTY ? `\r${line.padEnd(100)}` : `${line}\n`);
}

async function analyseLocally(files: string[], opt: Record<string, string>, tick: (label: string) => void): Promise<Row[]> {
  const settings = opt.settings ? JSON.parse(readFileSync(opt.settings, 'utf8')) : {};
  const rows: Row[] = new Array(files.length);
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const i = next++;
      const image = path.basename(files[i]);
      try {
        const r = await runModel(opt.model, opt.version as ModelVersion | undefined, readFileSync(files[i]), settings, {
          lang: opt.lang === 'de' ? 'de' : 'en',
          ...(opt.calibration ? { pixelSizeUm: Number(opt.calibration) } : {}),
        });
        rows[i] = { image, status: 'FINISHED', error: '', measurements: r.measurements };
      } catch (e) {
        rows[i] = { image, status: 'FAILED', error: e instanceof Error ? e.message : String(e), measurements: {} };
      }
      tick(image);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Number(opt.concurrency) || 1) }, worker));
  return rows;
}

/** One call to the server, retried after Retry-After on 429 and 503. */
async function call(server: string, key: string, method: string, route: string, body?: FormData | object): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${server.replace(/\/$/, '')}/api${route}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}) },
      body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
    });
    if ((res.status === 429 || res.status === 503) && attempt < 5) {
      const wait = Number(res.headers.get('retry-after')) || 2 ** attempt;
      await new Promise((r) => setTimeout(r, Math.min(wait, 60) * 1000));
      continue;
    }
    const answer = res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text();
    if (!res.ok)
      throw new Error(`${res.status} ${(answer as { code?: string }).code ?? ''} ${(answer as { message?: string }).message ?? answer}`.trim());
    return answer;
  }
}

async function analyseOnServer(files: string[], opt: Record<string, string>, key: string, tick: (label: string) => void): Promise<Row[]> {
  const server = opt.server;
  const available = (await call(server, key, 'GET', '/settings/available-models')) as Array<{ id: string; name: string; displayName: string }>;
  const model = available.find((m) => [m.id, m.name, m.name.replace(/_/g, '-'), m.displayName].includes(opt.model));
  if (!model) throw new UsageError(`the server offers no model "${opt.model}" to this key (${available.map((m) => m.name).join(', ')})`);
  const rows: Row[] = [];
  const jobs: Array<{ image: string; id: string }> = [];
  for (const file of files) {
    const form = new FormData();
    if (opt.calibration) form.append('pixelSizeUm', opt.calibration);
    form.append('files', new Blob([new Uint8Array(readFileSync(file))]), path.basename(file));
    const [image] = (await call(server, key, 'POST', '/images', form)) as Array<{ id: string }>;
    const [job] = (await call(server, key, 'POST', '/jobs', { imageIds: [image.id], modelIds: [model.id] })) as Array<{ id: string }>;
    jobs.push({ image: path.basename(file), id: job.id });
  }
  for (const j of jobs) {
    for (;;) {
      const job = (await call(server, key, 'GET', `/jobs/${j.id}`)) as {
        status: string;
        failureReason?: string | null;
        result?: { measurements?: Measurements } | null;
      };
      if (['FINISHED', 'CACHED', 'FAILED'].includes(job.status)) {
        const failed = job.status === 'FAILED';
        rows.push({
          image: j.image,
          status: failed ? 'FAILED' : 'FINISHED',
          error: failed ? (job.failureReason ?? 'failed') : '',
          measurements: job.result?.measurements ?? {},
        });
        tick(j.image);
        break;
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  return rows;
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '-h' || command === '--help' || command === 'help') {
    process.stdout.write(HELP + '\n');
    return command ? 0 : 2;
  }
  if (command !== 'analyse' && command !== 'analyze') throw new UsageError(`unknown command "${command}" (lamella analyse --help)`);
  const { files, opt } = parseArgs(rest);
  if (opt.help) {
    process.stdout.write(HELP + '\n');
    return 0;
  }
  if (!opt.model) throw new UsageError('--model is required');
  if (!opt.server && !models.some((m) => m.name === opt.model))
    throw new UsageError(`unknown model "${opt.model}" (${models.map((m) => m.name).join(', ')})`);
  if (opt.calibration !== undefined && !(Number(opt.calibration) > 0)) throw new UsageError('--calibration must be a number of µm per pixel > 0');
  if (!files.length) throw new UsageError('no images given (PNG, JPEG or TIFF files, or a folder of them)');
  const out = opt.out ?? 'lamella-results.csv';
  let done = 0;
  progress(0, files.length, '');
  const tick = (label: string) => progress(++done, files.length, label);
  const key = opt.key ?? process.env.LAMELLA_KEY ?? '';
  if (opt.server && !key) throw new UsageError('--server needs --key or LAMELLA_KEY');
  const rows = opt.server ? await analyseOnServer(files, opt, key, tick) : await analyseLocally(files, opt, tick);
  if (process.stderr.isTTY) process.stderr.write('\n');
  writeFileSync(out, out.endsWith('.xlsx') ? await toXlsx(rows) : toCsv(rows));
  const failed = rows.filter((r) => r.status === 'FAILED').length;
  process.stderr.write(`${rows.length - failed} analysed, ${failed} failed: ${out}\n`);
  return failed ? 1 : 0;
}

if (process.argv[1] && /batch-cli\.ts$/.test(process.argv[1])) {
  main(process.argv.slice(2))
    .catch((e: unknown) => {
      process.stderr.write(`lamella: ${e instanceof Error ? e.message : String(e)}\n`);
      return e instanceof UsageError ? 2 : 1;
    })
    .then(async (code) => {
      await terminateOcr();
      process.exit(code);
    });
}
