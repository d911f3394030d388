import { Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AdminListPage } from '../../../components/AdminListPage';
import { useAcl } from './api';
import { AclTable } from './AclTable';

/** /admin/users-privileges (back-office §2 "Access control", ADMIN only): grant and revoke the power users' privileges. */
export function AccessControlPage() {
  const { t } = useTranslation();
  const acl = useAcl();
  return (
    <AdminListPage
      title={t('accessControl.title')}
      filters={
        <Text size="sm" c="dimmed">
          {t('accessControl.intro')}
        </Text>
      }
      query={acl}
      errorTitle={t('accessControl.loadFailed')}
      empty={acl.data?.length === 0}
      emptyText={t('accessControl.empty')}
    >
      <Paper withBorder p={{ base: 'xs', sm: 'md' }}>
        <AclTable entries={acl.data ?? []} />
      </Paper>
    </AdminListPage>
  );
}
