/** The schema errors of the settings, grouped by path (back-office.md §8). */
import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ErrorGroup } from './logic';

export function ValidationModal({ errors, onClose }: { errors: ErrorGroup[] | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={errors !== null} onClose={onClose} title={t('admin.cust.validationFailedTitle')} size="lg">
      <Stack gap="sm" data-testid="validation-errors">
        {(errors ?? []).map((g) => (
          <div key={g.path || '_'}>
            <Text fw={600} size="sm">
              {g.label}
            </Text>
            <List size="sm" withPadding>
              {g.messages.map((m) => (
                <List.Item key={m}>{m}</List.Item>
              ))}
            </List>
          </div>
        ))}
        <Group justify="flex-end">
          <Button onClick={onClose}>{t('admin.close')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
