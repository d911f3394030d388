import { translate, type Language } from '@lamella/i18n';
import type {
  CustomizationGroupVersion,
  CustomizationChainEntry,
  CustomizationGroup,
  CustomizationGroupBody,
  CustomizationGroupChanged,
  CustomizationGroupDeleted,
  CustomizationMemberChanged,
  CustomizationParentsBody,
  CustomizationResolvedSettings,
  CustomizationSettings,
  CustomizationSettingsSaved,
  ModelCustomization,
  ModelSettingsDefaults,
  SettingsValidationResult,
  ValidateSettingsBody,
} from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import type { AuthContext } from '../../platform/auth/session.ts';
import { AppError, notFound, type ErrorDetail } from '../../platform/http/errors.ts';
import { FieldErrors } from '../../platform/http/field-errors.ts';
import { recordAudit } from '../audit/service.ts';
import { findUserById } from '../users/service.ts';
import { canUse, findModel, modelSettingsSource, validateAgainst, versionExists } from '../compute-models/service.ts';
import { findCycle, inheritanceChain, resolveSettings, sortParents, type Json } from './resolve.ts';
import * as repo from './repo.ts';

/**
 * Customization groups (back-office.md §2 "Customization groups screen", §4 inheritance, §5, §7, §8).
 * ADMIN only: §6 gives this page no permission a POWER_USER could hold, so power users do not see it.
 * Every change is recorded in the audit log. Decisions where the spec is silent:
 * - A user is a member of at most one group per model (adding them to a second group of the same model is
 *   409 CUSTOMIZATION_MEMBER_CONFLICT naming the other group); that group is what their jobs of the model run with.
 * - Parents may belong to another model (the same-model restriction is an optional filter of the screen).
 *   `POST .../parents` replaces the whole set; self-parent (400 CUSTOMIZATION_SELF_PARENT) and cycles
 *   (400 CUSTOMIZATION_CYCLE) are refused.
 * - Resolved settings: model defaults ← parents (priority 0 is the strongest) ← the group's own settings,
 *   deep-merged (resolve.ts).
 * - A group's own settings are validated with Ajv against its model's settings schema before saving (and again
 *   when the group is moved to another model). Resolved settings are not re-validated: a parent of another
 *   model may bring values the model refuses, which then fails the job with the model's own message.
 * - Jobs: a member's jobs of the group's model run with the resolved settings and record the group
 *   (`jobs.customization_id`); see `resolveJobSettings`.
 */
const NAME_MAX = 200;
const DESCRIPTION_MAX = 5000;
const isUuid = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);
const message = (lang: Language, key: string) => translate(lang, `adminMessages.${key}`);
/** The staff member behind a request: the impersonating admin when impersonating. */
const actorOf = (auth: AuthContext) => auth.impersonatorId ?? auth.user.id;
const audit = (db: Db, auth: AuthContext, action: string, groupId: string, details: Record<string, unknown> = {}) =>
  recordAudit(db, { actorId: actorOf(auth), action, targetType: 'customization_group', targetId: groupId, details });
const asDb = (tx: unknown) => tx as Db;

async function findGroup(db: Db, id: string): Promise<repo.GroupRow> {
  const g = isUuid(id) ? await repo.findGroup(db, id) : null;
  if (!g) throw notFound('customization group');
  return g;
}

/** Groups as the screen shows them: model, members (by surname), parents (priority order, 0 first). */
async function presentGroups(db: Db, ids?: string[]): Promise<CustomizationGroup[]> {
  const { groups, members, parents } = await repo.groupsWithLinks(db, ids);
  return groups.map(({ g, model }) => ({
    id: g.id,
    nameEn: g.nameEn,
    nameDe: g.nameDe,
    description: g.description,
    modelId: g.modelId,
    model,
    modelVersion: g.modelVersion ?? null,
    members: members.filter((m) => m.groupId === g.id).map(({ groupId: _g, ...m }) => m),
    parents: sortParents(parents.filter((p) => p.groupId === g.id)).map((p) => ({
      parentId: p.parentId,
      priority: p.priority,
      parent: { id: p.parentId, nameEn: p.nameEn, nameDe: p.nameDe },
    })),
    createdAt: g.createdAt.toISOString(),
    updatedAt: g.updatedAt.toISOString(),
  }));
}

async function changed(db: Db, id: string, lang: Language, key: string): Promise<CustomizationGroupChanged> {
  const [g] = await presentGroups(db, [id]);
  return { ...g, message: message(lang, key) };
}

async function schemaOf(db: Db, modelId: string) {
  const source = await modelSettingsSource(db, modelId);
  if (!source) throw notFound('model');
  return source;
}

/** 400 SETTINGS_INVALID naming each Ajv error (path and reason) when `settings` do not match the schema. */
function assertValid(schema: Json, settings: Json): void {
  const errors = validateAgainst(schema, settings);
  if (!errors) return;
  const details: ErrorDetail[] = errors.map((e) => ({
    field: `settings${e.instancePath.replace(/\//g, '.')}`,
    key: 'adminErrors.schemaError',
    vars: { path: e.instancePath || '/', reason: e.message },
  }));
  throw new AppError(400, 'SETTINGS_INVALID', 'adminErrors.settingsInvalid', {}, details);
}

function parseGroup(body: CustomizationGroupBody) {
  const e = new FieldErrors();
  const nameEn = (body.nameEn ?? '').trim();
  const nameDe = (body.nameDe ?? '').trim();
  if (!nameEn) e.add('nameEn', 'adminErrors.groupNameRequired');
  if (!nameDe) e.add('nameDe', 'adminErrors.groupNameRequired');
  if (nameEn.length > NAME_MAX) e.add('nameEn', 'adminErrors.tooLong', { max: NAME_MAX });
  if (nameDe.length > NAME_MAX) e.add('nameDe', 'adminErrors.tooLong', { max: NAME_MAX });
  const modelId = (body.modelId ?? '').trim();
  if (!modelId) e.add('modelId', 'adminErrors.modelRequired');
  else if (!isUuid(modelId)) e.add('modelId', 'adminErrors.modelUnknown');
  if (body.description && body.description.length > DESCRIPTION_MAX) e.add('description', 'adminErrors.tooLong', { max: DESCRIPTION_MAX });
  e.throwIfAny();
  return { nameEn, nameDe, modelId, description: body.description?.trim() || null };
}

async function assertModelExists(db: Db, modelId: string): Promise<void> {
  if (!(await repo.modelExists(db, modelId))) new FieldErrors().add('modelId', 'adminErrors.modelUnknown').throwIfAny();
}

/**
 * 409 when one of `userIds` is already a member of another group of `modelId`. Runs inside the caller's
 * transaction after locking the users' rows, so two concurrent additions cannot both pass.
 */
async function assertNoOtherGroup(tx: Db, groupId: string, modelId: string, userIds: string[]): Promise<void> {
  if (!userIds.length) return;
  const other = await repo.lockUsersAndFindOtherGroup(tx, groupId, modelId, userIds);
  if (other) throw new AppError(409, 'CUSTOMIZATION_MEMBER_CONFLICT', 'adminErrors.memberInOtherGroup', { group: other.nameEn });
}

/**
 * The settings a user's jobs of a model run with (passed to the jobs module): with an explicit group of that
 * model (the admin sandbox's customizationId), that group; otherwise the group of the model the user is a
 * member of; otherwise none (`{}`: the model applies its own defaults). The settings are the resolved
 * settings, except that a `modelVersion` coming only from the model defaults is left out, so a job runs on
 * the model's current version unless a group sets one.
 */
export async function resolveJobSettings(
  db: Db,
  userId: string,
  modelId: string,
  customizationId?: string | null,
): Promise<{ customizationId: string | null; settings: Record<string, unknown> }> {
  const group =
    (customizationId && isUuid(customizationId) ? await repo.findGroupOfModel(db, customizationId, modelId) : null) ??
    (await repo.memberGroup(db, userId, modelId));
  if (!group) return { customizationId: null, settings: {} };
  const [source, graph] = await Promise.all([schemaOf(db, modelId), repo.loadGraph(db)]);
  const { modelVersion: _v, ...defaults } = source.defaults;
  const settings = resolveSettings(graph, group.id, defaults);
  // issue 25: the version chosen for the group (a customer's own trained version) wins over the settings' one
  return { customizationId: group.id, settings: group.modelVersion ? { ...settings, modelVersion: group.modelVersion } : settings };
}

/**
 * The model version a group's members' jobs run with (issue 25: a customer's own trained version); null: the
 * model's current version. The version must be one of the group's model (400 naming `version`); audit-logged.
 */
export async function setGroupVersion(
  db: Db,
  auth: AuthContext,
  id: string,
  version: string | null,
  lang: Language,
): Promise<CustomizationGroupVersion> {
  const group = await findGroup(db, id);
  const v = version?.trim() || null;
  if (v !== null && !(await versionExists(db, group.modelId, v)))
    throw new AppError(400, 'VALIDATION_FAILED', 'errors.validationFailed', {}, [
      { field: 'version', key: 'adminErrors.trainingBaseVersion', vars: { version: v } },
    ]);
  await db.transaction(async (t) => {
    const tx = asDb(t);
    await repo.updateGroup(tx, group.id, { modelVersion: v });
    await audit(tx, auth, 'customization.version.set', group.id, { modelId: group.modelId, version: v, was: group.modelVersion });
  });
  return { groupId: group.id, modelId: group.modelId, version: v, message: message(lang, 'groupVersionSet') };
}

export const listGroups = (db: Db): Promise<CustomizationGroup[]> => presentGroups(db);

export async function createGroup(db: Db, auth: AuthContext, body: CustomizationGroupBody, lang: Language): Promise<CustomizationGroupChanged> {
  const values = parseGroup(body);
  await assertModelExists(db, values.modelId);
  const g = await db.transaction(async (tx) => {
    const row = await repo.insertGroup(asDb(tx), values);
    await audit(asDb(tx), auth, 'customization.group.create', row.id, values);
    return row;
  });
  return changed(db, g.id, lang, 'groupCreated');
}

export async function updateGroup(
  db: Db,
  auth: AuthContext,
  id: string,
  body: CustomizationGroupBody,
  lang: Language,
): Promise<CustomizationGroupChanged> {
  const group = await findGroup(db, id);
  const values = parseGroup(body);
  await assertModelExists(db, values.modelId);
  await db.transaction(async (t) => {
    const tx = asDb(t);
    if (values.modelId !== group.modelId) {
      // Moving the group to another model: its members must be free there, and its settings must fit.
      await assertNoOtherGroup(tx, group.id, values.modelId, await repo.memberIds(tx, group.id));
      assertValid((await schemaOf(tx, values.modelId)).schema, group.settings ?? {});
    }
    // a version chosen for the group is a version of its model: moving the group to another model drops it
    await repo.updateGroup(tx, group.id, values.modelId !== group.modelId ? { ...values, modelVersion: null } : values);
    await audit(tx, auth, 'customization.group.update', group.id, values);
  });
  return changed(db, group.id, lang, 'groupEdited');
}

/** Links to it as a parent go with it (cascade); jobs that ran with it keep their settings (customizationId → null). */
export async function deleteGroup(db: Db, auth: AuthContext, id: string, lang: Language): Promise<CustomizationGroupDeleted> {
  const group = await findGroup(db, id);
  await db.transaction(async (t) => {
    await repo.deleteGroup(asDb(t), group.id);
    await audit(asDb(t), auth, 'customization.group.delete', group.id, { nameEn: group.nameEn });
  });
  return { id: group.id, deleted: true, message: message(lang, 'groupDeleted') };
}

/** A copy with the settings, description and parents (same priorities); members are not copied (one group per model). */
export async function cloneGroup(db: Db, auth: AuthContext, id: string, lang: Language): Promise<CustomizationGroupChanged> {
  const group = await findGroup(db, id);
  const copy = await db.transaction(async (t) => {
    const tx = asDb(t);
    const c = await repo.insertGroup(tx, {
      nameEn: `${group.nameEn} (copy)`.slice(0, NAME_MAX + 10),
      nameDe: `${group.nameDe} (Kopie)`.slice(0, NAME_MAX + 10),
      description: group.description,
      modelId: group.modelId,
      settings: group.settings ?? {},
    });
    await repo.replaceParents(tx, c.id, await repo.parentLinks(tx, group.id));
    await audit(tx, auth, 'customization.group.clone', c.id, { from: group.id });
    return c;
  });
  return changed(db, copy.id, lang, 'groupCloned');
}

export async function addMember(
  db: Db,
  auth: AuthContext,
  id: string,
  userId: string | undefined,
  lang: Language,
): Promise<CustomizationMemberChanged> {
  const group = await findGroup(db, id);
  if (!isUuid(userId)) new FieldErrors().add('userId', 'adminErrors.userRequired').throwIfAny();
  const user = await findUserById(db, userId!);
  if (!user) throw notFound('user');
  await db.transaction(async (t) => {
    const tx = asDb(t);
    await assertNoOtherGroup(tx, group.id, group.modelId, [user.id]);
    await repo.insertMember(tx, group.id, user.id);
    await audit(tx, auth, 'customization.member.add', group.id, { userId: user.id });
  });
  return { groupId: group.id, userId: user.id, message: message(lang, 'memberAdded') };
}

export async function removeMember(db: Db, auth: AuthContext, id: string, userId: string, lang: Language): Promise<CustomizationMemberChanged> {
  const group = await findGroup(db, id);
  await db.transaction(async (t) => {
    if (!(await repo.deleteMember(asDb(t), group.id, userId))) throw notFound('member');
    await audit(asDb(t), auth, 'customization.member.remove', group.id, { userId });
  });
  return { groupId: group.id, userId, message: message(lang, 'memberRemoved') };
}

/** Replaces the parent set (the screen sends every parent with its new priority, for adding and reordering). */
export async function setParents(
  db: Db,
  auth: AuthContext,
  id: string,
  body: CustomizationParentsBody,
  lang: Language,
): Promise<CustomizationGroupChanged> {
  const group = await findGroup(db, id);
  const e = new FieldErrors();
  const parents: Array<{ parentId: string; priority: number }> = [];
  const seen = new Set<string>();
  body.parents.forEach((p, i) => {
    if (!isUuid(p.parentId)) e.add(`parents.${i}.parentId`, 'adminErrors.parentUnknown', { parent: p.parentId });
    else if (seen.has(p.parentId)) e.add(`parents.${i}.parentId`, 'adminErrors.parentDuplicate', { parent: p.parentId });
    // A missing priority means the list order.
    const priority = p.priority ?? i;
    if (!Number.isInteger(priority) || priority < 0 || priority > 1_000_000) e.add(`parents.${i}.priority`, 'adminErrors.priorityInvalid');
    if (isUuid(p.parentId)) seen.add(p.parentId);
    parents.push({ parentId: p.parentId, priority });
  });
  e.throwIfAny();
  const self = parents.findIndex((p) => p.parentId === group.id);
  if (self >= 0)
    throw new AppError(400, 'CUSTOMIZATION_SELF_PARENT', 'adminErrors.selfParent', {}, [
      { field: `parents.${self}.parentId`, key: 'adminErrors.selfParent' },
    ]);
  await db.transaction(async (t) => {
    const tx = asDb(t);
    await repo.lockParents(tx);
    const graph = await repo.loadGraph(tx);
    const unknown = parents.findIndex((p) => !graph.has(p.parentId));
    if (unknown >= 0) e.add(`parents.${unknown}.parentId`, 'adminErrors.parentUnknown', { parent: parents[unknown].parentId }).throwIfAny();
    const cyclic = findCycle(
      graph,
      group.id,
      parents.map((p) => p.parentId),
    );
    if (cyclic) {
      const vars = { parent: (await repo.groupName(tx, cyclic)) ?? cyclic };
      const i = parents.findIndex((x) => x.parentId === cyclic);
      throw new AppError(400, 'CUSTOMIZATION_CYCLE', 'adminErrors.parentCycle', vars, [
        { field: `parents.${i}.parentId`, key: 'adminErrors.parentCycle', vars },
      ]);
    }
    await repo.replaceParents(tx, group.id, parents);
    await repo.updateGroup(tx, group.id, {});
    await audit(tx, auth, 'customization.parents.set', group.id, { parents });
  });
  return changed(db, group.id, lang, 'parentsAdded');
}

export async function removeParent(db: Db, auth: AuthContext, id: string, parentId: string, lang: Language): Promise<CustomizationGroupChanged> {
  const group = await findGroup(db, id);
  await db.transaction(async (t) => {
    if (!(await repo.deleteParent(asDb(t), group.id, parentId))) throw notFound('parent');
    await audit(asDb(t), auth, 'customization.parent.remove', group.id, { parentId });
  });
  return changed(db, group.id, lang, 'parentRemoved');
}

/** The ancestors, strongest first: each with its depth (1 = direct parent) and, for direct parents, the priority. */
export async function chain(db: Db, id: string): Promise<CustomizationChainEntry[]> {
  const group = await findGroup(db, id);
  const graph = await repo.loadGraph(db);
  const ids = inheritanceChain(graph, group.id);
  if (!ids.length) return [];
  const byId = new Map((await repo.groupsNamed(db, ids)).map((r) => [r.id, r]));
  // Depth: shortest distance from the group along parent links.
  const depth = new Map<string, number>([[group.id, 0]]);
  const queue = [group.id];
  while (queue.length) {
    const at = queue.shift()!;
    for (const p of graph.get(at)?.parents ?? []) {
      if (!depth.has(p.parentId)) {
        depth.set(p.parentId, depth.get(at)! + 1);
        queue.push(p.parentId);
      }
    }
  }
  const direct = new Map((graph.get(group.id)?.parents ?? []).map((p) => [p.parentId, p.priority]));
  return ids.filter((g) => byId.has(g)).map((g, order) => ({ ...byId.get(g)!, order, depth: depth.get(g) ?? null, priority: direct.get(g) ?? null }));
}

export async function settings(db: Db, id: string): Promise<CustomizationSettings> {
  const group = await findGroup(db, id);
  return { groupId: group.id, modelId: group.modelId, settings: group.settings ?? {}, updatedAt: group.updatedAt.toISOString() };
}

export async function saveSettings(db: Db, auth: AuthContext, id: string, value: Json, lang: Language): Promise<CustomizationSettingsSaved> {
  const group = await findGroup(db, id);
  assertValid((await schemaOf(db, group.modelId)).schema, value);
  const g = await db.transaction(async (t) => {
    const row = await repo.updateGroup(asDb(t), group.id, { settings: value });
    await audit(asDb(t), auth, 'customization.settings.set', group.id, { settings: value });
    return row;
  });
  return {
    groupId: g.id,
    modelId: g.modelId,
    settings: g.settings ?? {},
    updatedAt: g.updatedAt.toISOString(),
    message: message(lang, 'settingsUpdated'),
  };
}

export async function resolvedSettings(db: Db, id: string): Promise<CustomizationResolvedSettings> {
  const group = await findGroup(db, id);
  const [source, graph] = await Promise.all([schemaOf(db, group.modelId), repo.loadGraph(db)]);
  return { groupId: group.id, modelId: group.modelId, version: source.version, settings: resolveSettings(graph, group.id, source.defaults) };
}

export async function modelDefaults(db: Db, modelId: string): Promise<ModelSettingsDefaults> {
  const source = await schemaOf(db, modelId);
  return { modelId: source.modelId, version: source.version, source: source.source, defaults: source.defaults, schema: source.schema };
}

/** null when valid, else Ajv's errors [{instancePath, message}] (200 either way: the answer is the result). */
export async function validate(db: Db, body: ValidateSettingsBody): Promise<SettingsValidationResult> {
  const { modelId, groupId, settings: value } = body;
  let target: string | null = null;
  if (modelId) target = (await findModel(db, modelId)).id;
  else if (groupId) target = (await findGroup(db, groupId)).modelId;
  if (!target) new FieldErrors().add('modelId', 'adminErrors.modelRequired').throwIfAny();
  return validateAgainst((await schemaOf(db, target!)).schema, value === undefined ? {} : value);
}

/** The groups of a model the caller may use: every group for ADMIN, for anyone else only the group they are a member of. */
export async function forModel(db: Db, auth: AuthContext, modelId: string): Promise<ModelCustomization[]> {
  const m = await findModel(db, modelId);
  if (!(await canUse(db, m, auth.user.id, auth.user.role))) throw notFound('model');
  return repo.groupsOfModel(db, m.id, auth.user.role === 'ADMIN' ? null : auth.user.id);
}
