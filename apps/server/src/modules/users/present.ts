import type { Account, Me } from '@lamella/contracts';
import type { AuthContext } from '../../platform/auth/session.ts';
import type { Db } from '../../platform/db/client.ts';
import { findActiveLicense, findGroupName, type UserRow } from './repo.ts';

export function presentMe(
  auth: Pick<AuthContext, 'user' | 'permissions' | 'grpAdmin' | 'twoFactorPending'>,
  impersonator?: { id: string; fullName: string } | null,
): Me {
  const u = auth.user;
  return {
    id: u.id,
    name: u.name,
    surname: u.surname,
    fullName: `${u.name} ${u.surname}`.trim(),
    email: u.email,
    role: u.role,
    permissions: auth.permissions,
    grpAdmin: auth.grpAdmin,
    language: u.language === 'de' ? 'de' : 'en',
    emailVerified: u.emailVerified,
    twoFactorPending: auth.twoFactorPending,
    impersonatedBy: impersonator ?? null,
  };
}

/** Staff roles run models without a license (jobs/license.ts); their account shows UNLIMITED. */
const STAFF_ROLES: string[] = ['ADMIN', 'POWER_USER', 'EDITOR'];

/**
 * The training consent can be changed by the user unless their group decides it (a group with a
 * training-consent policy; enterprise customers settle it by contract).
 */
export async function presentAccount(db: Db, u: UserRow): Promise<Account> {
  const [groupName, license] = await Promise.all([findGroupName(db, u.groupId), findActiveLicense(db, u.id)]);
  return {
    email: u.email,
    name: u.name,
    surname: u.surname,
    group: groupName ? { name: groupName } : null,
    subscribe: u.subscribe,
    trainingConsent: u.trainingConsent,
    canChangeTrainingConsent: !u.groupId,
    csvDecimalSeparator: u.csvDecimalSeparator === 'dot' ? 'dot' : 'comma',
    language: u.language === 'de' ? 'de' : 'en',
    address: u.address ?? {},
    hasLogo: Boolean(u.logoKey),
    twoFactorEnabled: u.totpEnabled,
    license: license
      ? { type: license.type, images: license.images, used: license.used, finish: license.finishAt ? license.finishAt.toISOString() : null }
      : STAFF_ROLES.includes(u.role)
        ? { type: 'UNLIMITED', images: null, used: 0, finish: null }
        : null,
  };
}
