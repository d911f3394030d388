import { RangeSlider, Select, Stack, Switch, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { RecipeClass, RecipeGreyRange } from '@lamella/contracts';

interface Props {
  classes: RecipeClass[];
  enabled: boolean;
  onEnabled: (on: boolean) => void;
  range: RecipeGreyRange;
  onChange: (range: RecipeGreyRange) => void;
}

/** The alternative to strokes: a grey range that is one class (the rest is the other classes' last). */
export function GreyRangePicker({ classes, enabled, onEnabled, range, onChange }: Props) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Switch checked={enabled} onChange={(e) => onEnabled(e.currentTarget.checked)} label={t('recipes.editor.greyRange')} />
      {enabled && (
        <>
          <Select
            size="xs"
            label={t('recipes.editor.greyRangeClass')}
            data={classes.map((c, i) => ({ value: String(i), label: c.name }))}
            value={String(range.classIndex)}
            onChange={(v) => onChange({ ...range, classIndex: Number(v ?? 0) })}
            allowDeselect={false}
          />
          <Text size="xs">{t('recipes.editor.greyRangeValues', { min: range.min, max: range.max })}</Text>
          <RangeSlider
            min={0}
            max={255}
            value={[range.min, range.max]}
            onChangeEnd={([min, max]) => onChange({ ...range, min, max })}
            aria-label={t('recipes.editor.greyRange')}
          />
        </>
      )}
    </Stack>
  );
}
