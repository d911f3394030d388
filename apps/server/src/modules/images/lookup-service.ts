import type { Db } from '../../platform/db/client.ts';
import * as repo from './library-repo.ts';
import { renditionKey } from './service.ts';

/*
 * Images as other domains ask for them (projects). Apart from library-service.ts, which itself asks the
 * projects module, so that neither imports the other.
 */

/** Which of `ids` are live images of the owner (projects: adding images from the library). */
export function ownLiveImageIds(db: Db, ownerId: string, ids: string[]): Promise<string[]> {
  return repo.ownLiveIds(db, ownerId, ids);
}

/** Live images by id with their thumbnail and display keys, for a domain that checked access itself (a project's images). */
export async function imagesByIds(
  db: Db,
  ids: string[],
): Promise<Array<{ id: string; orginalFilename: string; width: number; height: number; thumbnailKey: string; displayKey: string }>> {
  return (await repo.liveByIds(db, ids)).map((i) => ({
    id: i.id,
    orginalFilename: i.orginalFilename,
    width: i.width,
    height: i.height,
    thumbnailKey: renditionKey(i, 'thumbnail'),
    displayKey: renditionKey(i, 'display'),
  }));
}
