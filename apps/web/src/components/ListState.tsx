/** Loading, error (translated message and retry) and empty states of a list; the rows when there are some. */
import { Alert, Button, Center, Group, Loader, Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../lib/errorText';

export interface ListQueryState {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

export function ListState({
  query,
  empty = false,
  emptyText = '',
  errorTitle,
  children,
}: {
  query: ListQueryState;
  /** True when the query succeeded with no rows (a single object's page leaves it out). */
  empty?: boolean;
  emptyText?: string;
  /** Title of the error alert. */
  errorTitle?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isPending) {
    return (
      <Center p="xl">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (query.isError) {
    return (
      <Alert color="red" role="alert" title={errorTitle}>
        <Group justify="space-between">
          <Text size="sm">{errorText(t, query.error, 'shared.list.loadFailed')}</Text>
          <Button size="xs" variant="light" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </Button>
        </Group>
      </Alert>
    );
  }
  if (empty) {
    return (
      <Paper withBorder p="lg">
        <Text c="dimmed" ta="center">
          {emptyText}
        </Text>
      </Paper>
    );
  }
  return <>{children}</>;
}
