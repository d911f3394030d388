import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatResultValue, jobsApi, projectsApi, type Job } from '@lamella/contracts';
import { grainImage } from '../../../packages/analysis/src/synth/index.ts';
import { factories, type TestUser } from './factories.ts';
import { startTestApp, waitFor, type TestApp } from './test-app.ts';

/**
 * Job and specimen reports (issue 14) on real grain-size jobs run by a real launcher: the PDF read back with
 * poppler's pdftotext, the XLSX with exceljs; access (404 for others), format errors, the reader's language.
 */
let t: TestApp;
let ada: TestUser;
let stranger: TestUser;
let jobs: Job[];
let projectId: string;
const out = join(import.meta.dirname, '../../../test-results/reports');

async function upload(user: TestUser, seed: number): Promise<string> {
  const s = await grainImage({
    width: 480,
    height: 360,
    grainPx: 36,
    pixelSizeUm: 0.5,
    noise: 4,
    seed,
    scaleBar: { value: 50, unit: 'µm', lengthPx: 100, style: 'sem' },
  });
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(s.png)], { type: 'image/png' }), `field-${seed}.png`);
  const res = await user.client.request('POST', '/api/images', { form });
  expect(res.status).toBe(200);
  return res.body[0].id;
}

const get = (user: TestUser, path: string) => user.client.request('GET', path);
const pdfText = (name: string, pdf: Buffer) => {
  mkdirSync(out, { recursive: true });
  const file = join(out, name);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
};
const workbook = async (data: Buffer) => {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(data as unknown as ArrayBuffer);
  return wb;
};
const rowsOf = (ws: ExcelJS.Worksheet) => {
  const rows: unknown[][] = [];
  ws.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
  return rows;
};

beforeAll(async () => {
  t = await startTestApp({ launchers: 1 });
  await t.launchersReady();
  const f = factories(t);
  ada = await f.user({ fields: { company: 'Metals & Alloys GmbH' } });
  stranger = await f.user();
  const logo = await sharp({ create: { width: 240, height: 80, channels: 3, background: '#1c7ed6' } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(logo)], { type: 'image/png' }), 'logo.png');
  expect((await ada.client.request('PUT', '/api/users/me/logo', { form })).status).toBe(200);
  const imageIds = [await upload(ada, 3), await upload(ada, 5), await upload(ada, 8)];
  const project = await ada.client.ok(projectsApi.create, { body: { name: 'Specimen 4711 / Ti-6Al-4V', description: 'Three fields' } });
  projectId = project.id;
  await ada.client.ok(projectsApi.addImages, { params: { id: projectId }, body: { imageIds } });
  const created = await ada.client.ok(jobsApi.create, { body: { imageIds, modelIds: [await f.modelId('grain-size')], projectId } });
  jobs = await Promise.all(
    created.map((j) =>
      waitFor(async () => {
        const job = await ada.client.ok(jobsApi.get, { params: { id: j.id } });
        return job.status === 'FINISHED' || job.status === 'FAILED' ? job : null;
      }, 450_000),
    ),
  );
  expect(jobs.map((j) => j.status)).toEqual(['FINISHED', 'FINISHED', 'FINISHED']);
}, 600_000);
afterAll(() => t?.close());

describe('job report', () => {
  it('PDF: A4 with the G values, the method and standard, the calibration and its source, the job id', async () => {
    const job = jobs[0];
    const m = job.result!.measurements as Record<string, number>;
    const res = await get(ada, `/api/jobs/${job.id}/report?format=pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="report-field-3-[0-9a-f]{8}\.pdf"$/);
    expect(res.buffer.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText('job-en.pdf', res.buffer);
    expect(text).toContain('Analysis report');
    expect(text).toContain('Metals & Alloys GmbH');
    expect(text).toContain(m.astmGPlanimetric.toFixed(2));
    expect(text).toContain(m.astmGIntercept.toFixed(2));
    expect(text).toContain('ASTM E112-13 / ISO 643, planimetric (Jeffries)');
    expect(text).toContain('ASTM E112-13 / ISO 643, lineal intercept (Heyn)');
    expect(text).toContain(`${m.pixelSizeUm.toPrecision(4)} µm/px`);
    expect(text).toContain('from the scale bar in the image');
    expect(text).toContain(job.id);
    // which quantity the field statistics of a specimen are computed on
    expect(text).toContain('computed on N_A and L̄ of each field, not on G');
    expect(text).toContain('20261209');
    // the result's charts are there with their titles, and A4 pages
    expect(text).toContain('Grain area distribution');
    // each picture captioned by what it shows, as on the results page (not "Overlay of the result" three times)
    expect(text).toContain('Grain boundaries');
    expect(text).toContain('E112 test lines and counted intersections');
    expect(text).toContain('Scale bar found (bar red, label blue)');
    expect(text).not.toContain('Overlay of the result');
    // the result's table reads as on the results page: the model's 4 decimals shown as the page's formatter shows them
    const table = job.result!.results.find((i) => i.type === 'data-table')!;
    const rows = table.type === 'data-table' ? table.rows : [];
    const area = rows.find((r) => r.label === 'Mean grain area')!;
    const intercept = rows.find((r) => r.label === 'Mean lineal intercept')!;
    for (const r of [area, intercept]) {
      expect(r.kind).toBe('number');
      const page = formatResultValue(r.value, r.kind, 'en');
      expect(page).toMatch(/^[\d,]+\.\d\d$/);
      expect(text).toMatch(new RegExp(`${r.label}\\s+${page.replace('.', '\\.')}\\s+${r.unit}`));
      // the stored value's decimals (up to 4) are not printed
      if (!Number.isInteger((r.value as number) * 100)) expect(text).not.toContain(String(r.value));
    }
    expect(text).toMatch(
      new RegExp(`ASTM grain size G \\(planimetric\\)\\s+${formatResultValue(m.astmGPlanimetric, 'g', 'en').replace('.', '\\.')}`),
    );
    const info = execFileSync('pdfinfo', [join(out, 'job-en.pdf')], { encoding: 'utf8' });
    expect(info).toMatch(/Page size:\s+595\.2\d* x 841\.8\d* pts \(A4\)/);
  }, 60_000);

  it('XLSX: a Summary sheet first, then one sheet per table, the same numbers as numbers', async () => {
    const job = jobs[0];
    const m = job.result!.measurements as Record<string, number>;
    const res = await get(ada, `/api/jobs/${job.id}/report?format=xlsx`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers.get('content-disposition')).toMatch(/filename="report-field-3-[0-9a-f]{8}\.xlsx"/);
    const wb = await workbook(res.buffer);
    const names = wb.worksheets.map((w) => w.name);
    expect(names[0]).toBe('Summary');
    const summary = rowsOf(wb.worksheets[0]);
    expect(summary).toContainEqual(['Job ID', job.id]);
    expect(summary).toContainEqual(['Calibration', m.pixelSizeUm]);
    expect(summary).toContainEqual([
      'Method and standard',
      'ASTM E112-13 / ISO 643, planimetric (Jeffries)\nASTM E112-13 / ISO 643, lineal intercept (Heyn)',
    ]);
    const measurements = rowsOf(wb.getWorksheet('Measurements')!);
    // readable names with units, values rounded as in the tables (issue 24 item 6)
    expect(measurements[0]).toEqual(['Quantity', 'Value']);
    expect(measurements).toContainEqual(['ASTM G (planimetric)', Math.round((m.astmGPlanimetric + Number.EPSILON) * 100) / 100]);
    expect(measurements).toContainEqual(['Mean intercept length (µm)', Math.round((m.meanInterceptUm + Number.EPSILON) * 100) / 100]);
    // the result's first table: G as a number, rounded as the model wrote it
    const table = rowsOf(wb.worksheets[2]);
    expect(table[0]).toEqual(['Quantity', 'Value', 'Unit']);
    const g = table.find((r) => r[0] === 'ASTM grain size G (planimetric)');
    expect(typeof g?.[1]).toBe('number');
    expect(g?.[1]).toBeCloseTo(m.astmGPlanimetric, 2);
    // histograms: bin edges and counts as numbers, the unit in the header
    const hist = wb.worksheets.find((w) => w.name.startsWith('Grain area distribution'))!;
    const [head, first] = rowsOf(hist);
    expect(head).toEqual(['Grain area from (µm²)', 'Grain area to (µm²)', 'Count']);
    expect(first.every((v) => typeof v === 'number')).toBe(true);
  }, 60_000);

  it('another user gets 404; a bad or missing format is a 400 naming the field, before anything is read', async () => {
    const job = jobs[0];
    expect((await get(stranger, `/api/jobs/${job.id}/report?format=pdf`)).status).toBe(404);
    expect((await get(stranger, `/api/projects/${projectId}/report?format=pdf`)).status).toBe(404);
    const bad = await get(ada, `/api/jobs/${job.id}/report?format=docx`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'format', key: 'reports.errors.format', message: 'The format must be pdf or xlsx.' }],
    });
    expect((await get(ada, `/api/projects/${projectId}/report`)).body.details[0].field).toBe('format');
    expect((await t.client().request('GET', `/api/jobs/${job.id}/report?format=pdf`)).status).toBe(401);
  });
});

describe('specimen report', () => {
  const gOf = (key: string) => jobs.map((j) => (j.result!.measurements as Record<string, number>)[key]);
  const hand = (xs: number[]) => {
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (xs.length - 1));
    return { mean, sd, ci: (4.303 * sd) / Math.sqrt(3) };
  };

  it('XLSX: each field with its job, version, calibration, N_A, L̄ and G, then n, mean, s, 95 % CI (t = 4.303) and %RA on N_A and L̄', async () => {
    const res = await get(ada, `/api/projects/${projectId}/report?format=xlsx`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="specimen-report-Specimen-4711-Ti-6Al-4V.xlsx"');
    const wb = await workbook(res.buffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Summary', 'Grain size (ASTM E112)', 'Field statistics']);
    const fields = rowsOf(wb.worksheets[1]);
    expect(fields[0].slice(0, 12)).toEqual([
      'Field',
      'Image',
      'Job ID',
      'Model version',
      'Calibration (µm/px)',
      'Source of the calibration',
      'Mask',
      'Chosen',
      'Grains per mm² (1/mm²)',
      'Mean lineal intercept (µm)',
      'ASTM grain size G (planimetric)',
      'ASTM grain size G (intercept)',
    ]);
    expect(fields.slice(1).map((r) => r[1])).toEqual(['field-3.png', 'field-5.png', 'field-8.png']);
    expect(fields.slice(1).map((r) => r[2])).toEqual(jobs.map((j) => j.id));
    expect(fields.slice(1).map((r) => r[7])).toEqual(['newest', 'newest', 'newest']);
    expect(fields.slice(1).map((r) => r[8])).toEqual(gOf('grainsPerMm2'));
    expect(fields.slice(1).map((r) => r[10])).toEqual(gOf('astmGPlanimetric'));
    const stats = rowsOf(wb.worksheets[2]);
    // E112 §16: on the fields' N_A, G only from the mean N_A
    const planimetric = stats.find((r) => r[2] === 'Grains per mm² (1/mm²)')!;
    const h = hand(gOf('grainsPerMm2'));
    expect(planimetric[3]).toBe(3);
    expect(planimetric[4]).toBeCloseTo(h.mean, 8);
    expect(planimetric[5]).toBeCloseTo(h.sd, 8);
    expect(planimetric[6]).toBeCloseTo(h.ci, 8);
    expect(planimetric[7]).toBeCloseTo((100 * h.ci) / h.mean, 8);
    expect(planimetric[9]).toBeCloseTo(3.321928 * Math.log10(h.mean) - 2.954, 8);
    const intercept = stats.find((r) => r[2] === 'Mean lineal intercept (µm)')!;
    expect(intercept[3]).toBe(3);
    expect(intercept[9]).toBeCloseTo(-6.643856 * Math.log10(hand(gOf('meanInterceptUm')).mean / 1000) - 3.288, 8);
  }, 60_000);

  it('PDF: the fields’ jobs, the statistics on N_A and L̄ with G of the mean, the E112 note and the %RA flag', async () => {
    const res = await get(ada, `/api/projects/${projectId}/report?format=pdf`);
    expect(res.status).toBe(200);
    const text = pdfText('specimen-en.pdf', res.buffer);
    expect(text).toContain('Specimen report');
    expect(text).toContain('Specimen 4711 / Ti-6Al-4V');
    for (const f of ['field-3.png', 'field-5.png', 'field-8.png']) expect(text).toContain(f);
    for (const j of jobs) expect(text).toContain(j.id.slice(0, 8));
    expect(text).toContain('Field statistics');
    expect(text).toContain('G of the mean');
    const h = hand(gOf('grainsPerMm2'));
    expect(text).toContain((3.321928 * Math.log10(h.mean) - 2.954).toFixed(2));
    expect(text).toContain("ASTM E112-13 §16, planimetric: mean, s, 95 % CI and %RA of the fields' N_A");
    expect(text).toContain('ASTM E112 §16: the field values of G are not averaged');
    expect(text).toContain('suggest at least 5 fields');
    const ra = (100 * h.ci) / h.mean;
    if (ra > 10) expect(text).toContain('Measure more fields');
  }, 60_000);
});

describe('in the reader’s language', () => {
  it('a German user gets a German report with decimal commas', async () => {
    expect((await ada.client.request('PATCH', '/api/users/me', { json: { language: 'de' } })).status).toBe(200);
    const job = jobs[1];
    const m = job.result!.measurements as Record<string, number>;
    const res = await get(ada, `/api/jobs/${job.id}/report?format=pdf`);
    expect(res.headers.get('content-disposition')).toMatch(/filename="bericht-field-5-/);
    const text = pdfText('job-de.pdf', res.buffer);
    expect(text).toContain('Auswertungsbericht');
    expect(text).toContain('ASTM E112-13 / ISO 643, Flächenverfahren (Jeffries)');
    expect(text).toContain('aus dem Maßstabsbalken im Bild');
    expect(text).toContain(m.astmGPlanimetric.toFixed(2).replace('.', ','));
    expect(text).toContain(`${m.pixelSizeUm.toPrecision(4).replace('.', ',')} µm/px`);
    expect(text).toContain('Seite 1 von');
    const specimen = await get(ada, `/api/projects/${projectId}/report?format=xlsx`);
    const wb = await workbook(specimen.buffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Zusammenfassung', 'Korngröße (ASTM E112)', 'Feldstatistik']);
    pdfText('specimen-de.pdf', (await get(ada, `/api/projects/${projectId}/report?format=pdf`)).buffer);
  }, 60_000);

  it('a job run in English reads entirely in German: tables, method text, chart titles and axes, sheet names, readable rounded measurements (issue 24 item 6)', async () => {
    // ada's language is German since the test above; her jobs ran while it was English
    const job = jobs[0];
    const text = pdfText('job-de-all.pdf', (await get(ada, `/api/jobs/${job.id}/report?format=pdf`)).buffer);
    for (const german of [
      'Mittlere Sehnenlänge',
      'Gezählte Körner (Jeffries)',
      'Verfahren: ASTM E112-13',
      'Flächenverfahren (Jeffries): Körner im Feld',
      'Verteilung der Kornfläche',
      'Kornfläche (µm²)',
      'Anzahl',
    ])
      expect(text, german).toContain(german);
    for (const english of ['Mean lineal intercept', 'Grains counted', 'Grain area distribution', 'Count', 'intersections', 'test lines', 'Method:'])
      expect(text, english).not.toContain(english);
    expect(text).not.toMatch(/P = \d+\.\d/); // a decimal comma in the method text
    const wb = await workbook((await get(ada, `/api/jobs/${job.id}/report?format=xlsx`)).buffer);
    const names = wb.worksheets.map((w) => w.name);
    expect(names).toContain('Zusammenfassung');
    expect(names).toContain('Messwerte');
    expect(names).toContain('Verteilung der Kornfläche');
    for (const n of names) expect(n, n).not.toMatch(/Summary|Measurements|distribution|Table|Chart/);
    const rows = rowsOf(wb.getWorksheet('Messwerte')!);
    expect(rows[0]).toEqual(['Größe', 'Wert']);
    const labels = rows.slice(1).map((r) => String(r[0]));
    expect(labels).toContain('ASTM G (Flächenverfahren)');
    expect(
      labels.every((l) => !/^[a-z]+[A-Z]\w*$/.test(l)),
      labels.join(', '),
    ).toBe(true); // no raw keys like astmGIntercept
    for (const r of rows.slice(1))
      if (typeof r[1] === 'number') expect((String(r[1]).split('.')[1] ?? '').length, String(r[0])).toBeLessThanOrEqual(4);
  }, 60_000);
});
