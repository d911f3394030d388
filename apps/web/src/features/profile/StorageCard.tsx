import { Alert, Card, Progress, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatBytes, useStorageUsage } from './useStorageUsage';

/** Image storage on the profile: used of quota (a bar when there is a quota) and the upload limits. */
export function StorageCard() {
  const { t, i18n } = useTranslation();
  const usage = useStorageUsage();
  const fmt = (bytes: number) => formatBytes(bytes, i18n.language);
  return (
    <Card withBorder data-testid="storage-card">
      <Title order={2} size="h4" mb="sm">
        {t('storage.card.title')}
      </Title>
      {usage.isPending && <Skeleton h={48} />}
      {usage.isError && <Alert color="red">{t('storage.card.loadFailed')}</Alert>}
      {usage.data && (
        <Stack gap="xs">
          <Text size="sm">
            {usage.data.quotaBytes === null
              ? t('storage.card.usedNoQuota', { used: fmt(usage.data.usedBytes) })
              : t('storage.card.used', { used: fmt(usage.data.usedBytes), quota: fmt(usage.data.quotaBytes) })}
          </Text>
          {usage.data.quotaBytes !== null && (
            <Progress
              value={Math.min(100, (100 * usage.data.usedBytes) / Math.max(1, usage.data.quotaBytes))}
              color={usage.data.usedBytes >= usage.data.quotaBytes ? 'red' : 'blue'}
              aria-label={t('storage.card.title')}
            />
          )}
          <Text size="xs" c="dimmed">
            {t('storage.card.limits', { file: fmt(usage.data.maxFileBytes), request: fmt(usage.data.maxRequestBytes) })}
          </Text>
        </Stack>
      )}
    </Card>
  );
}
