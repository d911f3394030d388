/**
 * The one skeleton of a back-office list page: title and actions on top, an optional filter area, then the
 * table, with the loading, error (message and retry) and empty states handled here; below the table a slot
 * for pagination, or the sentinel and "loading more" line of an infinite list.
 */
import { Group, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ListState, type ListQueryState } from './ListState';

export type { ListQueryState };

export interface AdminListPageProps {
  title: string;
  /** Buttons on the right of the title (create, export…). */
  actions?: ReactNode;
  /** Filter inputs above the table. */
  filters?: ReactNode;
  /** The list's query: decides between loader, error and the table. */
  query: ListQueryState;
  /** True when the query succeeded with no rows. */
  empty: boolean;
  /** Title of the error alert. */
  errorTitle?: string;
  /** Text of the empty state; `shared.list.empty` by default. */
  emptyText?: string;
  /** The table itself. */
  children: ReactNode;
  /** Pagination, or an infinite list's sentinel and "loading more" line. */
  footer?: ReactNode;
  testId?: string;
}

export function AdminListPage({ title, actions, filters, query, empty, errorTitle, emptyText, children, footer, testId }: AdminListPageProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="md" data-testid={testId}>
      <Group justify="space-between" align="center" wrap="wrap">
        <Title order={1} size="h2">
          {title}
        </Title>
        {actions ? <Group gap="xs">{actions}</Group> : null}
      </Group>
      {filters}
      <ListState query={query} empty={empty} errorTitle={errorTitle} emptyText={emptyText ?? t('shared.list.empty')}>
        {children}
      </ListState>
      {footer}
    </Stack>
  );
}
