import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { jobsApi, type DataTableItem, type Job } from '@lamella/contracts';
import { results } from '../src/platform/db/schema/index.ts';
import { computedJob, modelIdOf, startTestApp, uploadPng, type TestApp } from './test-app.ts';
import { poresImage } from './synthetic.ts';

/**
 * Issue 14 items 3–5 over real HTTP and a real launcher: a job computed in English reads in German for a German
 * reader (stored items unchanged), and its export in German is a readable CSV (`;`, decimal commas, headers with
 * units) and an XLSX whose cells are numbers.
 */
let t: TestApp;
let porosity: string;
beforeAll(async () => {
  t = await startTestApp({ launchers: 1 });
  await t.launchersReady();
  porosity = await modelIdOf(t, 'porosity');
}, 180_000);
afterAll(() => t?.close());

type Client = ReturnType<TestApp['client']>;

async function poresJob(client: Client, count: number): Promise<Job> {
  const { png } = await poresImage({ width: 800, height: 600, count, r: 14 });
  // the user's own pixel size (0.2345 µm/px): lengths are given
  const up = await uploadPng(client, png, { name: 'pores.png', pixelSizeUm: 0.2345 });
  expect(up.status).toBe(200);
  return computedJob<Job>(client, up.body[0].id, porosity, 60_000);
}

const tableOf = (job: Job) => job.result!.results.find((i): i is DataTableItem => i.type === 'data-table')!;

describe('results in the reader’s language', () => {
  it('a job computed in English reads in German for a German user; the stored result stays English', async () => {
    const u = await t.signupVerified();
    const en = await poresJob(u.client, 24);
    expect(en.status).toBe('FINISHED');
    expect(tableOf(en).rows[0].label).toBe('Area fraction (porosity)');
    expect(en.model.displayName).toBe('Porosity and phase fraction');

    expect((await u.client.patch('/api/users/me', { language: 'de' })).status).toBe(200);
    const de = (await u.client.call(jobsApi.get, { params: { id: en.id } })).body as Job;
    const rows = tableOf(de).rows;
    expect(rows[0]).toMatchObject({
      label: 'Flächenanteil (Porosität)',
      labelTooltip: 'Fläche der dunklen Phase / analysierte Fläche (ASTM E562/E1245)',
    });
    expect(rows.find((r) => r.label === 'Anzahl Poren')).toMatchObject({ kind: 'count' });
    expect(rows.find((r) => r.label === 'Pixelgröße')).toMatchObject({ kind: 'pixelSize', unit: 'µm/px' });
    expect(de.result!.results.find((i) => i.type === 'histogram')).toMatchObject({ label: 'Porengrößenverteilung', yLabel: 'Anzahl' });
    expect(de.model.displayName).toBe('Porosität und Phasenanteil');
    // the list (its rows carry the result's brief, no items: issue 30) names the model in German; the result call reads German too
    const list = (await u.client.call(jobsApi.list, { query: {} })).body;
    expect(list[0].model.displayName).toBe('Porosität und Phasenanteil');
    expect(list[0].result).not.toHaveProperty('results');
    const result = (await u.client.call(jobsApi.result, { params: { resultId: en.resultId! } })).body;
    expect((result.results.find((i) => i.type === 'data-table') as DataTableItem).rows[0].label).toBe('Flächenanteil (Porosität)');
    // the cookie of the page's language switch wins over the profile
    u.client.cookies.set('lng', 'en');
    const viaCookie = await u.client.get(`/api/jobs/${en.id}`);
    u.client.cookies.delete('lng');
    expect(tableOf(viaCookie.body).rows[0].label).toBe('Area fraction (porosity)');
    // nothing was rewritten in the database
    const [stored] = await t.db.select().from(results).where(eq(results.id, en.resultId!));
    expect(JSON.stringify(stored.items)).toContain('Area fraction (porosity)');
    expect(JSON.stringify(stored.items)).not.toContain('Flächenanteil');

    // CSV in German: `;` between fields, decimal commas, readable headers with units, counts as integers
    const csv = await u.client.call(jobsApi.export, { query: { jobsIds: [en.id] } });
    expect(csv.status).toBe(200);
    const [header, line] = String(csv.body).replace('\uFEFF', '').trim().split('\r\n');
    const headers = header.split(';');
    const cells = line.split(';');
    const cell = (h: string) => cells[headers.indexOf(h)];
    expect(headers.slice(0, 6)).toEqual(['Auftrag', 'Bild', 'Modell', 'Modellversion', 'Status', 'Erstellt']);
    expect(headers).toContain('Flächenanteil (%)');
    expect(headers).toContain('Pixelgröße (µm/px)');
    expect(headers).toContain('Mittlerer Porendurchmesser (µm)');
    expect(cell('Modell')).toBe('Porosität und Phasenanteil');
    expect(cell('Status')).toBe('Fertig');
    const m = stored.measurements as Record<string, number>;
    expect(cell('Flächenanteil (%)')).toBe(String(Math.round(m.areaFractionPercent * 100) / 100).replace('.', ','));
    expect(cell('Flächenanteil (%)')).toMatch(/^\d+,\d{1,2}$/);
    expect(cell('Anzahl Poren')).toBe(String(m.poreCount));
    expect(cell('Mittlerer Porendurchmesser (µm)')).toMatch(/^\d+(,\d{1,2})?$/);
    expect(cell('Pixelgröße (µm/px)')).toBe('0,2345');

    // XLSX: the same table, numbers as numbers
    const xlsx = await u.client.request('GET', `/api/jobs/export?jobsIds=${en.id}&format=xlsx`);
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-type')).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(new Uint8Array(xlsx.buffer).buffer);
    const sheet = book.worksheets[0];
    expect(sheet.name).toBe('Ergebnisse');
    const xHeaders = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(xHeaders).toEqual(headers);
    const xRow = (sheet.getRow(2).values as unknown[]).slice(1);
    const xCell = (h: string) => xRow[xHeaders.indexOf(h)];
    expect(typeof xCell('Flächenanteil (%)')).toBe('number');
    expect(xCell('Flächenanteil (%)')).toBeCloseTo(m.areaFractionPercent, 2);
    expect(xCell('Anzahl Poren')).toBe(m.poreCount);
    expect(xCell('Erstellt')).toBeInstanceOf(Date);
  }, 120_000);

  it('an English reader with the dot separator gets `,` fields and decimal points; a bad format is a 400', async () => {
    const u = await t.signupVerified();
    expect((await u.client.patch('/api/users/me', { language: 'en', csvDecimalSeparator: 'dot' })).status).toBe(200);
    const job = await poresJob(u.client, 20);
    const csv = await u.client.call(jobsApi.export, { query: { jobsIds: [job.id], format: 'csv' } });
    const [header, line] = String(csv.body).replace('\uFEFF', '').trim().split('\r\n');
    expect(header.split(',')).toContain('Area fraction (%)');
    expect(header.split(',')).toContain('Pixel size (µm/px)');
    const headers = header.split(',');
    expect(line.split(',')[headers.indexOf('Area fraction (%)')]).toMatch(/^\d+(\.\d{1,2})?$/);
    const bad = await u.client.request('GET', `/api/jobs/export?jobsIds=${job.id}&format=pdf`);
    expect(bad.status).toBe(400);
  }, 120_000);
});
