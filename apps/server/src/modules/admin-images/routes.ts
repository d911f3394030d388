import { adminImagesApi as api } from '@lamella/contracts';
import { translate } from '@lamella/i18n';
import type { Db } from '../../platform/db/client.ts';
import { requestLanguage } from '../../platform/http/language.ts';
import { downloadHeaders, readerCsvOptions, streamedBody } from '../../platform/http/spreadsheet.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as adminImages from './service.ts';

/** ADMIN only: back-office.md §6 gives no permission a POWER_USER could hold for the images page (contradiction #6). */
const ADMIN = { auth: { roles: ['ADMIN' as const] } };
const today = () => new Date().toISOString().slice(0, 10);

/**
 * Back-office images (back-office.md §2 Images screen, §7 Images): the paged list (next page number in the
 * `x-next-page` header, the number of matching images in `x-total-count`), the owners of the Owner filter and the streamed metadata report. The thumbnails are the
 * images module's `GET /images/{id}/thumbnail`, which ADMIN may read for any image.
 */
export async function adminImagesRoutes(app: RouteHost, deps: { db: Db }): Promise<void> {
  const { db } = deps;
  route(app, api.list, ADMIN, async (request, reply) => {
    const { items, nextPage, total } = await adminImages.list(db, request.query);
    if (nextPage !== null) reply.header('x-next-page', String(nextPage));
    reply.header('x-total-count', String(total));
    return items;
  });
  route(app, api.owners, ADMIN, (request) => adminImages.owners(db, request.query.search));
  route(app, api.metadataReport, ADMIN, (request, reply) => {
    const lng = requestLanguage(request);
    const format = request.query.format ?? 'csv';
    const body = streamedBody(
      adminImages.metadataReport(db, lng),
      format,
      readerCsvOptions(request, lng),
      translate(lng, 'adminReports.sheets.images'),
    );
    return reply.headers(downloadHeaders(format, `images-metadata-${today()}`)).send(body);
  });
}
