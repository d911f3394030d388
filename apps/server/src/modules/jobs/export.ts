import { and, eq, inArray, notInArray } from 'drizzle-orm';
import type { Ctx } from '../../app.ts';
import { computeModels, images, jobs, results } from '../../platform/db/schema/index.ts';
import { notFound } from '../../platform/http/errors.ts';
import type { UserRow } from '../users/repo.ts';

const quote = (s: string, sep: string) => (s.includes(sep) || s.includes('"') || s.includes('\n') ? `"${s.replace(/"/g, '""')}"` : s);

/**
 * One row per job: job, image, model, version, status, date, then every measurement key found in the jobs.
 * Numbers use the user's decimal separator (comma → fields separated by ';', as spreadsheets expect).
 */
export async function jobsCsv(ctx: Ctx, user: UserRow, ids: string[]): Promise<string> {
  const rows = await ctx.db
    .select({ job: jobs, image: images.orginalFilename, model: computeModels.displayName, measurements: results.measurements })
    .from(jobs)
    .innerJoin(images, eq(images.id, jobs.imageId))
    .innerJoin(computeModels, eq(computeModels.id, jobs.modelId))
    .leftJoin(results, eq(results.id, jobs.resultId))
    .where(and(inArray(jobs.id, ids), eq(jobs.ownerId, user.id), eq(jobs.deleted, false), notInArray(jobs.source, ['SANDBOX', 'IDENTIFICATION'])));
  if (rows.length !== new Set(ids).size) throw notFound('job');
  const comma = user.csvDecimalSeparator !== 'dot';
  const sep = comma ? ';' : ',';
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r.measurements ?? {})))].sort();
  const fmt = (v: unknown) => {
    if (typeof v === 'number') return comma ? String(v).replace('.', ',') : String(v);
    if (v === null || v === undefined) return '';
    return quote(typeof v === 'string' ? v : JSON.stringify(v), sep);
  };
  const header = ['jobId', 'image', 'model', 'modelVersion', 'status', 'createdAt', ...keys].join(sep);
  const lines = rows.map((r) =>
    [
      r.job.id,
      quote(r.image, sep),
      quote(r.model, sep),
      r.job.modelVersion,
      r.job.status,
      r.job.createdAt.toISOString(),
      ...keys.map((k) => fmt((r.measurements ?? {})[k])),
    ].join(sep),
  );
  return '\uFEFF' + [header, ...lines].join('\r\n') + '\r\n';
}
