import {
  Alert,
  Button,
  Card,
  ColorInput,
  CopyButton,
  Group,
  List,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { IconCheck, IconCopy, IconRestore } from '@tabler/icons-react';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { notifyError } from '../../../lib/notify';
import { errorText } from '../../../lib/errorText';
import { JsonEditor } from '../common/JsonEditor';
import { ListState } from '../../../components/ListState';
import { custApi } from '../customizations/api';
import { groupValidationErrors, type ValidationError } from '../customizations/logic';
import { computeModelsApi } from '@lamella/contracts';
import { call } from '../../../api/client';
import { fieldsOf, getAt, hexToRgb, humanize, problemsOf, rgbToHex, setAt, type Field, type FieldProblem } from './schemaForm';
import { useModelName } from '../../../lib/modelName';

type Json = Record<string, unknown>;

/**
 * /admin/model-params: the model-parameter form generated from the chosen model's JSON Schema (back-office.md §9),
 * filled with the model's defaults. Submit checks the bounds in the browser, then validates the whole object on
 * the server (the same check a customization group's settings get) and shows the JSON to paste into a group.
 * The chosen model is kept in the query string (`?model=`).
 */
export function ModelParamsPage() {
  const { t } = useTranslation();
  const nameOf = useModelName();
  const [params, setParams] = useSearchParams();
  const modelId = params.get('model');
  const models = useQuery({ queryKey: ['admin', 'models-short'], queryFn: () => call(computeModelsApi.short), staleTime: 60_000 });
  const source = useQuery({ queryKey: ['admin', 'model-defaults', modelId], queryFn: () => custApi.defaults(modelId!), enabled: !!modelId });
  const fields = useMemo(() => fieldsOf(source.data?.schema), [source.data]);
  const defaults = (source.data?.defaults ?? {}) as Json;
  const [value, setValue] = useState<Json>({});
  const [submitted, setSubmitted] = useState<Json | null>(null);
  const [serverErrors, setServerErrors] = useState<ValidationError[] | null>(null);

  const reset = () => {
    setValue(structuredClone(defaults));
    setSubmitted(null);
    setServerErrors(null);
  };
  // a new model (or its defaults arriving) starts the form again (state adjusted while rendering, not in an effect)
  const [formFor, setFormFor] = useState(source.data);
  if (formFor !== source.data) {
    setFormFor(source.data);
    reset();
  }

  const problems = problemsOf(fields, value);
  const validate = useMutation({
    mutationFn: (settings: Json) => custApi.validate({ modelId: modelId!, settings }),
    onSuccess: (errors, settings) => {
      setServerErrors(errors && errors.length ? errors : null);
      setSubmitted(errors && errors.length ? null : settings);
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  const change = (path: string[], next: unknown) => {
    setValue((v) => setAt(v, path, next));
    setSubmitted(null);
  };
  const submit = () => {
    if (Object.keys(problems).length) {
      setSubmitted(null);
      return;
    }
    validate.mutate(value);
  };
  const groupedServerErrors = groupValidationErrors(serverErrors, {
    general: t('admin.cust.generalError'),
    item: (n) => t('admin.cust.item', { n }),
  });

  const topScalars = fields.filter((f) => f.kind !== 'group');
  const sections = fields.filter((f): f is Extract<Field, { kind: 'group' }> => f.kind === 'group');

  return (
    <Stack gap="md">
      <Title order={2}>{t('admin.params.title')}</Title>
      <ListState query={models}>
        <Select
          label={t('admin.params.model')}
          placeholder={t('admin.params.pick')}
          data={(models.data ?? []).map((m) => ({ value: m.id, label: nameOf(m) || m.id }))}
          value={modelId}
          onChange={(v) => setParams(v ? { model: v } : {}, { replace: true })}
          searchable
          maw={420}
          data-testid="params-model"
        />
      </ListState>
      {!modelId ? (
        <Text c="dimmed">{t('admin.params.chooseModel')}</Text>
      ) : (
        <ListState query={source} empty={fields.length === 0} emptyText={t('admin.params.noSchema')}>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              submit();
            }}
            noValidate
          >
            <Stack gap="md">
              {topScalars.length > 0 && (
                <Section title={t('admin.params.general')}>
                  {topScalars.map((f) => (
                    <FieldInput key={f.path.join('.')} field={f} value={value} problem={problems[f.path.join('.')]} onChange={change} />
                  ))}
                </Section>
              )}
              {sections.map((s) => (
                <Section key={s.key} title={label(t, s)}>
                  {s.children.map((f) =>
                    f.kind === 'group' ? (
                      f.children.map((c) => (
                        <FieldInput key={c.path.join('.')} field={c} value={value} problem={problems[c.path.join('.')]} onChange={change} />
                      ))
                    ) : (
                      <FieldInput key={f.path.join('.')} field={f} value={value} problem={problems[f.path.join('.')]} onChange={change} />
                    ),
                  )}
                </Section>
              ))}
              {Object.keys(problems).length > 0 && (
                <Alert color="red" role="alert">
                  {t('admin.params.invalid')}
                </Alert>
              )}
              {groupedServerErrors.length > 0 && (
                <Alert color="red" title={t('admin.cust.validationFailedTitle')} role="alert">
                  <List size="sm">
                    {groupedServerErrors.map((g) => (
                      <List.Item key={g.path}>
                        <b>{g.label}</b>: {g.messages.join('; ')}
                      </List.Item>
                    ))}
                  </List>
                </Alert>
              )}
              <Group justify="flex-end">
                <Button variant="default" leftSection={<IconRestore size={16} />} onClick={reset}>
                  {t('admin.params.reset')}
                </Button>
                <Button type="submit" loading={validate.isPending}>
                  {t('admin.params.submit')}
                </Button>
              </Group>
            </Stack>
          </form>
          {submitted && (
            <Card withBorder padding="md" data-testid="params-result">
              <Group justify="space-between" mb="xs">
                <Text fw={600}>{t('admin.params.result')}</Text>
                <CopyButton value={JSON.stringify(submitted, null, 2)} timeout={2000}>
                  {({ copied, copy }) => (
                    <Button
                      size="xs"
                      variant="light"
                      color={copied ? 'teal' : undefined}
                      leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                      onClick={copy}
                    >
                      {copied ? t('admin.copied') : t('admin.copy')}
                    </Button>
                  )}
                </CopyButton>
              </Group>
              <Alert color="green" mb="sm">
                {t('admin.params.submitted')}
              </Alert>
              <JsonEditor value={JSON.stringify(submitted, null, 2)} readOnly height="260px" label={t('admin.params.result')} />
            </Card>
          )}
        </ListState>
      )}
    </Stack>
  );
}

type T = ReturnType<typeof useTranslation>['t'];

/** Labels from the translation files (sections under `sections`, fields under `fields` by path), else from the key. */
function label(t: T, f: Field): string {
  return t(`admin.params.${f.kind === 'group' ? 'sections' : 'fields'}.${f.path.join('.')}`, { defaultValue: humanize(f.key) });
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder padding="md">
      <Title order={4} mb="sm">
        {title}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
        {children}
      </SimpleGrid>
    </Card>
  );
}

function problemText(t: T, p: FieldProblem | undefined): string | undefined {
  if (!p) return undefined;
  return t(`admin.params.problems.${p.key}`, { limit: p.limit });
}

function FieldInput({
  field,
  value,
  problem,
  onChange,
}: {
  field: Field;
  value: Json;
  problem?: FieldProblem;
  onChange: (path: string[], v: unknown) => void;
}) {
  const { t } = useTranslation();
  const current = getAt(value, field.path);
  const common = { label: label(t, field), description: field.description, error: problemText(t, problem) };
  switch (field.kind) {
    case 'enum':
      return (
        <Select
          {...common}
          data={field.options}
          value={current === undefined ? null : String(current)}
          onChange={(v) => onChange(field.path, v ?? undefined)}
          clearable
          allowDeselect
        />
      );
    case 'number':
    case 'integer':
      return (
        <NumberInput
          {...common}
          value={typeof current === 'number' ? current : ''}
          onChange={(v) => onChange(field.path, typeof v === 'number' ? v : v === '' ? undefined : Number(v))}
          allowDecimal={field.kind === 'number'}
          min={field.min}
          max={field.max}
          clampBehavior="none"
        />
      );
    case 'boolean':
      return (
        <Switch {...common} error={undefined} mt="lg" checked={current === true} onChange={(e) => onChange(field.path, e.currentTarget.checked)} />
      );
    case 'colour':
      return (
        <ColorInput
          {...common}
          format="hex"
          value={current === undefined ? '' : rgbToHex(current)}
          onChange={(hex) => {
            const rgb = hexToRgb(hex);
            if (rgb) onChange(field.path, rgb);
          }}
        />
      );
    case 'string':
      return (
        <TextInput
          {...common}
          value={typeof current === 'string' ? current : ''}
          onChange={(e) => onChange(field.path, e.currentTarget.value || undefined)}
        />
      );
    default:
      return null;
  }
}
