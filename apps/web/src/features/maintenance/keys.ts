/** The query of GET /settings/maintenance: the banner reads it, the back-office's maintenance form refreshes it. */
export const MAINTENANCE_NOTICE_KEY = ['settings', 'maintenance'] as const;
