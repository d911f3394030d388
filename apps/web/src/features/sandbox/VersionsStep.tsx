import { Card, MultiSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MODEL_VERSIONS } from './api';

/** Admin step: the model versions to compare (at least one). */
export function VersionsStep({ value, onChange }: { value: string[]; onChange: (v: string[]) => void }) {
  const { t } = useTranslation();
  return (
    <Card withBorder>
      <MultiSelect
        label={t('sandbox.versions')}
        data={MODEL_VERSIONS}
        value={value}
        onChange={onChange}
        error={value.length === 0 ? t('sandbox.versionsRequired') : undefined}
        maw={400}
      />
    </Card>
  );
}
