import { Anchor, Card, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { hasPermission, useMe } from '../../auth/session';

/** The user's images and jobs: the upload count, and links into the admin lists filtered by this user. */
export function ActivityTab({ userId, uploaded }: { userId: string; uploaded: number }) {
  const { t } = useTranslation();
  const { data: me } = useMe();
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Text size="sm" data-testid="uploaded-count">
          {t('adminUsers.activity.uploaded', { count: uploaded })}
        </Text>
        {hasPermission(me, 'JOB.READ') ? (
          <Anchor component={Link} to={`/admin/jobs?userId=${encodeURIComponent(userId)}&deleted=ALL`} size="sm">
            {t('adminUsers.activity.jobs')}
          </Anchor>
        ) : null}
        {me?.role === 'ADMIN' ? (
          <Anchor component={Link} to={`/admin/images?userId=${encodeURIComponent(userId)}`} size="sm">
            {t('adminUsers.activity.images')}
          </Anchor>
        ) : null}
      </Stack>
    </Card>
  );
}
