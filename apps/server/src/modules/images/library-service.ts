import type { ImagesDeleted, LibraryImage, LibraryPage, LibraryQuery } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { removePrefix } from '../storage-usage/service.ts';
import { notFound, validationFailed } from '../../platform/http/errors.ts';
import { archiveJobsOfImages } from '../jobs/service.ts';
import { dropImages, imageIdsOf, projectsOfImages } from '../projects/service.ts';
import * as repo from './library-repo.ts';
import { present as presentImage } from './service.ts';

const DAY = 24 * 60 * 60 * 1000;
const day = (s: string) => new Date(`${s}T00:00:00.000Z`);

const present = (i: repo.LibraryRow, projects: Array<{ id: string; name: string }>): LibraryImage => ({ ...presentImage(i), projects });

/**
 * One page of the user's image library, newest first: search by file name, uploaded between two days
 * (inclusive, UTC), only the images of a project the user has access to (404 otherwise).
 */
export async function listLibrary(db: Db, userId: string, q: LibraryQuery): Promise<LibraryPage> {
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? 24;
  const from = q.from ? day(q.from) : undefined;
  const before = q.to ? new Date(day(q.to).getTime() + DAY) : undefined;
  if (from && before && from >= before) throw validationFailed([{ field: 'to', key: 'library.errors.dateRange' }]);
  const ids = q.projectId ? await imageIdsOf(db, userId, q.projectId) : undefined;
  const search = q.search?.trim() || undefined;
  const { rows, total } = await repo.page(db, { ownerId: userId, search, from, before, ids }, pageSize, (page - 1) * pageSize);
  const projects = await projectsOfImages(
    db,
    userId,
    rows.map((r) => r.id),
  );
  return { items: rows.map((r) => present(r, projects.get(r.id) ?? [])), total, page, pageSize };
}

/**
 * Soft-deletes the user's images: they leave the library and every project, and their jobs are archived, all in
 * one transaction; then their files (original, renditions, sidecar) are removed, which frees the storage they took
 * (issue 28 item 3; a file left by a crash here is removed by the storage sweep). Any id that is not a live image
 * of the caller: 404, nothing changes.
 */
export async function deleteImages(db: Db, storage: Storage, userId: string, imageIds: string[]): Promise<ImagesDeleted> {
  const ids = [...new Set(imageIds)];
  const answer = await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const deleted = await repo.softDelete(t, userId, ids);
    if (deleted.length !== ids.length) throw notFound('image');
    await dropImages(t, deleted);
    const archivedJobs = await archiveJobsOfImages(t, userId, deleted);
    return { deleted: deleted.length, archivedJobs };
  });
  for (const id of ids) await removePrefix(storage, `images/${userId}/${id}/`);
  return answer;
}
