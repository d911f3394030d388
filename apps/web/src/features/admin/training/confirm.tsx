import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { TFunction } from 'i18next';

/** A confirmation before a change that matters (promote, roll back, cancel a run); `testId` marks its dialog. */
export function confirmAction(
  t: TFunction,
  { message, confirm, danger = false, testId }: { message: string; confirm: string; danger?: boolean; testId: string },
  onConfirm: () => void,
): void {
  modals.openConfirmModal({
    title: t('admin.confirmTitle'),
    children: (
      <Text size="sm" data-testid={testId}>
        {message}
      </Text>
    ),
    labels: { confirm, cancel: t('admin.cancel') },
    confirmProps: { color: danger ? 'red' : undefined, 'data-testid': `${testId}-yes` } as Record<string, unknown>,
    onConfirm,
  });
}
