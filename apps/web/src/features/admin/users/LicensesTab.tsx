import { Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hasPermission, useMe } from '../../auth/session';
import { formatAdminDateTime } from '../../../lib/format';
import { ListState } from '../../../components/ListState';
import { useUserLicenses } from './api';
import { AssignLicenseModal } from './AssignLicenseModal';

/** The user's license history, newest first; USER.WRITE holders can assign a new one. */
export function LicensesTab({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const { data: me } = useMe();
  const licenses = useUserLicenses(userId);
  const [open, setOpen] = useState(false);
  return (
    <Stack gap="sm">
      {hasPermission(me, 'USER.WRITE') ? (
        <Group justify="flex-end">
          <Button onClick={() => setOpen(true)}>{t('adminUsers.actions.assignLicense')}</Button>
        </Group>
      ) : null}
      <ListState query={licenses} empty={licenses.data?.length === 0} emptyText={t('adminUsers.license.none')}>
        <Table.ScrollContainer minWidth={560}>
          <Table striped data-testid="license-history">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('adminUsers.license.type')}</Table.Th>
                <Table.Th>{t('adminUsers.license.limits')}</Table.Th>
                <Table.Th>{t('adminUsers.license.start')}</Table.Th>
                <Table.Th>{t('adminUsers.license.end')}</Table.Th>
                <Table.Th>{t('adminUsers.license.createdByColumn')}</Table.Th>
                <Table.Th>{t('adminUsers.license.state')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(licenses.data ?? []).map((l) => (
                <Table.Tr key={l.id}>
                  <Table.Td>{t(`adminUsers.licenseTypes.${l.type}`, { defaultValue: l.type })}</Table.Td>
                  <Table.Td>
                    <Text size="sm">
                      {l.images !== null
                        ? t('adminUsers.license.images', { used: l.used, images: l.images })
                        : t('adminUsers.license.used', { used: l.used })}
                    </Text>
                  </Table.Td>
                  <Table.Td>{formatAdminDateTime(l.startsAt)}</Table.Td>
                  <Table.Td>{formatAdminDateTime(l.finishAt)}</Table.Td>
                  <Table.Td>{t(`adminUsers.createdBy.${l.createdBy}`, { defaultValue: l.createdBy })}</Table.Td>
                  <Table.Td>
                    <Badge color={l.active ? 'green' : 'gray'} variant="light">
                      {l.active ? t('adminUsers.license.active') : t('adminUsers.license.ended')}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </ListState>
      {open ? <AssignLicenseModal userId={userId} onClose={() => setOpen(false)} /> : null}
    </Stack>
  );
}
