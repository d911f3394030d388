import { Select } from '@mantine/core';
import { TRAINABLE_MODELS } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { useComputeModels } from '../models/api';
import { useModelName } from '../../../lib/modelName';

/** The images screen's Training filter for a model: only the images that can train it (issue 25 item 1). */
export function TrainableModelFilter({ value, onChange }: { value: string | null; onChange: (modelId: string | null) => void }) {
  const { t } = useTranslation();
  const models = useComputeModels();
  const nameOf = useModelName();
  const data = (models.data ?? [])
    .filter((m) => (TRAINABLE_MODELS as readonly string[]).includes(m.internalName))
    .map((m) => ({ value: m.id, label: nameOf(m) }));
  return (
    <Select
      label={t('adminTraining.images.trainableFor')}
      placeholder={t('adminTraining.images.trainableNone')}
      data={data}
      value={value}
      onChange={onChange}
      clearable
      comboboxProps={{ withinPortal: true }}
      w={{ base: '100%', sm: 220 }}
      data-testid="filter-trainable"
    />
  );
}
