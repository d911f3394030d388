import sharp from 'sharp';
import type { Readable } from 'node:stream';
import { REPORT_CONTENT_TYPES, ReportFormatValues, type Job, type ReportFormat } from '@lamella/contracts';
import { isLanguage } from '@lamella/i18n';
import type { AuthContext } from '../../platform/auth/session.ts';
import type { Db } from '../../platform/db/client.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { readableImage, renditionKey } from '../images/service.ts';
import * as jobs from '../jobs/service.ts';
import * as projects from '../projects/service.ts';
import { logo } from '../users/service.ts';
import type { Letterhead } from './data.ts';
import { jobPdf } from './job-pdf.ts';
import { specimenPdf } from './specimen-pdf.ts';
import { specimenSections } from './specimen.ts';
import { reportText, safeFilename } from './text.ts';
import { jobXlsx, specimenXlsx } from './xlsx.ts';

/**
 * Reports (issue 14): gathers a job or a project through the jobs, images, projects and users services (their
 * access rules: a job the caller may read, a project they are a member of; otherwise 404) and writes it as PDF
 * (pdfkit) or XLSX (exceljs) in the reader's language. No tables of its own.
 */
export interface ReportsDeps {
  db: Db;
  storage: Storage;
}

export interface ReportFile {
  filename: string;
  contentType: string;
  body: Buffer;
}

/** `pdf` or `xlsx`; anything else is a 400 naming the field, before anything is read. */
export function parseFormat(raw: string | undefined): ReportFormat {
  if ((ReportFormatValues as readonly string[]).includes(raw ?? '')) return raw as ReportFormat;
  throw new AppError(400, 'VALIDATION_FAILED', 'errors.validationFailed', {}, [{ field: 'format', key: 'reports.errors.format' }]);
}

const languageOf = (auth: AuthContext) => (isLanguage(auth.user.language) ? auth.user.language : 'en');

async function letterhead(deps: ReportsDeps, user: AuthContext['user']): Promise<Letterhead> {
  const author = `${user.name} ${user.surname}`.trim();
  const company = user.address?.company?.trim() || author;
  const logoPng = user.logoKey ? await logo(deps.storage, user).catch(() => null) : null;
  return { company, author, logo: logoPng };
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}

/** A picture for the PDF: JPEG at most 1600 px (pdfkit embeds JPEG as it is: small files, fast). */
const forPdf = (data: Buffer) =>
  sharp(data, { limitInputPixels: 100_000_000 })
    .resize(1600, 1600, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 85 })
    .toBuffer();

async function jobPictures(
  deps: ReportsDeps,
  auth: AuthContext,
  job: Job,
): Promise<{ picture: Buffer | null; overlays: Array<{ filename: string; data: Buffer }> }> {
  let picture: Buffer | null = null;
  try {
    // the owner's image, or (a member reviewing a project's job) the image as the project shows it
    const key = await readableImage(deps.db, auth, job.imageId)
      .then((image) => renditionKey(image, 'display'))
      .catch(async (err: unknown) => (await projects.memberDisplayKey(deps.db, auth.user.id, job.imageId)) ?? Promise.reject(err));
    picture = await forPdf(await deps.storage.get(key));
  } catch {
    picture = null; // an image removed from storage leaves the report without the picture, not without a report
  }
  const overlays: Array<{ filename: string; data: Buffer }> = [];
  for (const item of job.result?.results ?? []) {
    if (item.type !== 'image' || !job.resultId) continue;
    try {
      const file = await jobs.resultFile(deps.db, deps.storage, auth, job.resultId, item.filename);
      overlays.push({ filename: item.filename, data: await forPdf(await readAll(file.stream)) });
    } catch {
      // a missing result file is skipped
    }
  }
  return { picture, overlays };
}

/** GET /jobs/{id}/report: the job must be readable by the caller (jobs service: owner, or ADMIN). */
export async function jobReport(deps: ReportsDeps, auth: AuthContext, jobId: string, rawFormat: string | undefined): Promise<ReportFile> {
  const format = parseFormat(rawFormat);
  // the job's texts (tables, method, messages, chart titles and axes) in the reader's language (issue 24 item 6)
  const job = await jobs.getJob(deps.db, auth, jobId, languageOf(auth));
  const tx = reportText(languageOf(auth));
  const data = {
    tx,
    job,
    letterhead: await letterhead(deps, auth.user),
    ...(format === 'pdf' ? await jobPictures(deps, auth, job) : { picture: null, overlays: [] }),
    generatedAt: new Date(),
  };
  const base = `${tx.t('reports.job.filePrefix')}-${job.image.orginalFilename.replace(/\.[^.]+$/, '')}-${job.id.slice(0, 8)}`;
  return {
    filename: safeFilename(base, format),
    contentType: REPORT_CONTENT_TYPES[format],
    body: format === 'pdf' ? await jobPdf(data) : await jobXlsx(data),
  };
}

/** GET /projects/{id}/report: any member of the project (projects service scoping); each image is a field, its chosen jobs its values. */
export async function projectReport(deps: ReportsDeps, auth: AuthContext, projectId: string, rawFormat: string | undefined): Promise<ReportFile> {
  const format = parseFormat(rawFormat);
  const userId = auth.user.id;
  const project = await projects.get(deps.db, userId, projectId);
  // the chosen fields: per image and model the accepted job, else the newest finished job started in the project
  const chosen = await projects.chosenFields(deps.db, userId, projectId);
  const fields = chosen.map((f) => ({
    filename: f.orginalFilename,
    jobs: f.models.flatMap((m) => (m.job ? [{ job: m.job, accepted: m.accepted }] : [])),
  }));
  const tx = reportText(languageOf(auth));
  const data = {
    tx,
    letterhead: await letterhead(deps, auth.user),
    project: { id: project.id, name: project.name, description: project.description, ownerName: project.ownerName },
    fieldCount: chosen.length,
    sections: specimenSections(tx, fields),
    generatedAt: new Date(),
  };
  return {
    filename: safeFilename(`${tx.t('reports.specimen.filePrefix')}-${project.name}`, format),
    contentType: REPORT_CONTENT_TYPES[format],
    body: format === 'pdf' ? await specimenPdf(data) : await specimenXlsx(data),
  };
}
