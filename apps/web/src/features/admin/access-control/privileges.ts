/** The access-control rules of the screen: which privileges a change grants and revokes. */
import { PERMISSIONS, type Permission, type Privilege } from '@lamella/contracts';

export const namesOf = (privileges: readonly Privilege[]): Permission[] =>
  PERMISSIONS.filter((p) => privileges.some((x) => `${x.resource}.${x.action}` === p));

export const toPrivileges = (names: readonly Permission[]): Privilege[] =>
  PERMISSIONS.filter((p) => names.includes(p)).map((p) => {
    const [resource, action] = p.split('.');
    return { resource, action };
  });

/** Writing needs reading: granting X.WRITE grants X.READ too, revoking X.READ revokes X.WRITE too. */
export function toggled(held: readonly Permission[], permission: Permission, on: boolean): { next: Permission[]; changed: Permission[] } {
  const [resource, action] = permission.split('.');
  const linked = (on ? (action === 'WRITE' ? [`${resource}.READ`] : []) : action === 'READ' ? [`${resource}.WRITE`] : []) as Permission[];
  const affected = [permission, ...linked];
  const next = on ? [...new Set([...held, ...affected])] : held.filter((p) => !affected.includes(p));
  const changed = affected.filter((p) => held.includes(p) !== on);
  return { next: PERMISSIONS.filter((p) => next.includes(p)), changed: PERMISSIONS.filter((p) => changed.includes(p)) };
}
