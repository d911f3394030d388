import { isAdmin, useMe } from '../auth/session';
import { Sandbox } from './Sandbox';

/** The admin sandbox (/sandbox/admin): ADMIN only, renders nothing for anyone else (§6). */
export function AdminSandboxPage() {
  const { data: me } = useMe();
  if (!isAdmin(me)) return null;
  return <Sandbox admin />;
}
