import { emailRule, type Project, type ShareProjectBody, type StatusOk } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import { renderMail } from '../../platform/mail/mailer.ts';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import { notFound, validationFailed } from '../../platform/http/errors.ts';
import { FieldErrors } from '../../platform/http/field-errors.ts';
import { findUserByEmail, findUserById, normalizeEmail } from '../users/service.ts';
import { notify } from '../notifications/service.ts';
import * as repo from './repo.ts';

export interface ProjectsDeps {
  db: Db;
  mailer: Mailer;
  realtime: Pick<Realtime, 'emitToUser'>;
  /** The web app's address, for the invitation mail's link. */
  publicUrl: string;
  log?: (message: string) => void;
}

const present = (p: repo.ProjectRow, userId: string): Project => ({
  id: p.id,
  name: p.name,
  description: p.description,
  isOwner: p.ownerId === userId,
  createdAt: p.createdAt.toISOString(),
});

type Person = { id: string; email: string; name: string; surname: string };

/**
 * Projects group a user's jobs and can be shared (user-app.md says only that a project can be deleted and
 * opened by ?project=, and that sharing notifies with PROJECT_SHARED). Owners manage; people it is shared
 * with see it. Pending invitations of the caller's (verified) address become shares on every read.
 */
export async function list(deps: ProjectsDeps, user: Person): Promise<Project[]> {
  await activateInvitations(deps, user);
  return (await repo.listVisible(deps.db, user.id)).map((p) => present(p, user.id));
}

export async function create(db: Db, userId: string, body: { name: string; description?: string }): Promise<Project> {
  const name = body.name.trim();
  if (!name) throw validationFailed([{ field: 'name', key: 'validation.required' }]);
  return present(await repo.insert(db, { ownerId: userId, name, description: body.description?.trim() || null }), userId);
}

/** Whether the user may add jobs to the project: they own it or it is shared with them as EDITOR (jobs module). */
export function canAddJobs(db: Db, userId: string, projectId: string): Promise<boolean> {
  return repo.editableBy(db, userId, projectId);
}

export async function remove(db: Db, userId: string, id: string): Promise<void> {
  if (!(await repo.removeOwn(db, userId, id))) throw notFound('project');
}

const sharedByName = (u: Pick<Person, 'name' | 'surname'>) => `${u.name} ${u.surname}`.trim();

/**
 * Shares a project the caller owns with an address. The answer is the same whether or not the address has
 * an account (no way to probe who uses Lamella): a user gets the share and a PROJECT_SHARED notification at
 * once; an unknown address gets an invitation mail (in the sharer's language) and the share when it signs
 * up; a blocked account gets nothing. The mail is sent after the answer, so the time does not tell either.
 */
export async function share(deps: ProjectsDeps, owner: Person & { language: string }, projectId: string, body: ShareProjectBody): Promise<StatusOk> {
  const email = normalizeEmail(body.email);
  new FieldErrors().add('email', emailRule(email)).throwIfAny();
  const project = await repo.findOwn(deps.db, owner.id, projectId);
  if (!project) throw notFound('project');
  if (email === normalizeEmail(owner.email)) throw validationFailed([{ field: 'email', key: 'errors.shareWithSelf' }]);
  const role = body.role ?? 'VIEWER';
  const target = await findUserByEmail(deps.db, email);
  if (target && target.role !== 'BLOCKED') {
    await repo.upsertShare(deps.db, { projectId: project.id, userId: target.id, role, sharedById: owner.id });
    await notify(deps.db, deps.realtime, target.id, 'PROJECT_SHARED', {
      projectId: project.id,
      projectName: project.name,
      sharedByName: sharedByName(owner),
    });
  } else if (!target) {
    await repo.upsertInvitation(deps.db, { projectId: project.id, email, role, invitedById: owner.id });
    const mail = renderMail('projectInvitation', owner.language, {
      name: email,
      link: `${deps.publicUrl}/auth/register`,
      inviter: sharedByName(owner) || owner.email,
      project: project.name,
    });
    deps.mailer.send({ to: email, ...mail }).catch((err: Error) => deps.log?.(`project invitation mail to ${email} failed: ${err.message}`));
  }
  return { status: 'OK' };
}

/** Turns the invitations of the user's address into shares, each with its PROJECT_SHARED notification. */
export async function activateInvitations(deps: Pick<ProjectsDeps, 'db' | 'realtime'>, user: Pick<Person, 'id' | 'email'>): Promise<number> {
  const taken = await repo.takeInvitations(deps.db, normalizeEmail(user.email));
  for (const { invitation, project } of taken) {
    if (project.ownerId === user.id) continue;
    await repo.upsertShare(deps.db, { projectId: project.id, userId: user.id, role: invitation.role, sharedById: invitation.invitedById });
    const inviter = invitation.invitedById ? await findUserById(deps.db, invitation.invitedById) : undefined;
    await notify(deps.db, deps.realtime, user.id, 'PROJECT_SHARED', {
      projectId: project.id,
      projectName: project.name,
      sharedByName: inviter ? sharedByName(inviter) : '',
    });
  }
  return taken.length;
}
