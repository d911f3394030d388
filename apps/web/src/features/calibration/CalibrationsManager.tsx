import { ActionIcon, Alert, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/errorText';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useCalibrations, useCreateCalibration, useDeleteCalibration, useUpdateCalibration } from './api';
import { CalibrationForm } from './CalibrationForm';

/** The user's named calibrations: list, add, edit, delete. */
export function CalibrationsManager() {
  const { t, i18n } = useTranslation();
  const list = useCalibrations();
  const create = useCreateCalibration();
  const update = useUpdateCalibration();
  const remove = useDeleteCalibration();
  const [editing, setEditing] = useState<string | null>(null);
  const format = (n: number) => new Intl.NumberFormat(i18n.language, { maximumSignificantDigits: 6 }).format(n);

  return (
    <Stack gap="md" data-testid="calibrations-manager">
      <Text size="sm" c="dimmed">
        {t('calibration.manager.intro')}
      </Text>
      <CalibrationForm
        submitLabel={t('calibration.manager.add')}
        onSubmit={async (body) => {
          await create.mutateAsync(body);
          notifySuccess(t('calibration.manager.saved'));
        }}
      />
      {list.isLoading ? (
        <Loader size="sm" />
      ) : list.isError ? (
        <Alert color="red">{t('calibration.manager.loadFailed')}</Alert>
      ) : !list.data?.length ? (
        <Text size="sm" c="dimmed">
          {t('calibration.manager.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={280}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('calibration.manager.name')}</Table.Th>
                <Table.Th>{t('calibration.manager.pixelSize')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.map((c) =>
                editing === c.id ? (
                  <Table.Tr key={c.id}>
                    <Table.Td colSpan={3}>
                      <CalibrationForm
                        initial={c}
                        submitLabel={t('calibration.manager.save')}
                        onCancel={() => setEditing(null)}
                        onSubmit={async (body) => {
                          await update.mutateAsync({ id: c.id, ...body });
                          notifySuccess(t('calibration.manager.saved'));
                          setEditing(null);
                        }}
                      />
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  <Table.Tr key={c.id} data-testid="calibration-row">
                    <Table.Td style={{ wordBreak: 'break-word' }}>{c.name}</Table.Td>
                    <Table.Td>{format(c.pixelSizeUm)}</Table.Td>
                    <Table.Td>
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <ActionIcon variant="subtle" onClick={() => setEditing(c.id)} aria-label={t('calibration.manager.edit', { name: c.name })}>
                          <IconPencil size={16} />
                        </ActionIcon>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          loading={remove.isPending && remove.variables === c.id}
                          onClick={() =>
                            remove.mutate(c.id, {
                              onSuccess: () => notifySuccess(t('calibration.manager.deleted')),
                              onError: (e) => notifyError(errorText(t, e)),
                            })
                          }
                          aria-label={t('calibration.manager.delete', { name: c.name })}
                        >
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ),
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
