import { ActionIcon, Group, Select, Stack, TextInput, Tooltip } from '@mantine/core';
import { IconSettings } from '@tabler/icons-react';
import { pixelSizeRule } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCalibrations } from './api';
import { CalibrationsManagerDialog } from './CalibrationsManagerDialog';
import { parseDecimal } from './scale';

const CUSTOM = 'custom';

/**
 * The calibration of an upload: none, one of the user's named calibrations, or a typed µm per pixel.
 * Reports the text sent as the upload's `pixelSizeUm` field (null: none); the server checks it again.
 */
export function CalibrationPicker({ onChange }: { onChange: (pixelSizeUm: string | null) => void }) {
  const { t, i18n } = useTranslation();
  const calibrations = useCalibrations();
  const [choice, setChoice] = useState<string | null>(null);
  const [typed, setTyped] = useState('');
  const [managing, setManaging] = useState(false);
  const format = (n: number) => new Intl.NumberFormat(i18n.language, { maximumSignificantDigits: 6 }).format(n);

  const data = [
    ...(calibrations.data ?? []).map((c) => ({ value: c.id, label: t('calibration.picker.option', { name: c.name, value: format(c.pixelSizeUm) }) })),
    { value: CUSTOM, label: t('calibration.picker.custom') },
  ];
  const choose = (value: string | null) => {
    setChoice(value);
    if (value === CUSTOM) onChange(typed.trim() || null);
    else onChange(value ? String(calibrations.data?.find((c) => c.id === value)?.pixelSizeUm ?? '') || null : null);
  };
  const typedRule = typed.trim() ? pixelSizeRule(parseDecimal(typed)) : null;

  return (
    <Stack gap="xs">
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <Select
          label={t('calibration.picker.label')}
          description={t('calibration.picker.description')}
          placeholder={t('calibration.picker.placeholder')}
          data={data}
          value={choice}
          onChange={choose}
          clearable
          style={{ flex: 1, minWidth: 0 }}
          data-testid="calibration-picker"
        />
        <Tooltip label={t('calibration.manager.title')}>
          <ActionIcon variant="default" size="lg" onClick={() => setManaging(true)} aria-label={t('calibration.manager.title')}>
            <IconSettings size={18} />
          </ActionIcon>
        </Tooltip>
      </Group>
      {choice === CUSTOM && (
        <TextInput
          label={t('calibration.picker.customLabel')}
          value={typed}
          inputMode="decimal"
          onChange={(e) => {
            setTyped(e.currentTarget.value);
            onChange(e.currentTarget.value.trim() || null);
          }}
          error={typedRule ? t(typedRule, { field: t('calibration.fieldPixelSize') }) : undefined}
          data-testid="calibration-typed"
        />
      )}
      {managing && <CalibrationsManagerDialog opened onClose={() => setManaging(false)} />}
    </Stack>
  );
}
