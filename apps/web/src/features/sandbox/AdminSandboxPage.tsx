import { isAdmin, useMe } from '../auth/session';
import { Divider, Stack } from '@mantine/core';
import { Sandbox } from './Sandbox';
import { VersionsCompare } from './VersionsCompare';

/** The admin sandbox (/sandbox/admin): ADMIN only, renders nothing for anyone else (§6); below it the Versions compare (issue 25). */
export function AdminSandboxPage() {
  const { data: me } = useMe();
  if (!isAdmin(me)) return null;
  return (
    <Stack gap="xl">
      <Sandbox admin />
      <Divider />
      <VersionsCompare />
    </Stack>
  );
}
