import { translate, type Language } from '@lamella/i18n';
import type { AdminSettings, MaintenanceBody, MaintenanceNotice, MaintenanceSettings, SavedMaintenance } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { AppError } from '../../platform/http/errors.ts';
import { FieldErrors } from '../../platform/http/field-errors.ts';
import { recordAudit } from '../audit/service.ts';
import { listAccessibleModels, shortList } from '../compute-models/service.ts';
import { getDemoLicense, getSetting, putSetting } from '../system/service.ts';
import * as repo from './repo.ts';

/**
 * System settings (back-office.md "Settings screen"): maintenance mode and what users see of it. Stored in the
 * key/value `settings` rows of the system module (key `maintenance`). Maintenance is on while its model list is
 * not empty; jobs of those models are then refused (assertNotInMaintenance, called first by createJobs).
 */

const MAINTENANCE_KEY = 'maintenance';
const noMaintenance: MaintenanceSettings = { maintenanceMessage: { en: '', de: '' }, maintenanceModels: [] };

export const getMaintenance = (db: Db): Promise<MaintenanceSettings> => getSetting(db, MAINTENANCE_KEY, noMaintenance);

export async function adminSettings(db: Db): Promise<AdminSettings> {
  const [maintenance, demoLicense] = await Promise.all([getMaintenance(db), getDemoLicense(db)]);
  return { maintenance, demoLicense };
}

/** PUT /admin/settings/maintenance: both messages required, every model must exist; audit-logged. */
export async function setMaintenance(db: Db, actorId: string, body: MaintenanceBody, lng: Language): Promise<SavedMaintenance> {
  const e = new FieldErrors();
  const en = body.maintenanceMessage?.en?.trim() ?? '';
  const de = body.maintenanceMessage?.de?.trim() ?? '';
  if (!en) e.add('maintenanceMessage.en', 'adminSettings.validation.messageEnRequired');
  if (!de) e.add('maintenanceMessage.de', 'adminSettings.validation.messageDeRequired');
  const ids = [...new Set(body.maintenanceModels ?? [])];
  const known = new Set((await shortList(db)).map((m) => m.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length) e.add('maintenanceModels', 'adminSettings.validation.unknownModels', { ids: unknown.join(', ') });
  e.throwIfAny();
  const value: MaintenanceSettings = { maintenanceMessage: { en, de }, maintenanceModels: ids };
  await repo.inTransaction(db, async (tx) => {
    await putSetting(tx, MAINTENANCE_KEY, value);
    await recordAudit(tx, {
      actorId,
      action: 'settings.maintenance.set',
      targetType: 'settings',
      targetId: MAINTENANCE_KEY,
      details: { models: ids },
    });
  });
  return { ...value, message: translate(lng, 'adminSettings.messages.maintenanceUpdated') };
}

/** GET /settings/maintenance: the message in the caller's language and the models (of those they can use) it concerns. */
export async function maintenanceNotice(db: Db, user: { id: string; role: string }, lng: Language): Promise<MaintenanceNotice> {
  const m = await getMaintenance(db);
  if (!m.maintenanceModels.length) return { active: false, message: '', models: [] };
  const accessible = await listAccessibleModels(db, user.id, user.role === 'ADMIN');
  const models = accessible
    .filter((a) => m.maintenanceModels.includes(a.id))
    .map((a) => ({ id: a.id, name: a.internalName, displayName: a.displayName }));
  return { active: true, message: m.maintenanceMessage[lng] || m.maintenanceMessage.en, models };
}

/**
 * Refuses new jobs of a model under maintenance: 503 MAINTENANCE with the staff's message in the user's language.
 * Called before anything is checked or written, so a refused request uses no license unit and creates no job.
 */
export async function assertNotInMaintenance(db: Db, modelIds: readonly string[], language: string): Promise<void> {
  const m = await getMaintenance(db);
  if (!m.maintenanceModels.some((id) => modelIds.includes(id))) return;
  const message = (language === 'de' ? m.maintenanceMessage.de : m.maintenanceMessage.en) || m.maintenanceMessage.en;
  throw new AppError(503, 'MAINTENANCE', 'adminSettings.messages.maintenanceRefused', { message });
}
