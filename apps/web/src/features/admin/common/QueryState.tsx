import { Alert, Button, Center, Group, Loader, Paper, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from './format';

/**
 * The three states every admin list shares before its content: loading, failed (with the server's message and
 * Retry), and empty. Renders `children` once there is something to show.
 */
export function QueryState({
  query,
  errorTitle,
  empty = false,
  emptyText,
  children,
}: {
  query: Pick<UseQueryResult<unknown>, 'isPending' | 'isError' | 'error' | 'refetch'>;
  errorTitle?: string;
  empty?: boolean;
  emptyText?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isPending)
    return (
      <Center p="xl">
        <Loader aria-label={t('admin.loading')} />
      </Center>
    );
  if (query.isError)
    return (
      <Alert color="red" title={errorTitle}>
        <Group justify="space-between">
          <Text size="sm">{errorText(query.error, t('admin.error'))}</Text>
          <Button size="xs" variant="light" onClick={() => void query.refetch()}>
            {t('admin.retry')}
          </Button>
        </Group>
      </Alert>
    );
  if (empty)
    return (
      <Paper withBorder p="xl">
        <Text c="dimmed" ta="center">
          {emptyText}
        </Text>
      </Paper>
    );
  return <>{children}</>;
}
