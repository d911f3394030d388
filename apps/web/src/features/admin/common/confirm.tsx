import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { TFunction } from 'i18next';

/** A Yes/No confirmation before a destructive action. */
export function confirmDelete(t: TFunction, message: string, onConfirm: () => void): void {
  modals.openConfirmModal({
    title: t('admin.confirmTitle'),
    children: <Text size="sm">{message}</Text>,
    labels: { confirm: t('admin.yes'), cancel: t('admin.no') },
    confirmProps: { color: 'red' },
    onConfirm,
  });
}
