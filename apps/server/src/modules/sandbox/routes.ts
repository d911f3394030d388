import { and, desc, eq, gt, inArray } from 'drizzle-orm';
import { Type } from 'typebox';
import type { App, Ctx } from '../../app.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { forbidden, validationFailed } from '../../platform/http/errors.ts';
import { jobs } from '../../platform/db/schema/index.ts';
import { presentJobs } from '../jobs/present.ts';
import { createJobs } from '../jobs/service.ts';

const tags = ['sandbox'];
const Uuid = Type.String({ format: 'uuid' });
export const SANDBOX_KEEP_HOURS = 24;

/** Values of an identification variable: split on comma and space (accounts.md §9). */
export const splitValues = (vals: string[]) => vals.flatMap((v) => v.split(/[\s,]+/)).filter(Boolean);

/** Every combination of the variables' values, as settings objects (keys may be dotted paths). */
export function combinations(variables: Array<{ key: string; vals: string[] }>): Array<Record<string, unknown>> {
  let out: Array<Record<string, unknown>> = [{}];
  for (const v of variables) {
    const values = splitValues(v.vals).map((x) =>
      x !== '' && !Number.isNaN(Number(x)) ? Number(x) : x === 'true' ? true : x === 'false' ? false : x,
    );
    out = out.flatMap((base) => values.map((value) => setPath({ ...base }, v.key, value)));
  }
  return out;
}

function setPath(obj: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const parts = path.split('.');
  let node = obj;
  for (const p of parts.slice(0, -1)) {
    node[p] = typeof node[p] === 'object' && node[p] !== null ? { ...(node[p] as object) } : {};
    node = node[p] as Record<string, unknown>;
  }
  node[parts[parts.length - 1]] = value;
  return obj;
}

/**
 * The sandbox: try models on one image. Its jobs (source SANDBOX, or IDENTIFICATION with params) are not
 * listed with the user's results, cannot be exported, and are shown for 24 hours. Params and versions are
 * for ADMIN only (the admin sandbox).
 */
export async function sandboxRoutes(app: App, ctx: Ctx): Promise<void> {
  app.post(
    '/sandbox',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        body: Type.Object(
          {
            imageId: Uuid,
            modelsIds: Type.Array(Uuid, { minItems: 1, maxItems: 20 }),
            params: Type.Optional(
              Type.Union([
                Type.Null(),
                Type.Object({
                  customizationId: Type.Optional(Type.Union([Uuid, Type.Null()])),
                  variables: Type.Optional(
                    Type.Array(
                      Type.Object({ key: Type.String({ maxLength: 200 }), vals: Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 50 }) }),
                      { maxItems: 10 },
                    ),
                  ),
                }),
              ]),
            ),
            versions: Type.Optional(Type.Union([Type.Null(), Type.Array(Type.String({ maxLength: 50 }), { maxItems: 10 })])),
            source: Type.Optional(Type.String()),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { params, versions } = request.body;
      const admin = auth.user.role === 'ADMIN';
      if ((params && (params.customizationId || params.variables?.length)) || versions?.length) {
        if (!admin) throw forbidden();
      }
      const variables = params?.variables ?? [];
      const missing = variables.findIndex((v) => !v.key.trim());
      if (missing >= 0) throw validationFailed([{ field: `params.variables.${missing}.key`, key: 'errors.variableNameRequired' }]);
      if (versions && versions.length === 0) throw validationFailed([{ field: 'versions', key: 'errors.versionsRequired' }]);
      const variants = variables.length ? combinations(variables) : null;
      if (variants && variants.length > 200) throw validationFailed([{ field: 'params.variables', key: 'errors.tooManyCombinations' }]);
      const rows = await createJobs(ctx, auth, {
        imageIds: [request.body.imageId],
        modelIds: request.body.modelsIds,
        source: variants || params?.customizationId ? 'IDENTIFICATION' : 'SANDBOX',
        versions: versions ?? null,
        settingsVariants: variants,
        customizationId: params?.customizationId ?? null,
      });
      return presentJobs(ctx.db, rows);
    },
  );

  app.get('/sandbox', { config: { auth: 'user' }, schema: { tags } }, async (request) => {
    const auth = requireAuth(request);
    const rows = await ctx.db
      .select()
      .from(jobs)
      .where(
        and(
          eq(jobs.ownerId, auth.user.id),
          inArray(jobs.source, ['SANDBOX', 'IDENTIFICATION']),
          eq(jobs.deleted, false),
          gt(jobs.createdAt, new Date(Date.now() - SANDBOX_KEEP_HOURS * 3600_000)),
        ),
      )
      .orderBy(desc(jobs.createdAt))
      .limit(100);
    return presentJobs(ctx.db, rows);
  });
}
