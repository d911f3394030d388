import { Alert, Button, Loader, Group } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/errorText';

/** A card's loading and error states; the children once every query has its data. */
export function CardState({ queries, children }: { queries: Array<UseQueryResult<unknown>>; children: ReactNode }) {
  const { t } = useTranslation();
  const failed = queries.find((q) => q.isError);
  if (failed)
    return (
      <Alert color="red" title={t('adminSettings.loadFailed')}>
        <Group justify="space-between" wrap="wrap">
          {errorText(t, failed.error, 'admin.error')}
          <Button size="xs" variant="default" onClick={() => queries.forEach((q) => void q.refetch())}>
            {t('adminSettings.retry')}
          </Button>
        </Group>
      </Alert>
    );
  if (queries.some((q) => q.isPending))
    return (
      <Group justify="center" py="md">
        <Loader size="sm" aria-label={t('adminSettings.loading')} />
      </Group>
    );
  return <>{children}</>;
}
