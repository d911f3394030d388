import { ActionIcon, Group, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Variable } from './api';

interface Props {
  variable: Variable;
  error: boolean;
  onChange: (patch: Partial<Variable>) => void;
  onRemove: () => void;
}

/** One identification variable: its (dotted) settings key and its values. */
export function VariableRow({ variable, error, onChange, onRemove }: Props) {
  const { t } = useTranslation();
  return (
    <Group align="flex-start" wrap="wrap" gap="xs">
      <TextInput
        label={t('sandbox.params.name')}
        placeholder={t('sandbox.params.namePlaceholder')}
        value={variable.key}
        onChange={(e) => onChange({ key: e.currentTarget.value })}
        error={error ? t('sandbox.params.nameRequired') : undefined}
        w={{ base: '100%', sm: 240 }}
      />
      <TextInput
        label={t('sandbox.params.values')}
        placeholder={t('sandbox.params.valuesPlaceholder')}
        value={variable.vals}
        onChange={(e) => onChange({ vals: e.currentTarget.value })}
        style={{ flex: 1, minWidth: 200 }}
      />
      <ActionIcon variant="subtle" color="red" mt={28} onClick={onRemove} aria-label={t('sandbox.params.remove')}>
        <IconTrash size={16} />
      </ActionIcon>
    </Group>
  );
}
