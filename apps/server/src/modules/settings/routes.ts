import { settingsApi as api } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import type { LauncherSupervisor } from '../../platform/compute/supervisor.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import type { AuthContext } from '../../platform/auth/session.ts';
import { requestLanguage } from '../../platform/http/language.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import { checkService } from './health.ts';
import { startReminders, type ReminderScheduler } from './reminders.ts';
import * as settings from './service.ts';

export interface SettingsDeps {
  db: Db;
  mailer: Mailer;
  storage: Storage;
  launchers: LauncherSupervisor | null;
  publicUrl: string;
  monitoringUrl: string | null;
  /** Seconds between two runs of the demo license reminders (REMINDER_INTERVAL_SECONDS). */
  reminderIntervalSeconds: number;
}

const ADMIN = { auth: { roles: ['ADMIN' as const] } };
/** The staff member who acts: the impersonating admin when impersonating. */
const actorOf = (auth: AuthContext) => auth.impersonatorId ?? auth.user.id;

/**
 * Settings (back-office.md §2 "Settings screen", §7 "Settings"), ADMIN only (§6 names no privilege for them), and
 * what users see of maintenance. Also starts the demo license reminders when the app is ready.
 */
export async function settingsRoutes(app: RouteHost, deps: SettingsDeps): Promise<void> {
  const { db } = deps;
  route(app, api.get, ADMIN, () => settings.adminSettings(db));
  route(app, api.setMaintenance, ADMIN, (request) =>
    settings.setMaintenance(db, actorOf(requireAuth(request)), request.body, requestLanguage(request)),
  );
  route(app, api.healthcheck, ADMIN, (request) => checkService(deps, request.params.service));
  route(app, api.maintenance, { auth: 'user' }, (request) => settings.maintenanceNotice(db, requireAuth(request).user, requestLanguage(request)));

  let reminders: ReminderScheduler | null = null;
  app.addHook('onReady', () => {
    reminders = startReminders(
      { db, mailer: deps.mailer, publicUrl: deps.publicUrl, log: (m) => app.log.warn(m) },
      deps.reminderIntervalSeconds * 1000,
    );
  });
  app.addHook('onClose', async () => {
    await reminders?.stop();
  });
}
