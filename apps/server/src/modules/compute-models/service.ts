import sanitizeHtml from 'sanitize-html';
import { translate } from '@lamella/i18n';
import type {
  ComputeModel,
  ComputeModelBody,
  ComputeDeleted,
  ModelAccessChanged,
  ModelAccessGrant,
  ModelExample,
  ModelExampleBody,
  ModelManual,
  ModelManualBody,
  ModelShort,
  ModelStats,
  ModelStatsEntry,
  ModelVersion,
  UpdatedComputeModel,
} from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { AppError, notFound } from '../../platform/http/errors.ts';
import { FieldErrors } from '../../platform/http/field-errors.ts';
import { recordAudit } from '../audit/service.ts';
import { findUserById } from '../users/service.ts';
import * as repo from './repo.ts';

export type { ModelRow } from './repo.ts';
export { deepMerge, defaultsOf, modelSettingsSource, validateAgainst, FALLBACK_SCHEMA, type ModelSettingsSource } from './settings.ts';

type ModelRow = repo.ModelRow;
type Lng = string;
type Usage = { stats: ModelStats; trainable: { count: number } };

const POSITIONS = ['TOP', 'BOTTOM'] as const;
const LANGUAGES = ['en', 'de'] as const;
const isUuid = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);
/** A success text of back-office §8 in the caller's language. */
const say = (lng: Lng, key: string) => translate(lng, `adminMessages.${key}`);
const err = (key: string) => `adminErrors.${key}`;
const requiredText = (e: FieldErrors, field: string, value: unknown, key: string): string => {
  if (typeof value !== 'string' || !value.trim()) {
    e.add(field, err(key));
    return '';
  }
  return value.trim();
};

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

const emptyUsage = (): Usage => ({
  stats: { lastWeekCount: 0, lastMonthCount: 0, totalCount: 0, averageJobTime: null, averageWaitTime: null },
  trainable: { count: 0 },
});

/**
 * Usage and times per model from the jobs table; trainable = the model's trainable images (issue 25: the owner's
 * training consent, the image allowed for training and not deleted, a submitted mask of a job of the model).
 */
export async function modelStats(db: Db): Promise<Map<string, Usage>> {
  const [usage, trainable] = await Promise.all([repo.usageByModel(db), repo.trainableByModel(db)]);
  const out = new Map<string, Usage>();
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

const present = (m: ModelRow) => ({
  id: m.id,
  internalName: m.internalName,
  name: m.internalName,
  routingPath: m.routingPath,
  storagePath: m.storagePath,
  displayName: m.displayName,
  displayNameDe: m.displayNameDe,
  version: m.version,
  accessType: m.accessType,
  isDefaultVisible: m.isDefaultVisible,
  builtIn: m.builtIn,
  archivedAt: m.archivedAt?.toISOString() ?? null,
  createdAt: m.createdAt.toISOString(),
  updatedAt: m.updatedAt.toISOString(),
});

/** The German name of the body: trimmed text, null to clear (empty or null), undefined when absent (kept). */
function germanName(e: FieldErrors, value: unknown): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (typeof value !== 'string') {
    e.add('displayNameDe', 'errors.invalidField', { reason: 'text' });
    return undefined;
  }
  return value.trim() || null;
}

function parseModel(body: ComputeModelBody, creating: boolean): repo.ModelValues {
  const e = new FieldErrors();
  const internalName = requiredText(e, 'internalName', body.internalName ?? body.name, 'modelNameRequired');
  const routingPath = requiredText(e, 'routingPath', body.routingPath, 'routingPathRequired');
  if (routingPath && !routingPath.startsWith('/')) e.add('routingPath', err('routingPathSlash'));
  const storagePath = requiredText(e, 'storagePath', body.storagePath, 'storagePathRequired');
  const displayName = requiredText(e, 'displayName', body.displayName, 'displayNameRequired');
  const displayNameDe = germanName(e, body.displayNameDe);
  const version = typeof body.version === 'number' ? String(body.version) : requiredText(e, 'version', body.version, 'versionRequired');
  e.throwIfAny();
  return {
    internalName,
    routingPath,
    storagePath,
    displayName,
    displayNameDe: displayNameDe === undefined && creating ? null : displayNameDe,
    version,
    accessType: body.accessType ?? 'PRIVATE',
    isDefaultVisible: body.isDefaultVisible ?? true,
  };
}

const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};
const nameTaken = (name: string) => new AppError(409, 'MODEL_NAME_TAKEN', err('modelNameTaken'), { name });

/** The model with this id; 404 when there is none (or the id is not an id). */
export async function findModel(db: Db, id: string): Promise<ModelRow> {
  const m = isUuid(id) ? await repo.findModel(db, id) : undefined;
  if (!m) throw notFound('model');
  return m;
}

/** The model locked in the caller's transaction (promote, rollback); 404 when there is none. */
export async function lockModel(tx: Db, id: string): Promise<ModelRow> {
  const m = isUuid(id) ? await repo.lockModel(tx, id) : undefined;
  if (!m) throw notFound('model');
  return m;
}

/** Sets the model's current version (a promoted or rolled-back trained version); records the version as known. */
export async function setCurrentVersion(tx: Db, id: string, version: string): Promise<void> {
  await repo.addVersion(tx, id, version);
  await repo.setCurrentVersion(tx, id, version);
}

/** A version of the model is known (registered or reported by a launcher, or trained). */
export async function versionExists(db: Db, id: string, version: string): Promise<boolean> {
  return Boolean(await repo.findVersion(db, id, version));
}

/** Records a new version of the model (a trained candidate), so version pickers list it. */
export function addVersion(db: Db, id: string, version: string): Promise<void> {
  return repo.addVersion(db, id, version);
}

/** A signed-in user may read a model's manual and example when it is PUBLIC, granted to them, or they are ADMIN. */
export async function canUse(db: Db, model: ModelRow, userId: string, role: string): Promise<boolean> {
  if (role === 'ADMIN' || model.accessType === 'PUBLIC') return true;
  return repo.hasGrant(db, model.id, userId);
}

/** Records the versions of known models a launcher reported (health answer). */
export function recordReportedVersions(db: Db, reported: Array<{ name: string; versions: string[] }>): Promise<void> {
  return repo.addReportedVersions(db, reported);
}

/** Models the user may run: PUBLIC ones and PRIVATE ones granted to them (ADMIN sees all). */
export function listAccessibleModels(db: Db, userId: string, isAdmin: boolean): Promise<ModelRow[]> {
  return repo.listAccessibleModels(db, userId, isAdmin);
}

/** Registers the models that ship with Lamella; existing rows keep the staff's edits. */
export async function registerBuiltinModels(
  db: Db,
  models: Array<{
    internalName: string;
    displayName: string;
    displayNameDe: string;
    version: string;
    versions: string[];
    accessType: 'PUBLIC' | 'PRIVATE';
    isDefaultVisible: boolean;
  }>,
): Promise<void> {
  for (const m of models) {
    await repo.ensureModel(
      db,
      {
        internalName: m.internalName,
        routingPath: `/${m.internalName}`,
        storagePath: `builtin/${m.internalName}`,
        displayName: m.displayName,
        displayNameDe: m.displayNameDe,
        version: m.version,
        accessType: m.accessType,
        isDefaultVisible: m.isDefaultVisible,
        builtIn: true,
      },
      m.versions,
    );
  }
}

export async function list(db: Db): Promise<ComputeModel[]> {
  const [models, stats] = await Promise.all([repo.listModels(db), modelStats(db)]);
  return models.map((m) => ({ ...present(m), ...(stats.get(m.id) ?? emptyUsage()) }));
}

export async function statsList(db: Db): Promise<ModelStatsEntry[]> {
  const [ids, stats] = await Promise.all([repo.listModelIds(db), modelStats(db)]);
  return ids.map((m) => ({ id: m.id, ...(stats.get(m.id) ?? emptyUsage()) }));
}

export function shortList(db: Db): Promise<ModelShort[]> {
  return repo.listModelNames(db);
}

export async function create(db: Db, actorId: string, body: ComputeModelBody): Promise<ComputeModel> {
  const values = parseModel(body, true);
  try {
    const m = await repo.inTransaction(db, async (tx) => {
      const row = await repo.insertModel(tx, values);
      await repo.addVersion(tx, row.id, row.version);
      await recordAudit(tx, { actorId, action: 'model.create', targetType: 'model', targetId: row.id, details: { ...values } });
      return row;
    });
    return { ...present(m), ...emptyUsage() };
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(values.internalName);
    throw error;
  }
}

export async function update(db: Db, actorId: string, id: string, body: ComputeModelBody, lng: Lng): Promise<UpdatedComputeModel> {
  await findModel(db, id);
  const values = parseModel(body, false);
  try {
    const m = await repo.inTransaction(db, async (tx) => {
      const row = await repo.updateModel(tx, id, values);
      await repo.addVersion(tx, row.id, row.version);
      await recordAudit(tx, { actorId, action: 'model.update', targetType: 'model', targetId: id, details: { ...values } });
      return row;
    });
    return { ...present(m), message: say(lng, 'modelUpdated') };
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(values.internalName);
    throw error;
  }
}

/**
 * Deletes a model without jobs (grants, manuals, versions cascade). A model with jobs is never deleted (issue 26
 * item 7: customers' jobs and results would go with it): 409 MODEL_HAS_JOBS, archive it instead.
 */
export async function remove(db: Db, actorId: string, id: string): Promise<ComputeDeleted> {
  const m = await findModel(db, id);
  await repo.inTransaction(db, async (tx) => {
    if (await repo.hasJobs(tx, m.id)) throw new AppError(409, 'MODEL_HAS_JOBS', err('modelHasJobs'));
    await repo.deleteModel(tx, m.id);
    await recordAudit(tx, { actorId, action: 'model.delete', targetType: 'model', targetId: m.id, details: { internalName: m.internalName } });
  });
  return { id: m.id, deleted: true };
}

/** Archives (hides from users, keeps jobs) or brings back a model; audited. Idempotent. */
export async function setArchived(db: Db, actorId: string, id: string, archived: boolean): Promise<ComputeModel> {
  const m = await findModel(db, id);
  const row = await repo.inTransaction(db, async (tx) => {
    const r = await repo.updateModel(tx, m.id, { archivedAt: archived ? (m.archivedAt ?? new Date()) : null });
    await recordAudit(tx, {
      actorId,
      action: archived ? 'model.archive' : 'model.unarchive',
      targetType: 'model',
      targetId: m.id,
      details: { internalName: m.internalName },
    });
    return r;
  });
  const stats = await modelStats(db);
  return { ...present(row), ...(stats.get(row.id) ?? emptyUsage()) };
}

export async function versions(db: Db, id: string): Promise<ModelVersion[]> {
  const m = await findModel(db, id);
  return (await repo.listVersions(db, m.id)).map((v) => ({
    version: v.version,
    isCurrent: v.version === m.version,
    hasSettingsSchema: v.settingsSchema !== null,
    createdAt: v.createdAt.toISOString(),
  }));
}

export async function accessList(db: Db, id: string): Promise<ModelAccessGrant[]> {
  const m = await findModel(db, id);
  const grants = await repo.listGrants(db, m.id);
  // who holds each grant comes from the users domain
  const holders = await Promise.all(grants.map((g) => findUserById(db, g.userId)));
  return grants
    .map((g, i) => ({
      id: g.id,
      userId: g.userId,
      user: { name: holders[i]?.name ?? null, surname: holders[i]?.surname ?? null, email: holders[i]?.email ?? '' },
      createdAt: g.createdAt.toISOString(),
    }))
    .sort((a, b) => (a.user.surname ?? '').localeCompare(b.user.surname ?? '') || (a.user.name ?? '').localeCompare(b.user.name ?? ''));
}

export async function grant(db: Db, actorId: string, id: string, userId: string | undefined, lng: Lng): Promise<ModelAccessChanged> {
  const m = await findModel(db, id);
  if (!isUuid(userId)) new FieldErrors().add('userId', err('userRequired')).throwIfAny();
  const uid = userId as string;
  if (!(await findUserById(db, uid))) throw notFound('user');
  await repo.inTransaction(db, async (tx) => {
    if (!(await repo.addGrant(tx, m.id, uid))) throw notFound('user');
    await recordAudit(tx, { actorId, action: 'model.access.grant', targetType: 'model', targetId: m.id, details: { userId: uid } });
  });
  return { modelId: m.id, userId: uid, message: say(lng, 'accessGranted') };
}

export async function revoke(db: Db, actorId: string, id: string, userId: string, lng: Lng): Promise<ModelAccessChanged> {
  const m = await findModel(db, id);
  await repo.inTransaction(db, async (tx) => {
    if (!(await repo.removeGrant(tx, m.id, userId))) throw notFound('access');
    await recordAudit(tx, { actorId, action: 'model.access.revoke', targetType: 'model', targetId: m.id, details: { userId } });
  });
  return { modelId: m.id, userId, message: say(lng, 'accessRevoked') };
}

export async function example(db: Db, id: string): Promise<ModelExample> {
  const m = await findModel(db, id);
  return { contentEn: m.exampleEn ?? '', contentDe: m.exampleDe ?? '' };
}

export async function saveExample(db: Db, actorId: string, id: string, body: ModelExampleBody, lng: Lng) {
  const m = await findModel(db, id);
  const e = new FieldErrors();
  // Rich-text editors send "<p></p>" for an empty document: emptiness is judged on the text, after sanitising.
  const clean = (field: string, v: string | undefined) => {
    const html = typeof v === 'string' ? cleanHtml(v) : '';
    const visible = html
      .replace(/<img\b/gi, 'x<img')
      .replace(/<[^>]*>/g, '')
      .replace(/&nbsp;/g, ' ')
      .trim();
    if (!visible) e.add(field, err('contentRequired'));
    return html;
  };
  const contentEn = clean('contentEn', body.contentEn);
  const contentDe = clean('contentDe', body.contentDe);
  e.throwIfAny();
  await repo.inTransaction(db, async (tx) => {
    await repo.updateModel(tx, m.id, { exampleEn: contentEn, exampleDe: contentDe });
    await recordAudit(tx, { actorId, action: 'model.example.update', targetType: 'model', targetId: m.id });
  });
  return { contentEn, contentDe, message: say(lng, 'exampleUpdated') };
}

async function readManual(db: Db, modelId: string, position: repo.ManualPosition, language: 'en' | 'de'): Promise<ModelManual> {
  const row = await repo.findManual(db, modelId, position, language);
  return { modelId, position, language, text: row?.text ?? '', updatedAt: row?.updatedAt.toISOString() ?? null };
}

export async function manual(db: Db, id: string, position: repo.ManualPosition, language: 'en' | 'de'): Promise<ModelManual> {
  const m = await findModel(db, id);
  return readManual(db, m.id, position, language);
}

export async function saveManual(db: Db, actorId: string, id: string, body: ModelManualBody, lng: Lng) {
  const m = await findModel(db, id);
  const { text, position, language } = body;
  const e = new FieldErrors();
  // An empty manual is allowed: it removes the info box.
  if (typeof text !== 'string') e.add('text', err('textRequired'));
  if (!POSITIONS.includes(position as 'TOP')) e.add('position', err('positionInvalid'));
  if (!LANGUAGES.includes(language as 'en')) e.add('language', err('languageInvalid'));
  e.throwIfAny();
  const html = cleanHtml(text as string);
  await repo.inTransaction(db, async (tx) => {
    await repo.upsertManual(tx, m.id, position as repo.ManualPosition, language as string, html);
    await recordAudit(tx, { actorId, action: 'model.manual.update', targetType: 'model', targetId: m.id, details: { position, language } });
  });
  return { ...(await readManual(db, m.id, position as repo.ManualPosition, language as 'en')), message: say(lng, 'manualUpdated') };
}

/** User side (results page): the manual of a model the caller may use; 404 otherwise. */
export async function userManual(
  db: Db,
  user: { id: string; role: string },
  modelId: string,
  position: repo.ManualPosition,
  language: 'en' | 'de',
): Promise<ModelManual> {
  const m = await findModel(db, modelId);
  if (!(await canUse(db, m, user.id, user.role))) throw notFound('model');
  return readManual(db, m.id, position, language);
}

export async function userExample(db: Db, user: { id: string; role: string }, modelId: string): Promise<ModelExample> {
  const m = await findModel(db, modelId);
  if (!(await canUse(db, m, user.id, user.role))) throw notFound('model');
  return { contentEn: m.exampleEn ?? '', contentDe: m.exampleDe ?? '' };
}
