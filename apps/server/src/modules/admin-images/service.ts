import { translate, type Language } from '@lamella/i18n';
import { ADMIN_IMAGES_PAGE_SIZE, type AdminImage, type AdminImageOwner, type AdminImagesQuery } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { significant, type Cell, type StreamedTable } from '../../platform/http/spreadsheet.ts';
import { validationFailed, type ErrorDetail } from '../../platform/http/errors.ts';
import * as repo from './repo.ts';

const DAY = 24 * 60 * 60 * 1000;

/** A YYYY-MM-DD day (UTC midnight), or null when it is not a real calendar day. */
function dayOf(text: string): Date | null {
  const d = new Date(`${text}T00:00:00.000Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== text ? null : d;
}

/** The filters of the query, checked: real days, start not after end (400 naming the field otherwise). */
function filtersOf(q: AdminImagesQuery): repo.ImageFilter {
  const errors: ErrorDetail[] = [];
  const from = q.startDate ? dayOf(q.startDate) : null;
  const end = q.endDate ? dayOf(q.endDate) : null;
  if (q.startDate && !from) errors.push({ field: 'startDate', key: 'adminImages.errors.invalidDate' });
  if (q.endDate && !end) errors.push({ field: 'endDate', key: 'adminImages.errors.invalidDate' });
  if (from && end && from > end) errors.push({ field: 'endDate', key: 'adminImages.errors.dateRange' });
  if (errors.length) throw validationFailed(errors);
  return {
    userId: q.userId,
    from: from ?? undefined,
    before: end ? new Date(end.getTime() + DAY) : undefined,
    allowedTrainingUse: q.allowedTrainingUse,
    isDeleted: q.isDeleted,
    trainable: q.trainable,
    trainingModelId: q.trainingModelId,
  };
}

const present = (r: repo.ListRow): AdminImage => ({
  id: r.id,
  orginalFilename: r.orginalFilename,
  format: r.format,
  width: r.width,
  height: r.height,
  size: r.size,
  allowedTrainingUse: r.allowedTrainingUse,
  isDeleted: r.isDeleted,
  deletedAt: r.deletedAt ? r.deletedAt.toISOString() : null,
  createdAt: r.createdAt.toISOString(),
  owner: { id: r.ownerId, name: r.ownerName, surname: r.ownerSurname, email: r.ownerEmail },
});

/**
 * One page of every user's images (back-office.md §7 Images): sorted by createdAt (default, newest first) or
 * owner, filtered by owner, days (inclusive, UTC), training consent and deletion. `nextPage` is null on the last.
 */
/** One page, the next page number (null on the last) and how many images match the filters in all. */
export async function list(db: Db, q: AdminImagesQuery): Promise<{ items: AdminImage[]; nextPage: number | null; total: number }> {
  const filters = filtersOf(q);
  const pageNo = q.page ?? 1;
  const size = q.pageSize ?? ADMIN_IMAGES_PAGE_SIZE;
  const [rows, total] = await Promise.all([
    repo.page(db, filters, {
      sortKey: q.sortKey ?? 'createdAt',
      sortOrder: q.sortOrder ?? 'desc',
      limit: size + 1,
      offset: (pageNo - 1) * size,
    }),
    repo.count(db, filters),
  ]);
  return { items: rows.slice(0, size).map(present), nextPage: rows.length > size ? pageNo + 1 : null, total };
}

export async function owners(db: Db, search: string | undefined): Promise<AdminImageOwner[]> {
  return repo.owners(db, search?.trim() || undefined, 50);
}

/** The report's columns, as translation keys of their headers (adminReports.images). */
export const METADATA_HEADER = [
  'adminReports.images.id',
  'adminReports.images.orginalFilename',
  'adminReports.images.ownerId',
  'adminReports.images.ownerEmail',
  'adminReports.images.ownerName',
  'adminReports.images.format',
  'adminReports.images.width',
  'adminReports.images.height',
  'adminReports.images.bitDepth',
  'adminReports.images.sizeBytes',
  'adminReports.images.sha256',
  'adminReports.images.pixelSizeUm',
  'adminReports.images.validated',
  'adminReports.images.allowedTrainingUse',
  'adminReports.images.isDeleted',
  'adminReports.images.deletedAt',
  'adminReports.images.createdAt',
] as const;

const count = (v: number | null) => (v === null ? null : Math.round(v));

/**
 * The metadata report in `lng`: one row per image, newest first, read batch by batch (never the whole table in
 * memory). Headers with units (px, bytes, µm/px); the pixel size to 4 significant digits as in the job export;
 * sizes and counts as integers; dates ISO 8601 UTC in CSV. platform/http/spreadsheet.ts writes CSV (formula cells
 * neutralised, so a file name like `=cmd()` is inert text) or XLSX.
 */
export function metadataReport(db: Db, lng: Language): StreamedTable {
  return {
    headers: METADATA_HEADER.map((k) => translate(lng, k)),
    batches: (async function* () {
      for await (const batch of repo.reportBatches(db)) {
        yield batch.map((r): Cell[] => [
          r.id,
          r.orginalFilename,
          r.ownerId,
          r.ownerEmail,
          `${r.ownerName} ${r.ownerSurname}`.trim(),
          r.format,
          count(r.width),
          count(r.height),
          count(r.bitDepth),
          count(r.size),
          r.sha256,
          r.pixelSizeUm === null ? null : significant(r.pixelSizeUm, 4),
          r.validated,
          r.allowedTrainingUse,
          r.isDeleted,
          r.deletedAt,
          r.createdAt,
        ]);
      }
    })(),
  };
}
