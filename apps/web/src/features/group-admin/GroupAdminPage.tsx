import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client';
import { ListState } from '../../components/ListState';
import { useMe } from '../auth/session';
import { useGroupAdmin } from './api';
import { InviteForm } from './InviteForm';
import { LicenseCard } from './LicenseCard';
import { MembersTable } from './MembersTable';
import { SharedJobsTable } from './SharedJobsTable';

/**
 * /group-admin (user-app.md; issue 12 item 4): for the admin of a user group — the members with their usage, the
 * group licence, the jobs members shared with the group, invite and remove. Others read that the area is not theirs.
 */
export function GroupAdminPage() {
  const { t } = useTranslation();
  const { data: me } = useMe();
  const overview = useGroupAdmin(!!me?.grpAdmin);
  const notAdmin = !me?.grpAdmin || (isApiError(overview.error) && overview.error.statusCode === 404);
  if (notAdmin) {
    return (
      <Paper withBorder p="lg" data-testid="group-admin-denied">
        <Text>{t('groupAdmin.notAdmin')}</Text>
      </Paper>
    );
  }
  const data = overview.data;
  return (
    <ListState query={overview}>
      {data ? (
        <Stack gap="md" data-testid="group-admin">
          <Title order={1} size="h2">
            {t('groupAdmin.title', { name: data.group.name })}
          </Title>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <LicenseCard license={data.license} />
            <InviteForm />
          </SimpleGrid>
          <MembersTable members={data.members} />
          <SharedJobsTable jobs={data.sharedJobs} />
        </Stack>
      ) : null}
    </ListState>
  );
}
