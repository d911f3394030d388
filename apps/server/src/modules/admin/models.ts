import { and, asc, eq, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import sanitizeHtml from 'sanitize-html';
import type { App, Ctx } from '../../app.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { notFound } from '../../platform/http/errors.ts';
import type { Db } from '../../platform/db/client.ts';
import { computeModels, modelAccess, modelManuals, modelVersions, users } from '../../platform/db/schema/index.ts';
import { ADMIN, FieldErrors, USER, conflict, isUuid, message, rows, userFromBody } from './common.ts';

const tags = ['admin-models'];
const Id = Type.Object({ id: Type.String({ format: 'uuid' }) });
const ModelBody = Type.Object({
  internalName: Type.Optional(Type.Unknown()),
  /** Alias of internalName (Model (short) calls it `name`). */
  name: Type.Optional(Type.Unknown()),
  routingPath: Type.Optional(Type.Unknown()),
  storagePath: Type.Optional(Type.Unknown()),
  displayName: Type.Optional(Type.Unknown()),
  version: Type.Optional(Type.Unknown()),
  accessType: Type.Optional(Type.Unknown()),
  isDefaultVisible: Type.Optional(Type.Unknown()),
});
const POSITIONS = ['TOP', 'BOTTOM'] as const;
const LANGUAGES = ['en', 'de'] as const;

/** Rich text from the admin's editor: formatting, links, images and tables survive; scripts and handlers do not. */
export function cleanHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: sanitizeHtml.defaults.allowedTags.concat(['img', 'h1', 'h2', 'span', 'u', 's', 'sub', 'sup']),
    allowedAttributes: {
      ...sanitizeHtml.defaults.allowedAttributes,
      '*': ['style', 'class'],
      img: ['src', 'alt', 'width', 'height', 'style'],
      a: ['href', 'name', 'target', 'rel'],
    },
    allowedSchemes: ['http', 'https', 'mailto', 'data'],
    allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  });
}

export interface ModelStats {
  lastWeekCount: number;
  lastMonthCount: number;
  totalCount: number;
  /** Seconds: mean(finishedAt − startedAt) of finished jobs. */
  averageJobTime: number | null;
  /** Seconds: mean(startedAt − createdAt) of started jobs. */
  averageWaitTime: number | null;
}

/** Usage and times per model from the jobs table; trainable = distinct training-allowed images run in the model. */
export async function modelStats(db: Db): Promise<Map<string, { stats: ModelStats; trainable: { count: number } }>> {
  const [usage, trainable] = await Promise.all([
    rows<{ model_id: string; week: string; month: string; total: string; job: string | null; wait: string | null }>(
      db,
      sql`select model_id,
        count(*) filter (where created_at > now() - interval '7 days') as week,
        count(*) filter (where created_at > now() - interval '30 days') as month,
        count(*) as total,
        avg(extract(epoch from (finished_at - started_at))) filter (where finished_at is not null and started_at is not null) as job,
        avg(extract(epoch from (started_at - created_at))) filter (where started_at is not null) as wait
      from jobs group by model_id`,
    ),
    rows<{ model_id: string; n: string }>(
      db,
      sql`select j.model_id, count(distinct j.image_id) as n from jobs j join images i on i.id = j.image_id where i.allowed_training_use group by j.model_id`,
    ),
  ]);
  const out = new Map<string, { stats: ModelStats; trainable: { count: number } }>();
  const round = (v: string | null) => (v === null ? null : Math.round(Number(v) * 10) / 10);
  for (const u of usage) {
    out.set(u.model_id, {
      stats: {
        lastWeekCount: Number(u.week),
        lastMonthCount: Number(u.month),
        totalCount: Number(u.total),
        averageJobTime: round(u.job),
        averageWaitTime: round(u.wait),
      },
      trainable: { count: 0 },
    });
  }
  for (const t of trainable) {
    const e = out.get(t.model_id);
    if (e) e.trainable.count = Number(t.n);
  }
  return out;
}

const emptyStats = (): { stats: ModelStats; trainable: { count: number } } => ({
  stats: { lastWeekCount: 0, lastMonthCount: 0, totalCount: 0, averageJobTime: null, averageWaitTime: null },
  trainable: { count: 0 },
});

type ModelRow = typeof computeModels.$inferSelect;
const present = (m: ModelRow) => ({
  id: m.id,
  internalName: m.internalName,
  name: m.internalName,
  routingPath: m.routingPath,
  storagePath: m.storagePath,
  displayName: m.displayName,
  version: m.version,
  accessType: m.accessType,
  isDefaultVisible: m.isDefaultVisible,
  builtIn: m.builtIn,
  createdAt: m.createdAt.toISOString(),
  updatedAt: m.updatedAt.toISOString(),
});

function parseModel(body: Record<string, unknown>) {
  const e = new FieldErrors();
  const internalName = e.required('internalName', body.internalName ?? body.name, 'modelNameRequired');
  const routingPath = e.required('routingPath', body.routingPath, 'routingPathRequired');
  if (routingPath && !routingPath.startsWith('/')) e.add('routingPath', 'routingPathSlash');
  const storagePath = e.required('storagePath', body.storagePath, 'storagePathRequired');
  const displayName = e.required('displayName', body.displayName, 'displayNameRequired');
  const version = typeof body.version === 'number' ? String(body.version) : e.required('version', body.version, 'versionRequired');
  const accessType = body.accessType ?? 'PRIVATE';
  if (accessType !== 'PUBLIC' && accessType !== 'PRIVATE') e.add('accessType', 'accessTypeInvalid');
  const isDefaultVisible = body.isDefaultVisible ?? true;
  if (typeof isDefaultVisible !== 'boolean') e.add('isDefaultVisible', 'booleanRequired');
  e.throwIfAny();
  return {
    internalName,
    routingPath,
    storagePath,
    displayName,
    version,
    accessType: accessType as 'PUBLIC' | 'PRIVATE',
    isDefaultVisible: isDefaultVisible as boolean,
  };
}

export async function findModel(db: Db, id: string): Promise<ModelRow> {
  if (!isUuid(id)) throw notFound('model');
  const [m] = await db.select().from(computeModels).where(eq(computeModels.id, id));
  if (!m) throw notFound('model');
  return m;
}

/** A signed-in user may read a model's manual and example when it is PUBLIC, granted to them, or they are ADMIN. */
export async function canUse(db: Db, model: ModelRow, userId: string, role: string): Promise<boolean> {
  if (role === 'ADMIN' || model.accessType === 'PUBLIC') return true;
  const [g] = await db
    .select({ id: modelAccess.id })
    .from(modelAccess)
    .where(and(eq(modelAccess.modelId, model.id), eq(modelAccess.userId, userId)));
  return Boolean(g);
}

async function readManual(db: Db, modelId: string, position: string, language: string) {
  const [row] = await db
    .select()
    .from(modelManuals)
    .where(and(eq(modelManuals.modelId, modelId), eq(modelManuals.position, position as 'TOP'), eq(modelManuals.language, language)));
  return { modelId, position, language, text: row?.text ?? '', updatedAt: row?.updatedAt.toISOString() ?? null };
}

const isUniqueViolation = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

/** Models registry (back-office §2 Models page, §7 Models). */
export async function modelRoutes(app: App, ctx: Ctx): Promise<void> {
  const db = ctx.db;

  app.get('/admin/compute-models', { config: ADMIN, schema: { tags } }, async () => {
    const [list, stats] = await Promise.all([db.select().from(computeModels).orderBy(asc(computeModels.displayName)), modelStats(db)]);
    return list.map((m) => ({ ...present(m), ...(stats.get(m.id) ?? emptyStats()) }));
  });

  app.get('/admin/compute-models/stats', { config: ADMIN, schema: { tags } }, async () => {
    const [list, stats] = await Promise.all([db.select({ id: computeModels.id }).from(computeModels), modelStats(db)]);
    return list.map((m) => ({ id: m.id, ...(stats.get(m.id) ?? emptyStats()) }));
  });

  app.get('/admin/compute-models/list', { config: ADMIN, schema: { tags } }, async () =>
    db
      .select({ id: computeModels.id, displayName: computeModels.displayName, name: computeModels.internalName })
      .from(computeModels)
      .orderBy(asc(computeModels.displayName)),
  );

  app.post('/admin/compute-models', { config: ADMIN, schema: { tags, body: ModelBody } }, async (request) => {
    const values = parseModel(request.body as Record<string, unknown>);
    try {
      const [m] = await db.insert(computeModels).values(values).returning();
      await db.insert(modelVersions).values({ modelId: m.id, version: m.version }).onConflictDoNothing();
      return { ...present(m), ...emptyStats() };
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('MODEL_NAME_TAKEN', 'modelNameTaken', { name: values.internalName });
      throw err;
    }
  });

  app.put('/admin/compute-models/:id', { config: ADMIN, schema: { tags, params: Id, body: ModelBody } }, async (request) => {
    await findModel(db, request.params.id);
    const values = parseModel(request.body as Record<string, unknown>);
    try {
      const [m] = await db
        .update(computeModels)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(computeModels.id, request.params.id))
        .returning();
      await db.insert(modelVersions).values({ modelId: m.id, version: m.version }).onConflictDoNothing();
      return { ...present(m), message: message(request, 'modelUpdated') };
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('MODEL_NAME_TAKEN', 'modelNameTaken', { name: values.internalName });
      throw err;
    }
  });

  // "All related instances and results will be deleted too": jobs, grants, manuals, groups cascade.
  app.delete('/admin/compute-models/:id', { config: ADMIN, schema: { tags, params: Id } }, async (request) => {
    const m = await findModel(db, request.params.id);
    await db.delete(computeModels).where(eq(computeModels.id, m.id));
    return { id: m.id, deleted: true };
  });

  app.get('/admin/compute-models/:id/versions', { config: ADMIN, schema: { tags, params: Id } }, async (request) => {
    const m = await findModel(db, request.params.id);
    const list = await db
      .select()
      .from(modelVersions)
      .where(eq(modelVersions.modelId, m.id))
      .orderBy(sql`${modelVersions.version} desc`);
    return list.map((v) => ({
      version: v.version,
      isCurrent: v.version === m.version,
      hasSettingsSchema: v.settingsSchema !== null,
      createdAt: v.createdAt.toISOString(),
    }));
  });

  app.get('/admin/compute-models/:id/access', { config: ADMIN, schema: { tags, params: Id } }, async (request) => {
    const m = await findModel(db, request.params.id);
    const list = await db
      .select({
        id: modelAccess.id,
        userId: modelAccess.userId,
        name: users.name,
        surname: users.surname,
        email: users.email,
        createdAt: modelAccess.createdAt,
      })
      .from(modelAccess)
      .innerJoin(users, eq(users.id, modelAccess.userId))
      .where(eq(modelAccess.modelId, m.id))
      .orderBy(asc(users.surname), asc(users.name));
    return list.map((g) => ({
      id: g.id,
      userId: g.userId,
      user: { name: g.name, surname: g.surname, email: g.email },
      createdAt: g.createdAt.toISOString(),
    }));
  });

  app.post(
    '/admin/compute-models/:id/access',
    { config: ADMIN, schema: { tags, params: Id, body: Type.Object({ userId: Type.Optional(Type.Unknown()) }) } },
    async (request) => {
      const m = await findModel(db, request.params.id);
      const u = await userFromBody(db, request.body.userId);
      await db.insert(modelAccess).values({ modelId: m.id, userId: u.id }).onConflictDoNothing();
      return { modelId: m.id, userId: u.id, message: message(request, 'accessGranted') };
    },
  );

  app.delete(
    '/admin/compute-models/:id/access/:userId',
    { config: ADMIN, schema: { tags, params: Type.Object({ id: Type.String({ format: 'uuid' }), userId: Type.String({ format: 'uuid' }) }) } },
    async (request) => {
      const m = await findModel(db, request.params.id);
      const gone = await db
        .delete(modelAccess)
        .where(and(eq(modelAccess.modelId, m.id), eq(modelAccess.userId, request.params.userId)))
        .returning();
      if (!gone.length) throw notFound('access');
      return { modelId: m.id, userId: request.params.userId, message: message(request, 'accessRevoked') };
    },
  );

  app.get('/admin/compute-models/:id/example', { config: ADMIN, schema: { tags, params: Id } }, async (request) => {
    const m = await findModel(db, request.params.id);
    return { contentEn: m.exampleEn ?? '', contentDe: m.exampleDe ?? '' };
  });

  app.put(
    '/admin/compute-models/:id/example',
    {
      config: ADMIN,
      schema: { tags, params: Id, body: Type.Object({ contentEn: Type.Optional(Type.Unknown()), contentDe: Type.Optional(Type.Unknown()) }) },
    },
    async (request) => {
      const m = await findModel(db, request.params.id);
      const e = new FieldErrors();
      // Rich-text editors send "<p></p>" for an empty document: emptiness is judged on the text, after sanitising.
      const clean = (field: string, v: unknown) => {
        const html = typeof v === 'string' ? cleanHtml(v) : '';
        const visible = html
          .replace(/<img\b/gi, 'x<img')
          .replace(/<[^>]*>/g, '')
          .replace(/&nbsp;/g, ' ')
          .trim();
        if (!visible) e.add(field, 'contentRequired');
        return html;
      };
      const contentEn = clean('contentEn', request.body.contentEn);
      const contentDe = clean('contentDe', request.body.contentDe);
      e.throwIfAny();
      await db.update(computeModels).set({ exampleEn: contentEn, exampleDe: contentDe, updatedAt: new Date() }).where(eq(computeModels.id, m.id));
      return { contentEn, contentDe, message: message(request, 'exampleUpdated') };
    },
  );

  const ManualParams = Type.Object({
    id: Type.String({ format: 'uuid' }),
    position: Type.Union(POSITIONS.map((p) => Type.Literal(p))),
    language: Type.Union(LANGUAGES.map((l) => Type.Literal(l))),
  });
  app.get('/admin/compute-models/:id/manual/:position/:language', { config: ADMIN, schema: { tags, params: ManualParams } }, async (request) => {
    const m = await findModel(db, request.params.id);
    return readManual(db, m.id, request.params.position, request.params.language);
  });

  app.put(
    '/admin/compute-models/:id/manual',
    {
      config: ADMIN,
      schema: {
        tags,
        params: Id,
        body: Type.Object({ text: Type.Optional(Type.Unknown()), position: Type.Optional(Type.Unknown()), language: Type.Optional(Type.Unknown()) }),
      },
    },
    async (request) => {
      const m = await findModel(db, request.params.id);
      const { text, position, language } = request.body;
      const e = new FieldErrors();
      // An empty manual is allowed: it removes the info box.
      if (typeof text !== 'string') e.add('text', 'textRequired');
      if (!POSITIONS.includes(position as 'TOP')) e.add('position', 'positionInvalid');
      if (!LANGUAGES.includes(language as 'en')) e.add('language', 'languageInvalid');
      e.throwIfAny();
      const html = cleanHtml(text as string);
      await db
        .insert(modelManuals)
        .values({ modelId: m.id, position: position as 'TOP', language: language as string, text: html })
        .onConflictDoUpdate({
          target: [modelManuals.modelId, modelManuals.position, modelManuals.language],
          set: { text: html, updatedAt: new Date() },
        });
      return { ...(await readManual(db, m.id, position as string, language as string)), message: message(request, 'manualUpdated') };
    },
  );

  // User side (results page): manual and example of a model the caller may use; 404 otherwise.
  const UserManualParams = Type.Object({
    modelId: Type.String({ format: 'uuid' }),
    position: ManualParams.properties.position,
    language: ManualParams.properties.language,
  });
  app.get(
    '/models/:modelId/manual/:position/:language',
    { config: USER, schema: { tags: ['models'], params: UserManualParams } },
    async (request) => {
      const auth = requireAuth(request);
      const m = await findModel(db, request.params.modelId);
      if (!(await canUse(db, m, auth.user.id, auth.user.role))) throw notFound('model');
      return readManual(db, m.id, request.params.position, request.params.language);
    },
  );

  app.get(
    '/models/:modelId/example',
    { config: USER, schema: { tags: ['models'], params: Type.Object({ modelId: Type.String({ format: 'uuid' }) }) } },
    async (request) => {
      const auth = requireAuth(request);
      const m = await findModel(db, request.params.modelId);
      if (!(await canUse(db, m, auth.user.id, auth.user.role))) throw notFound('model');
      return { contentEn: m.exampleEn ?? '', contentDe: m.exampleDe ?? '' };
    },
  );
}
