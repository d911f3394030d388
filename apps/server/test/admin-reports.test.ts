/**
 * Back-office reports in the reader's language (issue 14 item 3): the jobs, masks, users and image metadata
 * reports over real HTTP on the real database, read by an English staff member whose profile chose the dot and
 * by a German one with the default comma: readable headers with units, values rounded as the tables (2 decimals,
 * counts as integers), the separator (`;` with the comma), yes/no in words, the UTF-8 byte order mark, and the
 * XLSX variant read back with exceljs (numbers as numbers, dates as dates). Then who may ask for `format`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { startTestApp, type TestApp } from './test-app.ts';
import { factories, type TestUser } from './factories.ts';
import { computeModels, images, jobs, masks, users } from '../src/platform/db/schema/index.ts';
import type { HttpClient } from './http-client.ts';

let t: TestApp;
let en: TestUser;
let de: TestUser;
let owner: TestUser;
let imageId = '';
const jobIds: string[] = [];
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

beforeAll(async () => {
  t = await startTestApp();
  const f = factories(t);
  en = await f.admin();
  de = await f.withRole('ADMIN');
  await t.db.update(users).set({ csvDecimalSeparator: 'dot', language: 'en' }).where(eq(users.id, en.id));
  await t.db.update(users).set({ csvDecimalSeparator: 'comma', language: 'de' }).where(eq(users.id, de.id));
  owner = await f.user({ fields: { name: 'Ada', surname: 'Report', company: 'Stahl; Guss & Co' } });
  const image = await f.image(owner, { filename: 'report-sample.png' });
  imageId = image.id;
  await t.db.update(images).set({ pixelSizeUm: 0.123456 }).where(eq(images.id, imageId));
  const [m] = await t.db
    .insert(computeModels)
    .values({ internalName: 'report-test-model', routingPath: '/rt', storagePath: 'rt', displayName: 'Report Test', version: '2' })
    .returning();
  const created = new Date('2026-04-01T08:00:00Z');
  for (const k of [0, 1]) {
    const [j] = await t.db
      .insert(jobs)
      .values({
        ownerId: owner.id,
        imageId,
        modelId: m.id,
        modelVersion: '2',
        status: k === 0 ? 'FINISHED' : 'FAILED',
        source: 'WEB',
        createdAt: new Date(created.getTime() + k * 60_000),
        // wait 1.5 s, then 12.346 s of work: 1.5 and 12.35 in the report
        startedAt: new Date(created.getTime() + k * 60_000 + 1500),
        finishedAt: new Date(created.getTime() + k * 60_000 + 1500 + 12_346),
      })
      .returning();
    jobIds.push(j.id);
  }
  // Three administrator votes on the first job: mean 13/3 = 4.333… → 4.33.
  for (const s of [5, 4, 4]) {
    const r = await en.client.post(`/api/admin/jobs/${jobIds[0]}/feedback`, { scaleNumber: s, scaleLength: s, resin: s, results: s });
    expect(r.status).toBe(200);
  }
  await t.db
    .insert(masks)
    .values({ ownerId: owner.id, jobId: jobIds[0], label: 'grain', filename: 'edited.png', storageKey: 'rk', isSubmitted: true });
});
afterAll(async () => t?.close());

const lines = (text: string) =>
  text
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
const filter = () => `userId=${owner.id}&deleted=ALL`;

async function sheetOf(client: HttpClient, path: string) {
  const res = await client.get(path);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe(XLSX);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(res.buffer as unknown as ArrayBuffer);
  const sheet = book.worksheets[0];
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { res, sheet, rows };
}

describe('jobs report', () => {
  it('English, dot chosen: readable headers with units, 2 decimals, counts, `,` between fields', async () => {
    const res = await en.client.get(`/api/admin/jobs/report?${filter()}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="jobs-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.buffer.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const [head, newest, oldest] = lines(res.body);
    expect(head).toBe(
      'Job ID,Job date (UTC),Owner,Owner e-mail,Company,User rating (1–5),Mean admin rating (1–5),Admin votes,Duration (s),Wait time (s),Status,Source,Model,Model version,Project,Image,Deleted,Submitted masks',
    );
    expect(newest).toBe(
      `${jobIds[1]},2026-04-01T08:01:00.000Z,Ada Report,${owner.email},Stahl; Guss & Co,,,0,12.35,1.5,Failed,Web,Report Test,2,,report-sample.png,no,0`,
    );
    expect(oldest).toContain(`,4.33,3,12.35,1.5,Finished,`);
  });

  it('German, comma (the default): German headers, decimal comma, `;` between fields, ja/nein', async () => {
    const res = await de.client.get(`/api/admin/jobs/report?${filter()}`);
    const [head, newest, oldest] = lines(res.body);
    expect(head).toBe(
      'Auftrags-ID;Auftragsdatum (UTC);Besitzer;E-Mail des Besitzers;Firma;Bewertung des Nutzers (1–5);Mittlere Bewertung der Admins (1–5);Bewertungen der Admins;Dauer (s);Wartezeit (s);Status;Quelle;Modell;Modellversion;Projekt;Bild;Gelöscht;Eingereichte Masken',
    );
    expect(newest).toBe(
      `${jobIds[1]};2026-04-01T08:01:00.000Z;Ada Report;${owner.email};"Stahl; Guss & Co";;;0;12,35;1,5;Fehlgeschlagen;Web;Report Test;2;;report-sample.png;nein;0`,
    );
    expect(oldest).toContain(';4,33;3;12,35;1,5;Abgeschlossen;');
  });

  it('XLSX: the same table, numbers as numbers, the date as a date, yes/no as booleans', async () => {
    const { res, sheet, rows } = await sheetOf(de.client, `/api/admin/jobs/report?${filter()}&format=xlsx`);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="jobs-\d{4}-\d{2}-\d{2}\.xlsx"$/);
    expect(sheet.name).toBe('Aufträge');
    expect(rows[0][0]).toBe('Auftrags-ID');
    expect(rows[0][8]).toBe('Dauer (s)');
    expect(rows).toHaveLength(3);
    const oldest = rows[2];
    expect(oldest[0]).toBe(jobIds[0]);
    expect(oldest[1]).toEqual(new Date('2026-04-01T08:00:00.000Z'));
    expect(oldest.slice(6, 10)).toEqual([4.33, 3, 12.35, 1.5]);
    expect(oldest[10]).toBe('Abgeschlossen');
    expect(oldest[16]).toBe(false);
  });
});

describe('masks report', () => {
  it('one row per mask, headers in the reader language, in CSV and XLSX', async () => {
    const [enHead, enRow] = lines((await en.client.get(`/api/admin/jobs/masks-report?${filter()}`)).body);
    expect(enHead).toBe(
      'Job ID,Job date (UTC),Model,Model version,Owner e-mail,Company,Image,Mask ID,Label,Mask file name,Edited from (mask ID),Submitted,Mask created (UTC)',
    );
    expect(enRow).toMatch(new RegExp(`^${jobIds[0]},2026-04-01T08:00:00.000Z,Report Test,2,.*,grain,edited.png,,yes,\\d{4}-.*Z$`));
    const [deHead, deRow] = lines((await de.client.get(`/api/admin/jobs/masks-report?${filter()}`)).body);
    expect(deHead.split(';').slice(7)).toEqual([
      'Masken-ID',
      'Bezeichnung',
      'Dateiname der Maske',
      'Bearbeitet aus (Masken-ID)',
      'Eingereicht',
      'Maske erstellt (UTC)',
    ]);
    expect(deRow).toContain(';grain;edited.png;;ja;');
    const { rows, sheet } = await sheetOf(en.client, `/api/admin/jobs/masks-report?${filter()}&format=xlsx`);
    expect(sheet.name).toBe('Masks');
    expect(rows).toHaveLength(2);
    expect(rows[1][11]).toBe(true);
    expect(rows[1][12]).toBeInstanceOf(Date);
  });
});

describe('users report', () => {
  it('headers, role and license in words, the separator and XLSX', async () => {
    const q = 'columns[]=fullName&columns[]=company&columns[]=role&columns[]=trainingConsent&columns[]=license&columns[]=uploaded';
    const enRes = await en.client.get(`/api/admin/users2/csv?${q}`);
    expect(enRes.headers.get('content-disposition')).toBe('attachment; filename="users.csv"');
    const enLines = lines(enRes.body);
    expect(enLines[0]).toBe('Full name,Company,Role,Training consent,License type,Uploaded images');
    expect(enLines).toContain('Ada Report,Stahl; Guss & Co,User,no,Demo,1');
    const deLines = lines((await de.client.get(`/api/admin/users2/csv?${q}`)).body);
    expect(deLines[0]).toBe('Vollständiger Name;Firma;Rolle;Einwilligung Training;Lizenztyp;Hochgeladene Bilder');
    expect(deLines).toContain('Ada Report;"Stahl; Guss & Co";Benutzer;nein;Demo;1');
    const { rows, sheet, res } = await sheetOf(de.client, `/api/admin/users2/csv?${q}&columns[]=timeJoined&format=xlsx`);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="users.xlsx"');
    expect(sheet.name).toBe('Nutzer');
    expect(rows[0]).toEqual([
      'Vollständiger Name',
      'Firma',
      'Rolle',
      'Einwilligung Training',
      'Lizenztyp',
      'Registriert (UTC)',
      'Hochgeladene Bilder',
    ]);
    const ada = rows.find((r) => r[0] === 'Ada Report')!;
    expect(ada.slice(1, 5)).toEqual(['Stahl; Guss & Co', 'Benutzer', false, 'Demo']);
    expect(ada[5]).toBeInstanceOf(Date);
    expect(ada[6]).toBe(1);
  });
});

describe('image metadata report', () => {
  it('headers with units, the pixel size to 4 significant digits, the separator and XLSX', async () => {
    const enLines = lines((await en.client.get('/api/admin/images/metadata-report')).body);
    expect(enLines[0]).toBe(
      'Image ID,File name,Owner ID,Owner e-mail,Owner,Format,Width (px),Height (px),Bit depth (bit),File size (bytes),SHA-256,Pixel size (µm/px),Validated,Training use allowed,Deleted,Deleted at (UTC),Uploaded (UTC)',
    );
    const enRow = enLines.find((l) => l.startsWith(imageId))!;
    expect(enRow).toMatch(
      new RegExp(`^${imageId},report-sample.png,${owner.id},${owner.email},Ada Report,png,120,80,8,\\d+,[0-9a-f]{64},0.1235,yes,no,no,,\\d{4}-.*Z$`),
    );
    const deLines = lines((await de.client.get('/api/admin/images/metadata-report')).body);
    expect(deLines[0].split(';').slice(5, 12)).toEqual([
      'Format',
      'Breite (px)',
      'Höhe (px)',
      'Farbtiefe (bit)',
      'Dateigröße (Byte)',
      'SHA-256',
      'Pixelgröße (µm/px)',
    ]);
    expect(deLines.find((l) => l.startsWith(imageId))).toMatch(/;png;120;80;8;\d+;[0-9a-f]{64};0,1235;ja;nein;nein;;/);
    const { rows, res } = await sheetOf(de.client, '/api/admin/images/metadata-report?format=xlsx');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="images-metadata-\d{4}-\d{2}-\d{2}\.xlsx"$/);
    const row = rows.find((r) => r[0] === imageId)!;
    expect(row.slice(6, 9)).toEqual([120, 80, 8]);
    expect(row[11]).toBe(0.1235);
    expect(row[16]).toBeInstanceOf(Date);
  });
});

describe('who may ask for a format', () => {
  it('the reports keep their guards with format=xlsx, and a format other than csv or xlsx is a 400 naming it', async () => {
    const f = factories(t);
    const reader = await f.powerUser(['JOB.READ']);
    const userReader = await f.powerUser(['USER.READ']);
    const plain = await f.user();
    const anonymous = t.client();
    const cases: Array<[string, TestUser | null, number]> = [
      ['/api/admin/jobs/report?format=xlsx', reader, 200],
      ['/api/admin/jobs/masks-report?format=xlsx', reader, 200],
      ['/api/admin/jobs/report?format=xlsx', userReader, 403],
      ['/api/admin/jobs/report?format=xlsx', plain, 403],
      ['/api/admin/jobs/report?format=xlsx', null, 401],
      ['/api/admin/users2/csv?format=xlsx', userReader, 200],
      ['/api/admin/users2/csv?format=xlsx', reader, 403],
      ['/api/admin/users2/csv?format=xlsx', null, 401],
      // the images page is ADMIN only: a power user with every privilege is refused
      ['/api/admin/images/metadata-report?format=xlsx', reader, 403],
      ['/api/admin/images/metadata-report?format=xlsx', plain, 403],
      ['/api/admin/images/metadata-report?format=xlsx', null, 401],
    ];
    for (const [path, who, status] of cases) {
      const res = await (who ? who.client : anonymous).get(path);
      expect([path, who?.email ?? 'anonymous', res.status]).toEqual([path, who?.email ?? 'anonymous', status]);
      if (status === 200) expect(res.headers.get('content-type')).toBe(XLSX);
    }
    for (const path of ['/api/admin/jobs/report?format=pdf', '/api/admin/users2/csv?format=pdf', '/api/admin/images/metadata-report?format=pdf']) {
      const res = await en.client.get(path);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain('format');
    }
  });
});
