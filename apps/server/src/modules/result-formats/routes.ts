import { resultFormatsApi as api } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { requestLanguage } from '../../platform/http/language.ts';
import { readerCsvOptions } from '../../platform/http/spreadsheet.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import { resultFormat } from './service.ts';

/** Standard result formats of a job result (issue 27 item 4): label TIFF, ImageJ ROI set, GeoJSON, object table. */
export async function resultFormatsRoutes(app: RouteHost, deps: { db: Db; storage: Storage }): Promise<void> {
  route(app, api.download, { auth: 'user' }, async (request, reply) => {
    const lng = requestLanguage(request);
    const { resultId, format } = request.params;
    const file = await resultFormat(deps.db, deps.storage, requireAuth(request), resultId, format, lng, readerCsvOptions(request, lng));
    reply.header('content-disposition', `attachment; filename="${file.filename}"`).type(file.type);
    return reply.send(file.body);
  });
}
