import { Type, type Static } from 'typebox';
import { endpoint } from './endpoint.ts';

/**
 * System settings (back-office.md §2 "Settings screen", §3 "Maintenance settings", §7 "Settings"): maintenance
 * mode, the services status checks, and what users see of maintenance. The demo license settings stay in
 * admin-users.ts (`GET/PUT /admin/licenses/demo`).
 */

/** Text in both languages of the product. */
export const BilingualText = Type.Object({ en: Type.String(), de: Type.String() }, { $id: 'BilingualText' });
export type BilingualText = Static<typeof BilingualText>;

/** §3 "Maintenance settings". Maintenance mode is on while `maintenanceModels` is not empty. */
export const MaintenanceSettings = Type.Object(
  {
    maintenanceMessage: BilingualText,
    /** Ids of the models whose jobs are refused while maintenance is on. */
    maintenanceModels: Type.Array(Type.String()),
  },
  { $id: 'MaintenanceSettings' },
);
export type MaintenanceSettings = Static<typeof MaintenanceSettings>;

/** PUT body: both messages are required (checked by the server, naming each missing field); every model must exist. */
export const MaintenanceBody = Type.Object(
  {
    maintenanceMessage: Type.Optional(
      Type.Object({ en: Type.Optional(Type.String({ maxLength: 2000 })), de: Type.Optional(Type.String({ maxLength: 2000 })) }),
    ),
    maintenanceModels: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 1000 })),
  },
  { $id: 'MaintenanceBody' },
);
export type MaintenanceBody = Static<typeof MaintenanceBody>;

export const SavedMaintenance = Type.Object({ ...MaintenanceSettings.properties, message: Type.String() }, { $id: 'SavedMaintenance' });
export type SavedMaintenance = Static<typeof SavedMaintenance>;

/** GET /admin/settings: every system setting the Settings screen edits (the demo license has its own call too). */
export const AdminSettings = Type.Object(
  {
    maintenance: MaintenanceSettings,
    demoLicense: Type.Object({
      maxImages: Type.Number(),
      demoDuration: Type.Number(),
      extensionDuration: Type.Number(),
      reminderBeforeExpiry: Type.Number(),
      reminderBeforeExtensionExpiry: Type.Number(),
    }),
  },
  { $id: 'AdminSettings' },
);
export type AdminSettings = Static<typeof AdminSettings>;

/** The services of §7 "GET /admin/healthcheck/{service}", each mapped to what Lamella has in that role. */
export const healthServices = ['mail', 'tolgee', 'registry', 'minio', 'beszel'] as const;
export type HealthService = (typeof healthServices)[number];

export const HealthServiceParams = Type.Object({ service: Type.String({ maxLength: 50 }) }, { $id: 'HealthServiceParams' });

/**
 * The spec's boolean is `ok`: true when the real check passed. `configured` false: Lamella has nothing in that
 * role (then `ok` is false too and the screen says "not configured" rather than failed). `detail`: what was
 * checked, or why it failed (for staff; not translated).
 */
export const ServiceHealth = Type.Object(
  {
    service: Type.String(),
    ok: Type.Boolean(),
    configured: Type.Boolean(),
    /** Working in part (launchers registry: some but not all enabled launchers healthy); ok is false then. */
    degraded: Type.Optional(Type.Boolean()),
    detail: Type.String(),
  },
  { $id: 'ServiceHealth' },
);
export type ServiceHealth = Static<typeof ServiceHealth>;

/** What a signed-in user sees of maintenance: the message in their language and the models it concerns. */
export const MaintenanceNotice = Type.Object(
  {
    active: Type.Boolean(),
    message: Type.String(),
    models: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), displayName: Type.String() })),
  },
  { $id: 'MaintenanceNotice' },
);
export type MaintenanceNotice = Static<typeof MaintenanceNotice>;

const tags = ['settings'] as const;
export const settingsApi = {
  get: endpoint({
    method: 'GET',
    path: '/admin/settings',
    operationId: 'getAdminSettings',
    tags,
    response: { 200: AdminSettings },
  }),
  setMaintenance: endpoint({
    method: 'PUT',
    path: '/admin/settings/maintenance',
    operationId: 'setMaintenance',
    tags,
    body: MaintenanceBody,
    response: { 200: SavedMaintenance },
  }),
  healthcheck: endpoint({
    method: 'GET',
    path: '/admin/healthcheck/:service',
    operationId: 'checkServiceHealth',
    tags,
    params: HealthServiceParams,
    response: { 200: ServiceHealth },
  }),
  maintenance: endpoint({
    method: 'GET',
    path: '/settings/maintenance',
    operationId: 'getMaintenanceNotice',
    tags,
    response: { 200: MaintenanceNotice },
  }),
};
