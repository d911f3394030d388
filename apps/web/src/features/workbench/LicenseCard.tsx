import { Badge, Card, Group, Progress, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/format';
import { useAccount } from '../profile/api';

/** The user's license on the dashboard: type, images used of the limit, expiry. */
export function LicenseCard() {
  const { t, i18n } = useTranslation();
  const account = useAccount();
  const license = account.data?.license;
  return (
    <Card withBorder padding="md" data-testid="license-card">
      <Title order={2} size="h4" mb="sm">
        {t('workbench.license.heading')}
      </Title>
      {account.isPending ? (
        <Skeleton h={60} />
      ) : !license ? (
        <Text size="sm" c="dimmed">
          {t('workbench.license.none')}
        </Text>
      ) : (
        <Stack gap={6}>
          <Group justify="space-between">
            <Text size="sm">{t('workbench.license.type')}</Text>
            <Badge variant="light">{license.type}</Badge>
          </Group>
          <Group justify="space-between">
            <Text size="sm">{t('workbench.license.used')}</Text>
            <Text size="sm" fw={500}>
              {license.images === null
                ? t('workbench.license.usedUnlimited', { used: license.used })
                : t('workbench.license.usedOf', { used: license.used, limit: license.images })}
            </Text>
          </Group>
          {license.images !== null && license.images > 0 && (
            <Progress
              value={Math.min(100, (license.used / license.images) * 100)}
              color={license.used >= license.images ? 'red' : 'blue'}
              aria-label={t('workbench.license.used')}
            />
          )}
          <Group justify="space-between">
            <Text size="sm">{t('workbench.license.expires')}</Text>
            <Text size="sm" c={license.finish && new Date(license.finish) < new Date() ? 'red' : undefined}>
              {license.finish ? formatDate(license.finish, i18n.language) : t('workbench.license.noExpiry')}
            </Text>
          </Group>
        </Stack>
      )}
    </Card>
  );
}
