import { Button, Card, Group, Loader, Select, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { customizationName, useCustomizations, type Variable } from './api';
import { VariableRow } from './VariableRow';

interface Props {
  modelIds: string[];
  customizationId: string | null;
  setCustomizationId: (v: string | null) => void;
  variables: Variable[];
  setVariables: (v: Variable[]) => void;
  errors: boolean[];
}

/** Admin step "Params identification": a customization group and variables whose combinations each run. */
export function ParamsStep({ modelIds, customizationId, setCustomizationId, variables, setVariables, errors }: Props) {
  const { t, i18n } = useTranslation();
  const queries = useCustomizations(modelIds, true);
  const options = useMemo(() => {
    const seen = new Set<string>();
    return queries
      .flatMap((q) => q.data ?? [])
      .filter((c) => (seen.has(c.id) ? false : (seen.add(c.id), true)))
      .map((c) => ({ value: c.id, label: customizationName(c, i18n.language) }));
  }, [queries, i18n.language]);
  const update = (i: number, patch: Partial<Variable>) => setVariables(variables.map((v, n) => (n === i ? { ...v, ...patch } : v)));
  return (
    <Card withBorder>
      <Stack>
        <Title order={2} size="h5">
          {t('sandbox.params.title')}
        </Title>
        <Select
          label={t('sandbox.params.customization')}
          placeholder={t('sandbox.params.none')}
          data={options}
          value={customizationId}
          onChange={setCustomizationId}
          clearable
          maw={400}
          rightSection={queries.some((q) => q.isPending) ? <Loader size="xs" /> : undefined}
        />
        <Text size="sm" fw={500}>
          {t('sandbox.params.variables')}
        </Text>
        {variables.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('sandbox.params.noVariables')}
          </Text>
        )}
        {variables.map((v, i) => (
          <VariableRow
            key={i}
            variable={v}
            error={Boolean(errors[i])}
            onChange={(patch) => update(i, patch)}
            onRemove={() => setVariables(variables.filter((_, n) => n !== i))}
          />
        ))}
        <Group>
          <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={() => setVariables([...variables, { key: '', vals: '' }])}>
            {t('sandbox.params.add')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
