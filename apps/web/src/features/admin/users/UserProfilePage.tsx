/** Back-office user profile (back-office.md §2 "/admin/users/{id}/{tab}"): the tab lives in the URL. */
import { Anchor, Group, Stack, Tabs, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ListState } from '../../../components/ListState';
import { ActivityTab } from './ActivityTab';
import { useUserProfile } from './api';
import { LicensesTab } from './LicensesTab';
import { ProfileTab } from './ProfileTab';
import { StatsTab } from './StatsTab';
import { UserActionsMenu } from './UserActionsMenu';

export const PROFILE_TABS = ['profile', 'licenses', 'statistics', 'activity'] as const;
type Tab = (typeof PROFILE_TABS)[number];

export function UserProfilePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id = '', tab } = useParams();
  const current: Tab = (PROFILE_TABS as readonly string[]).includes(tab ?? '') ? (tab as Tab) : 'profile';
  const profile = useUserProfile(id);
  const name = profile.data ? `${profile.data.name} ${profile.data.surname}`.trim() || profile.data.email : '';

  return (
    <Stack gap="md" data-testid="admin-user-profile">
      <Anchor component={Link} to="/admin/users" size="sm">
        {t('adminUsers.backToList')}
      </Anchor>
      <ListState query={profile}>
        {profile.data ? (
          <>
            <Group justify="space-between" wrap="nowrap">
              <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
                {name}
              </Title>
              <UserActionsMenu
                user={{
                  id,
                  name,
                  role: profile.data.role,
                  removeDataPermanently: profile.data.removeDataPermanently,
                  deletionDueAt: profile.data.deletionDueAt,
                }}
                onDeleted={() => navigate('/admin/users')}
              />
            </Group>
            <Tabs value={current} onChange={(v) => v && navigate(`/admin/users/${id}/${v}`)} keepMounted={false}>
              <Tabs.List style={{ flexWrap: 'wrap' }}>
                {PROFILE_TABS.map((k) => (
                  <Tabs.Tab key={k} value={k}>
                    {t(`adminUsers.tabs.${k}`)}
                  </Tabs.Tab>
                ))}
              </Tabs.List>
              <Tabs.Panel value="profile" pt="md">
                <ProfileTab profile={profile.data} />
              </Tabs.Panel>
              <Tabs.Panel value="licenses" pt="md">
                <LicensesTab userId={id} />
              </Tabs.Panel>
              <Tabs.Panel value="statistics" pt="md">
                <StatsTab userId={id} />
              </Tabs.Panel>
              <Tabs.Panel value="activity" pt="md">
                <ActivityTab userId={id} uploaded={profile.data.uploaded} />
              </Tabs.Panel>
            </Tabs>
          </>
        ) : null}
      </ListState>
    </Stack>
  );
}
