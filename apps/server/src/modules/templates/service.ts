import type { SettingsTemplate, SettingsTemplateBody } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import type { AuthContext } from '../../platform/auth/session.ts';
import { notFound } from '../../platform/http/errors.ts';
import { FieldErrors } from '../../platform/http/field-errors.ts';
import { recordAudit } from '../audit/service.ts';
import * as repo from './repo.ts';

/** Project settings templates (accounts.md §2, §7): ADMIN only; every change is recorded in the audit log. */
const present = (r: repo.TemplateWithAuthor): SettingsTemplate => ({
  id: r.t.id,
  name: r.t.name,
  description: r.t.description,
  settings: r.t.settings as Record<string, unknown>,
  createdBy: r.name !== null ? { name: r.name, surname: r.surname } : null,
  createdAt: r.t.createdAt.toISOString(),
});
const actorOf = (auth: AuthContext) => auth.impersonatorId ?? auth.user.id;
const asDb = (tx: unknown) => tx as Db;

/**
 * The settings of a template must be a JSON object. The client sends it parsed; a string is accepted too
 * (the text of the editor) and parsed here, so a request that bypasses the client meets the same rule.
 */
function readBody(body: SettingsTemplateBody): repo.TemplateValues {
  const e = new FieldErrors();
  const name = (body.name ?? '').trim();
  if (!name) e.add('name', 'errors.templateNameRequired');
  let settings: unknown = body.settings;
  if (settings === undefined || settings === null || settings === '') e.add('settings', 'errors.templateSettingsRequired');
  else {
    if (typeof settings === 'string') {
      try {
        settings = JSON.parse(settings);
      } catch {
        settings = undefined;
      }
    }
    if (!settings || typeof settings !== 'object' || Array.isArray(settings)) e.add('settings', 'errors.templateSettingsInvalid');
  }
  e.throwIfAny();
  return { name, description: body.description?.trim() || null, settings: settings as Record<string, unknown> };
}

async function one(db: Db, id: string): Promise<SettingsTemplate> {
  const [row] = await repo.listWithAuthor(db, id);
  if (!row) throw notFound('template');
  return present(row);
}

export async function list(db: Db): Promise<SettingsTemplate[]> {
  return (await repo.listWithAuthor(db)).map(present);
}

export const get = one;

export async function create(db: Db, auth: AuthContext, body: SettingsTemplateBody): Promise<SettingsTemplate> {
  const values = readBody(body);
  const id = await db.transaction(async (tx) => {
    const newId = await repo.insert(asDb(tx), { ...values, createdById: auth.user.id });
    await recordAudit(asDb(tx), {
      actorId: actorOf(auth),
      action: 'template.create',
      targetType: 'settings_template',
      targetId: newId,
      details: { name: values.name },
    });
    return newId;
  });
  return one(db, id);
}

export async function update(db: Db, auth: AuthContext, id: string, body: SettingsTemplateBody): Promise<SettingsTemplate> {
  const values = readBody(body);
  await db.transaction(async (tx) => {
    if (!(await repo.update(asDb(tx), id, values))) throw notFound('template');
    await recordAudit(asDb(tx), {
      actorId: actorOf(auth),
      action: 'template.update',
      targetType: 'settings_template',
      targetId: id,
      details: { name: values.name },
    });
  });
  return one(db, id);
}

export async function remove(db: Db, auth: AuthContext, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await repo.remove(asDb(tx), id))) throw notFound('template');
    await recordAudit(asDb(tx), { actorId: actorOf(auth), action: 'template.delete', targetType: 'settings_template', targetId: id });
  });
}
