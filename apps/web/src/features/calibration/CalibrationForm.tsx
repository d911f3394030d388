import { Button, Group, TextInput } from '@mantine/core';
import { CALIBRATION_NAME_MAX, pixelSizeRule } from '@lamella/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldErrors } from '../../lib/errorText';
import { parseDecimal } from './scale';

interface Props {
  initial?: { name: string; pixelSizeUm: number };
  submitLabel: string;
  onSubmit: (value: { name: string; pixelSizeUm: number }) => Promise<unknown>;
  onCancel?: () => void;
}

/** Name and µm per pixel of a named calibration; field errors from the rules and from the server. */
export function CalibrationForm({ initial, submitLabel, onSubmit, onCancel }: Props) {
  const { t } = useTranslation();
  const [name, setName] = useState(initial?.name ?? '');
  const [size, setSize] = useState(initial ? String(initial.pixelSizeUm) : '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const value = parseDecimal(size);
    const next: Record<string, string> = {};
    if (!name.trim()) next.name = t('validation.required', { field: t('calibration.manager.name') });
    const rule = pixelSizeRule(value);
    if (rule) next.pixelSizeUm = t(rule, { field: t('calibration.fieldPixelSize') });
    setErrors(next);
    if (Object.keys(next).length) return;
    setBusy(true);
    try {
      await onSubmit({ name: name.trim(), pixelSizeUm: value });
      if (!initial) {
        setName('');
        setSize('');
      }
    } catch (err) {
      setErrors(fieldErrors(t, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Group align="flex-start" gap="xs" wrap="wrap">
        <TextInput
          label={t('calibration.manager.name')}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          maxLength={CALIBRATION_NAME_MAX}
          error={errors.name}
          style={{ flex: '2 1 160px' }}
          data-testid="calibration-name"
        />
        <TextInput
          label={t('calibration.manager.pixelSize')}
          value={size}
          inputMode="decimal"
          onChange={(e) => setSize(e.currentTarget.value)}
          error={errors.pixelSizeUm}
          style={{ flex: '1 1 110px' }}
          data-testid="calibration-size"
        />
        <Group gap="xs" mt={25} wrap="nowrap">
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              {t('calibration.manager.cancel')}
            </Button>
          )}
          <Button type="submit" loading={busy}>
            {submitLabel}
          </Button>
        </Group>
      </Group>
    </form>
  );
}
