import { ADMIN_IMAGES_PAGE_SIZE, type AdminImage, type AdminImageOwner, type AdminImagesQuery } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { CSV_BOM, csvLine } from '../../platform/http/csv.ts';
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
export async function list(db: Db, q: AdminImagesQuery): Promise<{ items: AdminImage[]; nextPage: number | null }> {
  const filters = filtersOf(q);
  const pageNo = q.page ?? 1;
  const size = q.pageSize ?? ADMIN_IMAGES_PAGE_SIZE;
  const rows = await repo.page(db, filters, {
    sortKey: q.sortKey ?? 'createdAt',
    sortOrder: q.sortOrder ?? 'desc',
    limit: size + 1,
    offset: (pageNo - 1) * size,
  });
  return { items: rows.slice(0, size).map(present), nextPage: rows.length > size ? pageNo + 1 : null };
}

export async function owners(db: Db, search: string | undefined): Promise<AdminImageOwner[]> {
  return repo.owners(db, search?.trim() || undefined, 50);
}

export const METADATA_HEADER = [
  'id',
  'orginalFilename',
  'ownerId',
  'ownerEmail',
  'ownerName',
  'format',
  'width',
  'height',
  'bitDepth',
  'sizeBytes',
  'sha256',
  'pixelSizeUm',
  'validated',
  'allowedTrainingUse',
  'isDeleted',
  'deletedAt',
  'createdAt',
] as const;

/**
 * The metadata report: one CSV line per image, newest first, written batch by batch as the rows are read (never
 * the whole file in memory). Cells go through platform/http/csv.ts, so a file name like `=cmd()` is inert text.
 */
export function metadataReport(db: Db): AsyncGenerator<string> {
  return (async function* () {
    yield CSV_BOM + csvLine(METADATA_HEADER);
    for await (const batch of repo.reportBatches(db)) {
      let chunk = '';
      for (const r of batch) {
        chunk += csvLine([
          r.id,
          r.orginalFilename,
          r.ownerId,
          r.ownerEmail,
          `${r.ownerName} ${r.ownerSurname}`.trim(),
          r.format,
          r.width,
          r.height,
          r.bitDepth,
          r.size,
          r.sha256,
          r.pixelSizeUm,
          r.validated,
          r.allowedTrainingUse,
          r.isDeleted,
          r.deletedAt,
          r.createdAt,
        ]);
      }
      yield chunk;
    }
  })();
}
