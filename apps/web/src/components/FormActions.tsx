/** The one footer of every form and dialog: cancel on the left of the primary action, right-aligned. */
import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface FormActionsProps {
  /** Text of the primary button; `common.save` by default. */
  submitLabel?: string;
  /** The primary button submits the surrounding form (default) or calls `onSubmit`. */
  onSubmit?: () => void;
  onCancel?: () => void;
  cancelLabel?: string;
  loading?: boolean;
  disabled?: boolean;
  /** Red primary button, for deletions. */
  danger?: boolean;
  /** Extra buttons on the left (e.g. "Reset to defaults"). */
  extra?: ReactNode;
  /** `data-testid` of the primary button. */
  submitTestId?: string;
}

export function FormActions({ submitLabel, onSubmit, onCancel, cancelLabel, loading, disabled, danger, extra, submitTestId }: FormActionsProps) {
  const { t } = useTranslation();
  return (
    <Group justify={extra ? 'space-between' : 'flex-end'} mt="md">
      {extra ? <Group gap="xs">{extra}</Group> : null}
      <Group gap="xs">
        {onCancel ? (
          <Button variant="default" onClick={onCancel} disabled={loading}>
            {cancelLabel ?? t('common.cancel')}
          </Button>
        ) : null}
        <Button
          type={onSubmit ? 'button' : 'submit'}
          onClick={onSubmit}
          loading={loading}
          disabled={disabled}
          color={danger ? 'red' : undefined}
          data-testid={submitTestId}
        >
          {submitLabel ?? t('common.save')}
        </Button>
      </Group>
    </Group>
  );
}
