/**
 * The privileges an ADMIN can grant to a POWER_USER on the access-control screen (back-office §6, and the
 * hardening issue's write privileges). Reading is not writing: `*.READ` opens the lists and details,
 * `*.WRITE` the changes (see ARCHITECTURE.md "Privileges"). ADMIN holds every privilege implicitly.
 */
export const PERMISSIONS = ['USER.READ', 'USER.WRITE', 'JOB.READ', 'JOB.WRITE'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}
