import type { AuthContext } from './session.ts';

/**
 * Staff who review any customer's job (issue 26 item 2): ADMIN, a POWER_USER holding JOB.READ, and EDITOR (who
 * edits masks). They read a job's images and result files (read only: writes keep their own rules).
 */
export function readsAnyJob(auth: AuthContext): boolean {
  const { role } = auth.user;
  if (role === 'ADMIN' || role === 'EDITOR') return true;
  return role === 'POWER_USER' && auth.permissions.includes('JOB.READ');
}
