import { Checkbox, Group, Modal, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { pixelSizeRule } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions';
import { fieldErrors, errorText } from '../../lib/errorText';
import { notifyError, notifySuccess } from '../../lib/notify';
import { imageUrl } from '../jobs/api';
import { useCreateCalibration, useSetImagePixelSize } from './api';
import { ScaleLineCanvas } from './ScaleLineCanvas';
import { LENGTH_UNITS, parseDecimal, pixelSizeFromLine, roundPixelSize, type LengthUnit } from './scale';

export interface SetScaleDialogProps {
  image: { id: string; width: number; height: number };
  opened: boolean;
  onClose: () => void;
  /** Called with the saved µm per pixel (after the image's calibration was stored). */
  onSaved?: (pixelSizeUm: number) => void;
  /** Label of the save button ("Save and re-run" on the results page). */
  saveLabel?: string;
}

/**
 * The set-scale tool: draw a line over a known length on the image (or type its length in pixels), type that
 * length and its unit; the µm per pixel is computed and saved to the image, and optionally as a named calibration.
 */
export function SetScaleDialog({ image, opened, onClose, onSaved, saveLabel }: SetScaleDialogProps) {
  const { t, i18n } = useTranslation();
  const mobile = useMediaQuery('(max-width: 48em)');
  const setPixelSize = useSetImagePixelSize();
  const createCalibration = useCreateCalibration();
  const [pixels, setPixels] = useState('');
  const [known, setKnown] = useState('');
  const [unit, setUnit] = useState<LengthUnit>('µm');
  const [saveNamed, setSaveNamed] = useState(false);
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const computed = pixelSizeFromLine(parseDecimal(pixels), parseDecimal(known), unit);
  const value = computed === null ? null : roundPixelSize(computed);
  const format = (n: number) => new Intl.NumberFormat(i18n.language, { maximumSignificantDigits: 6 }).format(n);

  const save = async () => {
    const next: Record<string, string> = {};
    if (!(parseDecimal(pixels) > 0)) next.pixels = t('calibration.setScale.resultMissing');
    if (!(parseDecimal(known) > 0)) next.known = t('calibration.setScale.resultMissing');
    const rule = value === null ? null : pixelSizeRule(value);
    if (rule) next.known = t(rule, { field: t('calibration.fieldPixelSize') });
    if (saveNamed && !name.trim()) next.name = t('validation.required', { field: t('calibration.setScale.namedName') });
    setErrors(next);
    if (Object.keys(next).length || value === null) return;
    try {
      await setPixelSize.mutateAsync({ id: image.id, pixelSizeUm: value });
      if (saveNamed) await createCalibration.mutateAsync({ name: name.trim(), pixelSizeUm: value });
      notifySuccess(t('calibration.setScale.saved'));
      onSaved?.(value);
      onClose();
    } catch (e) {
      const byField = fieldErrors(t, e);
      setErrors({ known: byField.pixelSizeUm ?? '', name: byField.name ?? '' });
      if (!byField.pixelSizeUm && !byField.name) notifyError(errorText(t, e));
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('calibration.setScale.title')} size="xl" fullScreen={mobile} centered>
      <Stack gap="sm" data-testid="set-scale-dialog">
        <Text size="sm" c="dimmed">
          {t('calibration.setScale.instructions')}
        </Text>
        <ScaleLineCanvas
          src={imageUrl.display(image.id)}
          natural={{ width: image.width, height: image.height }}
          onLine={(px) => setPixels(String(Math.round(px * 10) / 10))}
        />
        <Text size="xs" c="dimmed">
          {t('calibration.setScale.keyboardHint')}
        </Text>
        <Group grow align="flex-start" wrap="wrap">
          <TextInput
            label={t('calibration.setScale.pixelLength')}
            value={pixels}
            onChange={(e) => setPixels(e.currentTarget.value)}
            inputMode="decimal"
            error={errors.pixels || undefined}
            miw={140}
            data-testid="scale-pixels"
          />
          <TextInput
            label={t('calibration.setScale.knownLength')}
            value={known}
            onChange={(e) => setKnown(e.currentTarget.value)}
            inputMode="decimal"
            error={errors.known || undefined}
            miw={140}
            data-testid="scale-known"
          />
        </Group>
        <SegmentedControl
          aria-label={t('calibration.setScale.unit')}
          value={unit}
          onChange={(v) => setUnit(v as LengthUnit)}
          data={LENGTH_UNITS.map((u) => ({ value: u, label: u }))}
        />
        <Text fw={500} aria-live="polite" data-testid="scale-result">
          {value === null ? t('calibration.setScale.resultMissing') : t('calibration.setScale.result', { value: format(value) })}
        </Text>
        <Checkbox label={t('calibration.setScale.saveAsNamed')} checked={saveNamed} onChange={(e) => setSaveNamed(e.currentTarget.checked)} />
        {saveNamed && (
          <TextInput
            label={t('calibration.setScale.namedName')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            maxLength={100}
            error={errors.name || undefined}
            data-testid="scale-name"
          />
        )}
        <FormActions
          submitLabel={saveLabel ?? t('calibration.setScale.apply')}
          onSubmit={() => void save()}
          onCancel={onClose}
          cancelLabel={t('calibration.manager.cancel')}
          loading={setPixelSize.isPending || createCalibration.isPending}
          submitTestId="scale-save"
        />
      </Stack>
    </Modal>
  );
}
