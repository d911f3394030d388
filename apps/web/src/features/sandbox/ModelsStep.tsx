import { Card, Checkbox, Skeleton, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAvailableModels } from '../favourites/api';
import { useModelName } from '../../lib/modelName';

/** Step 2: the models to run (those the user may use). */
export function ModelsStep({ value, onChange }: { value: string[]; onChange: (ids: string[]) => void }) {
  const { t } = useTranslation();
  const nameOf = useModelName();
  const models = useAvailableModels();
  return (
    <Card withBorder>
      {models.isPending ? (
        <Skeleton h={80} />
      ) : (
        <Checkbox.Group value={value} onChange={onChange} label={t('sandbox.chooseModels')}>
          <Stack gap={6} mt="xs">
            {models.data?.map((m) => (
              <Checkbox key={m.id} value={m.id} label={nameOf(m)} />
            ))}
          </Stack>
        </Checkbox.Group>
      )}
    </Card>
  );
}
