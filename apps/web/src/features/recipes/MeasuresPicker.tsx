import { MultiSelect, Select, SimpleGrid } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { RecipeClass, RecipeMeasures } from '@lamella/contracts';

interface Props {
  classes: RecipeClass[];
  measures: RecipeMeasures;
  onChange: (m: RecipeMeasures) => void;
}

/** Which class each model measures: the layer, the phases, the cracks and where cracks are looked for. */
export function MeasuresPicker({ classes, measures, onChange }: Props) {
  const { t } = useTranslation();
  const data = classes.map((c, i) => ({ value: String(i), label: c.name }));
  const one = (v: number | null | undefined) => (v === null || v === undefined ? null : String(v));
  const num = (v: string | null) => (v === null ? null : Number(v));
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
      <Select
        size="xs"
        clearable
        label={t('recipes.measures.layer')}
        data={data}
        value={one(measures.layer)}
        onChange={(v) => onChange({ ...measures, layer: num(v) })}
      />
      <MultiSelect
        size="xs"
        label={t('recipes.measures.phase')}
        data={data}
        value={(measures.phase ?? []).map(String)}
        onChange={(v) => onChange({ ...measures, phase: v.map(Number) })}
      />
      <Select
        size="xs"
        clearable
        label={t('recipes.measures.crack')}
        data={data}
        value={one(measures.crack)}
        onChange={(v) => onChange({ ...measures, crack: num(v) })}
      />
      <Select
        size="xs"
        clearable
        label={t('recipes.measures.crackRegion')}
        data={data}
        value={one(measures.crackRegion)}
        onChange={(v) => onChange({ ...measures, crackRegion: num(v) })}
      />
    </SimpleGrid>
  );
}
