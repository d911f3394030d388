import {
  emailRule,
  type AcceptProjectFieldBody,
  type AddProjectImagesBody,
  type Job,
  type ProjectField,
  type ProjectFieldJob,
  type Project,
  type MyProjectInvitation,
  type ProjectAccess,
  type ProjectImage,
  type ProjectInvitationAnswer,
  PROJECT_INVITES_PER_DAY,
  type ProjectTemplateOption,
  type ShareProjectBody,
  type StatusOk,
  type UpdateProjectBody,
} from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type { Limiter } from '../../platform/http/rate-limit.ts';
import { renderMail } from '../../platform/mail/mailer.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { AppError, notFound, validationFailed } from '../../platform/http/errors.ts';
import { FieldErrors } from '../../platform/http/field-errors.ts';
import { findUserByEmail, findUserById, normalizeEmail } from '../users/service.ts';
import { notify } from '../notifications/service.ts';
import { imagesByIds, ownLiveImageIds } from '../images/lookup-service.ts';
import { presentProjectJobs } from '../jobs/service.ts';
import { translate, type Language } from '@lamella/i18n';
import * as templates from '../templates/service.ts';
import * as repo from './repo.ts';

export interface ProjectsDeps {
  db: Db;
  mailer: Mailer;
  realtime: Pick<Realtime, 'emitToUser'>;
  /** The web app's address, for the invitation mail's link. */
  publicUrl: string;
  /** Counts invitations per user and day (issue 28 item 4); absent: no limit. */
  limiter?: Pick<Limiter, 'hit'>;
  log?: (message: string) => void;
}

const fullName = (u: { name: string; surname: string; email: string } | undefined) => (u ? `${u.name} ${u.surname}`.trim() || u.email : '');

/** Presents projects with the caller's access, the owner's name and the number of images. */
async function presentAll(db: Db, userId: string, rows: repo.ProjectRow[]): Promise<Project[]> {
  const ids = rows.map((p) => p.id);
  const [roles, counts] = await Promise.all([repo.shareRolesOf(db, userId, ids), repo.imageCounts(db, ids)]);
  const owners = new Map<string, string>();
  for (const ownerId of new Set(rows.map((p) => p.ownerId))) owners.set(ownerId, fullName(await findUserById(db, ownerId)));
  return rows.map((p) => ({
    id: p.id,
    name: p.name,
    description: p.description,
    isOwner: p.ownerId === userId,
    access: p.ownerId === userId ? 'OWNER' : (roles.get(p.id) ?? 'VIEWER'),
    ownerName: owners.get(p.ownerId) ?? '',
    templateId: p.templateId,
    imageCount: counts.get(p.id) ?? 0,
    createdAt: p.createdAt.toISOString(),
  }));
}
const present = async (db: Db, p: repo.ProjectRow, userId: string): Promise<Project> => (await presentAll(db, userId, [p]))[0];

type Person = { id: string; email: string; name: string; surname: string };

/**
 * Projects group a user's jobs and can be shared (user-app.md says only that a project can be deleted and
 * opened by ?project=, and that sharing notifies with PROJECT_SHARED). Owners manage; people it is shared
 * with see it. Pending invitations of the caller's (verified) address become shares on every read.
 */
export async function list(deps: ProjectsDeps, user: Person): Promise<Project[]> {
  await activateInvitations(deps, user);
  return presentAll(deps.db, user.id, await repo.listVisible(deps.db, user.id));
}

export async function create(db: Db, userId: string, body: { name: string; description?: string }): Promise<Project> {
  const name = body.name.trim();
  if (!name) throw validationFailed([{ field: 'name', key: 'validation.required' }]);
  return present(db, await repo.insert(db, { ownerId: userId, name, description: body.description?.trim() || null }), userId);
}

export interface ProjectForJobs {
  templateSettings: Record<string, unknown> | null;
  addImages: (imageIds: string[]) => Promise<void>;
}

/**
 * A project as the jobs module needs it (app.ts gives it to the jobs plugin): null unless the user may add jobs
 * (they own it or it is shared with them as EDITOR), else the settings of its applied template.
 */
export async function projectForJobs(db: Db, userId: string, projectId: string): Promise<ProjectForJobs | null> {
  const project = await repo.editableBy(db, userId, projectId);
  if (!project) return null;
  // A template deleted after it was applied leaves the project without one.
  const template = project.templateId ? await templates.get(db, project.templateId).catch(() => null) : null;
  return {
    templateSettings: template?.settings ?? null,
    // The jobs module checked that the images are the caller's own.
    addImages: (imageIds) => repo.addImages(db, projectId, imageIds, userId),
  };
}

/** Only the owner deletes a project (its images stay in the library; its jobs lose the project). */
export async function remove(db: Db, userId: string, id: string): Promise<void> {
  await visible(db, userId, id, 'owner');
  if (!(await repo.removeOwn(db, userId, id))) throw notFound('project');
}

/** PROJECT_INVITES_PER_DAY (default 20): invitations one user may send in 24 hours (issue 28 item 4). */
export const invitesPerDay = () => {
  const v = Number(process.env.PROJECT_INVITES_PER_DAY ?? PROJECT_INVITES_PER_DAY);
  return Number.isInteger(v) && v > 0 ? v : PROJECT_INVITES_PER_DAY;
};
const DAY_MS = 86_400_000;

/**
 * Shares a project the caller owns with an address: always an invitation, whatever the address (issue 28 item 4).
 * The answer and the project's access list are the same whether or not the address has an account, is blocked or
 * is new: the invitee's name appears only once they accept. A user of that address gets a PROJECT_INVITATION
 * notification; every address but a blocked account's gets a mail that carries no text of the sharer's but the
 * project's name. At most PROJECT_INVITES_PER_DAY invitations per user a day (429, counted before anything is sent).
 */
export async function share(deps: ProjectsDeps, owner: Person & { language: string }, projectId: string, body: ShareProjectBody): Promise<StatusOk> {
  const email = normalizeEmail(body.email);
  new FieldErrors().add('email', emailRule(email)).throwIfAny();
  const { project } = await visible(deps.db, owner.id, projectId, 'owner');
  if (email === normalizeEmail(owner.email)) throw validationFailed([{ field: 'email', key: 'errors.shareWithSelf' }]);
  await deps.limiter?.hit([[`project-invites:${owner.id}`, { max: invitesPerDay(), windowMs: DAY_MS }]], 'projects.errors.tooManyInvitations');
  const role = body.role ?? 'VIEWER';
  const target = await findUserByEmail(deps.db, email);
  const member = target ? await repo.findVisible(deps.db, target.id, project.id) : undefined;
  // already a member: nothing to invite (and nothing to tell)
  if (member) return { status: 'OK' };
  await repo.upsertInvitation(deps.db, { projectId: project.id, email, role, invitedById: owner.id });
  if (target && target.role === 'BLOCKED') return { status: 'OK' };
  if (target) await notifyInvitations(deps, target);
  const mail = renderMail('projectInvitation', target?.language ?? owner.language, {
    name: email,
    link: target ? `${deps.publicUrl}/projects` : `${deps.publicUrl}/auth/register`,
    project: project.name,
  });
  deps.mailer.send({ to: email, ...mail }).catch((err: Error) => deps.log?.(`project invitation mail to ${email} failed: ${err.message}`));
  return { status: 'OK' };
}

/** A PROJECT_INVITATION notification for each invitation of the user's address that has none yet. */
async function notifyInvitations(deps: Pick<ProjectsDeps, 'db' | 'realtime'>, user: Pick<Person, 'id' | 'email'>): Promise<number> {
  const waiting = await repo.pendingInvitationsOf(deps.db, normalizeEmail(user.email));
  const told = await repo.notifiedInvitations(
    deps.db,
    user.id,
    waiting.map((w) => w.id),
  );
  let n = 0;
  for (const w of waiting) {
    if (told.has(w.id) || w.ownerId === user.id) continue;
    await notify(deps.db, deps.realtime, user.id, 'PROJECT_INVITATION', { invitationId: w.id, projectId: w.projectId, projectName: w.projectName });
    n++;
  }
  return n;
}

/**
 * Called before a user's notifications are listed: the invitations of their address made before they had an
 * account get their PROJECT_INVITATION notification. Nothing is shared until the user accepts.
 */
export async function activateInvitations(deps: Pick<ProjectsDeps, 'db' | 'realtime'>, user: Pick<Person, 'id' | 'email'>): Promise<number> {
  return notifyInvitations(deps, user);
}

/** The caller's invitations waiting for an answer. */
export async function myInvitations(db: Db, user: Pick<Person, 'id' | 'email'>): Promise<MyProjectInvitation[]> {
  return (await repo.pendingInvitationsOf(db, normalizeEmail(user.email)))
    .filter((w) => w.ownerId !== user.id)
    .map((w) => ({ id: w.id, projectId: w.projectId, projectName: w.projectName, role: w.role as repo.ShareRole }));
}

/**
 * The invitee answers an invitation of their address: accepting makes the share (the owner then sees their name),
 * declining removes it. An invitation that is not theirs or no longer waits: 404.
 */
export async function answerInvitation(
  deps: Pick<ProjectsDeps, 'db'>,
  user: Pick<Person, 'id' | 'email'> & { language: string },
  id: string,
  accept: boolean,
): Promise<ProjectInvitationAnswer> {
  const invitation = await repo.takeInvitation(deps.db, id, normalizeEmail(user.email));
  if (!invitation) throw notFound('invitation');
  if (accept)
    await repo.upsertShare(deps.db, { projectId: invitation.projectId, userId: user.id, role: invitation.role, sharedById: invitation.invitedById });
  const lng = (user.language === 'de' ? 'de' : 'en') as Language;
  return {
    projectId: invitation.projectId,
    accepted: accept,
    message: translate(lng, accept ? 'projects.invitation.accepted' : 'projects.invitation.declined'),
  };
}

const readOnly = () => new AppError(403, 'PROJECT_READ_ONLY', 'projects.errors.readOnly');

/** The project if the user has access to it (owner or share), else 404; `write`: a VIEWER gets 403. */
async function visible(db: Db, userId: string, id: string, need: 'read' | 'write' | 'owner' = 'read') {
  const found = await repo.findVisible(db, userId, id);
  if (!found) throw notFound('project');
  if (need === 'write' && found.access === 'VIEWER') throw readOnly();
  if (need === 'owner' && found.access !== 'OWNER')
    throw found.access === 'VIEWER' ? readOnly() : new AppError(403, 'PROJECT_OWNER_ONLY', 'projects.errors.ownerOnly');
  return found;
}

export async function get(db: Db, userId: string, id: string): Promise<Project> {
  return present(db, (await visible(db, userId, id)).project, userId);
}

/** Renames, describes or applies a settings template (owner or EDITOR); an unknown template: 404. */
export async function update(db: Db, userId: string, id: string, body: UpdateProjectBody): Promise<Project> {
  const { project } = await visible(db, userId, id, 'write');
  const set: Parameters<typeof repo.update>[2] = {};
  if (body.name !== undefined) {
    const name = body.name.trim();
    if (!name) throw validationFailed([{ field: 'name', key: 'validation.required' }]);
    set.name = name;
  }
  if (body.description !== undefined) set.description = body.description?.trim() || null;
  if (body.templateId !== undefined) {
    if (body.templateId !== null) await templates.get(db, body.templateId);
    set.templateId = body.templateId;
  }
  const row = Object.keys(set).length ? await repo.update(db, project.id, set) : project;
  return present(db, row, userId);
}

/** The settings templates a project can apply (names only; ADMIN manages them under /admin/project-settings-templates). */
export async function templateOptions(db: Db): Promise<ProjectTemplateOption[]> {
  return (await templates.list(db)).map((t) => ({ id: t.id, name: t.name, description: t.description ?? null }));
}

/** Who has access to the project: the owner, the shares, and (for the owner) the pending invitations. */
export async function access(db: Db, userId: string, id: string): Promise<ProjectAccess> {
  const { project, access: mine } = await visible(db, userId, id);
  const owner = await findUserById(db, project.ownerId);
  const members: ProjectAccess['members'] = owner ? [{ userId: owner.id, email: owner.email, name: fullName(owner), role: 'OWNER' }] : [];
  for (const s of await repo.sharesOf(db, project.id)) {
    const u = await findUserById(db, s.userId);
    if (u) members.push({ userId: u.id, email: u.email, name: fullName(u), role: s.role as repo.ShareRole });
  }
  const invitations =
    mine === 'OWNER' ? (await repo.invitationsOf(db, project.id)).map((i) => ({ email: i.email, role: i.role as repo.ShareRole })) : [];
  return { members, invitations };
}

/** The owner revokes a share; a member may also leave (revoke themselves). Unknown member: 404. */
export async function revoke(db: Db, userId: string, id: string, memberId: string): Promise<void> {
  const found = await visible(db, userId, id, memberId === userId ? 'read' : 'owner');
  if (!(await repo.deleteShare(db, found.project.id, memberId))) throw notFound('member');
}

export async function cancelInvitation(db: Db, userId: string, id: string, email: string): Promise<void> {
  const { project } = await visible(db, userId, id, 'owner');
  if (!(await repo.deleteInvitation(db, project.id, normalizeEmail(email)))) throw notFound('invitation');
}

/** The project's images (not deleted) with the jobs started in the project, newest added first. */
export async function images(db: Db, userId: string, id: string): Promise<ProjectImage[]> {
  const { project } = await visible(db, userId, id);
  const held = await repo.imagesOf(db, project.id);
  const rows = new Map(
    (
      await imagesByIds(
        db,
        held.map((h) => h.imageId),
      )
    ).map((i) => [i.id, i]),
  );
  // only the jobs started in this project: a run of the image elsewhere is not the project's
  const jobs = new Map<string, ProjectImage['jobs']>();
  for (const j of await presentProjectJobs(db, project.id, [...rows.keys()])) {
    const list = jobs.get(j.imageId) ?? [];
    list.push({ id: j.id, modelName: j.model.displayName, status: j.status, createdAt: j.createdAt });
    jobs.set(j.imageId, list);
  }
  return held.flatMap((h) => {
    const img = rows.get(h.imageId);
    if (!img) return [];
    return [
      {
        id: img.id,
        orginalFilename: img.orginalFilename,
        width: img.width,
        height: img.height,
        addedAt: h.createdAt.toISOString(),
        jobs: jobs.get(img.id) ?? [],
      },
    ];
  });
}

/** Adds the caller's own images from the library (owner or EDITOR); an image that is not theirs: 404. */
export async function addImages(db: Db, userId: string, id: string, body: AddProjectImagesBody): Promise<ProjectImage[]> {
  const { project } = await visible(db, userId, id, 'write');
  const ids = [...new Set(body.imageIds)];
  const own = await ownLiveImageIds(db, userId, ids);
  if (own.length !== ids.length) throw notFound('image');
  await repo.addImages(db, project.id, own, userId);
  return images(db, userId, id);
}

export async function removeImage(db: Db, userId: string, id: string, imageId: string): Promise<void> {
  const { project } = await visible(db, userId, id, 'write');
  if (!(await repo.removeImage(db, project.id, imageId))) throw notFound('image');
}

/** The storage key of the thumbnail of an image the project holds, for anyone with access to the project. */
export async function thumbnailKey(db: Db, userId: string, id: string, imageId: string): Promise<string> {
  const { project } = await visible(db, userId, id);
  if (!(await repo.holdsImage(db, project.id, imageId))) throw notFound('image');
  const [img] = await imagesByIds(db, [imageId]);
  if (!img) throw notFound('image');
  return img.thumbnailKey;
}

/** The ids of the images of a project the user has access to (image library filter); 404 otherwise. */
export async function imageIdsOf(db: Db, userId: string, id: string): Promise<string[]> {
  const { project } = await visible(db, userId, id);
  return (await repo.imagesOf(db, project.id)).map((r) => r.imageId);
}

/** The projects visible to the user that hold each image (image library). */
export function projectsOfImages(db: Db, userId: string, imageIds: string[]) {
  return repo.projectsOfImages(db, userId, imageIds);
}

/** Takes deleted images out of every project (image library delete, inside its transaction). */
export function dropImages(db: Db, imageIds: string[]): Promise<void> {
  return repo.dropImages(db, imageIds);
}

/** The storage key of the display rendition of an image the project holds (members review the project's jobs). */
export async function displayKey(db: Db, userId: string, id: string, imageId: string): Promise<string> {
  const { project } = await visible(db, userId, id);
  if (!(await repo.holdsImage(db, project.id, imageId))) throw notFound('image');
  const [img] = await imagesByIds(db, [imageId]);
  if (!img) throw notFound('image');
  return img.displayKey;
}

/** The display rendition's key of an image held by any project the user is a member of (job reports); else null. */
export async function memberDisplayKey(db: Db, userId: string, imageId: string): Promise<string | null> {
  if (!(await repo.visibleProjectHolds(db, userId, imageId))) return null;
  const [img] = await imagesByIds(db, [imageId]);
  return img?.displayKey ?? null;
}

const DONE = new Set<Job['status']>(['FINISHED', 'CACHED']);
/** The measurements a field shows per model (key values; grain size with the E112 field quantities N_A and L̄). */
const FIELD_VALUES = [
  'astmGPlanimetric',
  'astmGIntercept',
  'grainsPerMm2',
  'meanInterceptUm',
  'meanThicknessUm',
  'totalLengthUm',
  'crackCount',
  'areaFractionPercent',
];

function fieldJob(j: Job): ProjectFieldJob {
  const m = j.result?.measurements ?? {};
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const values: Record<string, number> = {};
  for (const k of FIELD_VALUES) {
    const v = num(m[k]);
    if (v !== null) values[k] = v;
  }
  return {
    id: j.id,
    status: j.status,
    modelVersion: j.modelVersion,
    createdAt: j.createdAt,
    finishedAt: j.finishedAt,
    pixelSizeUm: num(m.pixelSizeUm),
    calibrationSource: typeof m.calibrationSource === 'string' ? m.calibrationSource : null,
    withMasks: j.withMasks,
    cropped: Boolean(j.crop),
    values,
  };
}

/** A chosen field: the job that represents an image for a model, and whether a member accepted it. */
export interface ChosenField {
  imageId: string;
  orginalFilename: string;
  addedAt: string;
  /** One per model with a field value, in the order the models were first run in the project. */
  models: Array<{ modelId: string; job: Job | null; accepted: boolean; acceptedAt: string | null; newer: Job | null; jobs: Job[] }>;
  width: number;
  height: number;
}

/**
 * The fields of a project (issue 24): each image the project holds, and per model the job that represents it — the
 * job a member accepted (locked: a later run does not replace it), else the newest finished job of that image
 * started in this project. Jobs run outside the project never count. Oldest image first (field 1 is the first added;
 * images added together in the natural order of their names).
 */
export async function chosenFields(db: Db, userId: string, id: string, lng?: Language): Promise<ChosenField[]> {
  const { project } = await visible(db, userId, id);
  const rows = await repo.imagesOf(db, project.id);
  const images = new Map(
    (
      await imagesByIds(
        db,
        rows.map((h) => h.imageId),
      )
    ).map((i) => [i.id, i]),
  );
  // images added together (one request) have the same time: their names in natural order decide
  const byName = new Intl.Collator('en', { numeric: true });
  const nameOf = (imageId: string) => images.get(imageId)?.orginalFilename ?? '';
  const held = [...rows].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || byName.compare(nameOf(a.imageId), nameOf(b.imageId)));
  const jobs = await presentProjectJobs(db, project.id, [...images.keys()], lng);
  const accepted = new Map((await repo.acceptedFields(db, project.id)).map((a) => [`${a.imageId}/${a.modelId}`, a]));
  const modelOrder: string[] = [];
  for (const j of [...jobs].reverse()) if (!modelOrder.includes(j.modelId)) modelOrder.push(j.modelId);
  return held.flatMap((h) => {
    const img = images.get(h.imageId);
    if (!img) return [];
    const ofImage = jobs.filter((j) => j.imageId === img.id);
    const models = modelOrder.flatMap((modelId) => {
      const list = ofImage.filter((j) => j.modelId === modelId);
      if (!list.length) return [];
      const newest = list.find((j) => DONE.has(j.status) && j.result) ?? null;
      const choice = accepted.get(`${img.id}/${modelId}`);
      const acceptedJob = choice ? (list.find((j) => j.id === choice.jobId) ?? null) : null;
      const job = acceptedJob ?? newest;
      const newer = acceptedJob && newest && newest.id !== acceptedJob.id && newest.createdAt > acceptedJob.createdAt ? newest : null;
      return [{ modelId, job, accepted: Boolean(acceptedJob), acceptedAt: acceptedJob ? choice!.acceptedAt.toISOString() : null, newer, jobs: list }];
    });
    return [
      { imageId: img.id, orginalFilename: img.orginalFilename, width: img.width, height: img.height, addedAt: h.createdAt.toISOString(), models },
    ];
  });
}

/** GET /projects/{id}/fields: every member sees the fields, each model's job, its key values and status. */
export async function fields(db: Db, userId: string, id: string, lng?: Language): Promise<ProjectField[]> {
  return (await chosenFields(db, userId, id, lng)).map((f) => ({
    imageId: f.imageId,
    orginalFilename: f.orginalFilename,
    width: f.width,
    height: f.height,
    addedAt: f.addedAt,
    models: f.models.map((m) => {
      const any = m.job ?? m.jobs[0];
      return {
        modelId: m.modelId,
        modelName: any.model.name,
        displayName: any.model.displayName,
        displayNameDe: any.model.displayNameDe ?? null,
        job: m.job ? fieldJob(m.job) : null,
        accepted: m.accepted,
        acceptedAt: m.acceptedAt,
        newer: m.newer ? fieldJob(m.newer) : null,
        jobs: m.jobs.map(fieldJob),
      };
    }),
  }));
}

/**
 * Accepts a finished job of the project as an image's field for the job's model (owner or EDITOR; a VIEWER: 403).
 * The job must have been started in this project on that image (else 404); one not finished is a 400.
 */
export async function acceptField(
  db: Db,
  userId: string,
  id: string,
  imageId: string,
  modelId: string,
  body: AcceptProjectFieldBody,
  lng?: Language,
): Promise<ProjectField[]> {
  const { project } = await visible(db, userId, id, 'write');
  if (!(await repo.holdsImage(db, project.id, imageId))) throw notFound('image');
  const [job] = (await presentProjectJobs(db, project.id, [imageId], lng)).filter((j) => j.id === body.jobId && j.modelId === modelId);
  if (!job) throw notFound('job');
  if (!DONE.has(job.status) || !job.result) throw validationFailed([{ field: 'jobId', key: 'projects.errors.jobNotFinished' }]);
  await repo.acceptField(db, { projectId: project.id, imageId, modelId, jobId: job.id, acceptedById: userId });
  return fields(db, userId, id, lng);
}

/** Releases an accepted field (owner or EDITOR): the newest finished job represents it again. */
export async function releaseField(db: Db, userId: string, id: string, imageId: string, modelId: string, lng?: Language): Promise<ProjectField[]> {
  const { project } = await visible(db, userId, id, 'write');
  if (!(await repo.releaseField(db, project.id, imageId, modelId))) throw notFound('field');
  return fields(db, userId, id, lng);
}
