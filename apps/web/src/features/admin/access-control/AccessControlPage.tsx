import { Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../common/QueryState';
import { useAcl } from './api';
import { AclTable } from './AclTable';

/** /admin/users-privileges (back-office §2 "Access control", ADMIN only): grant and revoke the power users' privileges. */
export function AccessControlPage() {
  const { t } = useTranslation();
  const acl = useAcl();
  return (
    <Stack gap="md">
      <Title order={2}>{t('accessControl.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('accessControl.intro')}
      </Text>
      <QueryState query={acl} errorTitle={t('accessControl.loadFailed')} empty={acl.data?.length === 0} emptyText={t('accessControl.empty')}>
        <Paper withBorder p={{ base: 'xs', sm: 'md' }}>
          <AclTable entries={acl.data ?? []} />
        </Paper>
      </QueryState>
    </Stack>
  );
}
