import { Alert, Card, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconKey } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useAccessKeys } from './api';
import { KeyRow } from './KeyRow';

/** The owner's keys with their scope, requests a minute, request count and last use. */
export function KeysTable() {
  const { t } = useTranslation();
  const keys = useAccessKeys();
  const wide = useMediaQuery('(min-width: 48em)', true);

  if (keys.isPending)
    return (
      <Stack gap="xs">
        <Skeleton h={36} />
        <Skeleton h={36} />
      </Stack>
    );
  if (keys.isError) return <Alert color="red">{t('accessKeys.loadFailed')}</Alert>;
  if (keys.data.length === 0)
    return (
      <Card withBorder>
        <Stack align="center" gap={4} py="md">
          <IconKey size={32} color="var(--mantine-color-gray-5)" aria-hidden />
          <Text fw={500}>{t('accessKeys.emptyTitle')}</Text>
          <Text size="sm" c="dimmed" ta="center">
            {t('accessKeys.emptyText')}
          </Text>
        </Stack>
      </Card>
    );

  return (
    // Scope and requests a minute sit under the key's name at every width. On phones the request count and the last
    // use join them there, the creation date and the switch's text are left out, so the buttons stay on screen.
    <Table.ScrollContainer minWidth={300}>
      <Table verticalSpacing="sm" highlightOnHover aria-label={t('accessKeys.tableLabel')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('accessKeys.columns.label')}</Table.Th>
            {wide && <Table.Th ta="right">{t('accessKeys.columns.requests')}</Table.Th>}
            {wide && <Table.Th>{t('accessKeys.columns.lastUsed')}</Table.Th>}
            {wide && <Table.Th>{t('accessKeys.columns.enrolled')}</Table.Th>}
            <Table.Th ta="right">{t('accessKeys.columns.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {keys.data.map((key) => (
            <KeyRow key={key.id} accessKey={key} wide={wide} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
