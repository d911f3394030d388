import { Anchor, Badge, Group, Text } from '@mantine/core';
import type { AdminUserListItem } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatAdminDateTime } from '../../../lib/format';
import type { UserColumn } from './columns';
import { LicenseText } from './LicenseText';

/** One cell of the users table. */
export function UserCell({ user, col }: { user: AdminUserListItem; col: UserColumn }) {
  const { t } = useTranslation();
  switch (col) {
    case 'fullName':
      return (
        <Anchor component={Link} to={`/admin/users/${user.id}/profile`} size="sm">
          {user.fullName || user.email}
        </Anchor>
      );
    case 'role':
      return (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {t(`adminUsers.roles.${user.role}`)}
        </Text>
      );
    case 'trainingConsent':
      return <Text size="sm">{user.trainingConsent ? t('common.yes') : t('common.no')}</Text>;
    case 'license':
      return <LicenseText license={user.license} />;
    case 'timeJoined':
    case 'lastLogin':
      return <Text size="sm">{formatAdminDateTime(user[col])}</Text>;
    case 'nps':
      return <Text size="sm">{user.nps.length ? user.nps.join(', ') : '—'}</Text>;
    case 'tags':
      return (
        <Group gap={4} wrap="wrap">
          {user.tags.verified ? (
            <Badge size="xs" color="green" variant="light">
              {t('adminUsers.tags.verified')}
            </Badge>
          ) : (
            <Badge size="xs" color="gray" variant="light">
              {t('adminUsers.tags.unverified')}
            </Badge>
          )}
          {user.tags.removeDataPermanently ? (
            <Badge size="xs" color="orange" variant="light">
              {t('adminUsers.tags.removeDataPermanently')}
            </Badge>
          ) : null}
        </Group>
      );
    case 'uploaded':
      return <Text size="sm">{user.uploaded}</Text>;
    default:
      return <Text size="sm">{user[col] || '—'}</Text>;
  }
}
