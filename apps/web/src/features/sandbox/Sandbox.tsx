import { Alert, Button, Group, Stack, Stepper, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/errorText';
import { useImages } from '../jobs/api';
import { splitVals, useRunSandbox, type StepId, type Variable } from './api';
import { ImageStep } from './ImageStep';
import { ModelsStep } from './ModelsStep';
import { ParamsStep } from './ParamsStep';
import { VersionsStep } from './VersionsStep';
import { ResultsStep } from './ResultsStep';

/** The sandbox stepper (§2, §4, §5): one image, models, (admin: params identification, versions), results. */
export function Sandbox({ admin }: { admin: boolean }) {
  const { t } = useTranslation();
  const steps: StepId[] = admin ? ['image', 'models', 'params', 'versions', 'results'] : ['image', 'models', 'results'];
  const [active, setActive] = useState(0);
  const [imageId, setImageId] = useState<string | null>(null);
  const [modelIds, setModelIds] = useState<string[]>([]);
  const [customizationId, setCustomizationId] = useState<string | null>(null);
  const [variables, setVariables] = useState<Variable[]>([]);
  const [variableErrors, setVariableErrors] = useState<boolean[]>([]);
  const [versions, setVersions] = useState<string[]>([]);
  const [runIds, setRunIds] = useState<string[] | null>(null);
  const images = useImages();
  const run = useRunSandbox();
  const step = steps[active];
  const lastInput = steps.length - 2;

  const nextDisabled =
    (step === 'image' && !imageId) || (step === 'models' && modelIds.length === 0) || (step === 'versions' && versions.length === 0) || run.isPending;

  const validateParams = () => {
    const errors = variables.map((v) => !v.key.trim());
    setVariableErrors(errors);
    return !errors.some(Boolean);
  };

  const next = () => {
    if (step === 'params' && !validateParams()) return;
    if (active < lastInput) return setActive(active + 1);
    if (!imageId) return;
    run.mutate(
      {
        imageId,
        modelsIds: modelIds,
        ...(admin && (customizationId || variables.length)
          ? { params: { customizationId, variables: variables.map((v) => ({ key: v.key.trim(), vals: splitVals(v.vals) })) } }
          : {}),
        ...(admin ? { versions } : {}),
      },
      {
        onSuccess: (jobs) => {
          setRunIds(jobs.map((j) => j.id));
          setActive(steps.length - 1);
        },
        onError: (e) => notifications.show({ color: 'red', title: t('sandbox.failedTitle'), message: errorText(t, e, 'sandbox.failed') }),
      },
    );
  };

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {admin ? t('sandbox.adminTitle') : t('sandbox.title')}
      </Title>
      <Alert color="blue" icon={<IconInfoCircle size={18} />} data-testid="sandbox-info">
        {t('sandbox.info')}
      </Alert>
      <Stepper active={active} onStepClick={(i) => i < active && setActive(i)} allowNextStepsSelect={false} size="sm" orientation="horizontal" wrap>
        {steps.map((s) => (
          <Stepper.Step key={s} label={t(`sandbox.steps.${s}`)} />
        ))}
      </Stepper>

      {step === 'image' && <ImageStep images={images.data} loading={images.isPending} value={imageId} onChange={setImageId} />}
      {step === 'models' && <ModelsStep value={modelIds} onChange={setModelIds} />}
      {step === 'params' && (
        <ParamsStep
          modelIds={modelIds}
          customizationId={customizationId}
          setCustomizationId={setCustomizationId}
          variables={variables}
          setVariables={(v) => {
            setVariables(v);
            setVariableErrors([]);
          }}
          errors={variableErrors}
        />
      )}
      {step === 'versions' && <VersionsStep value={versions} onChange={setVersions} modelIds={modelIds} />}
      {step === 'results' && <ResultsStep runIds={runIds} sideBySide={admin && versions.length > 1} />}

      <Group justify="space-between">
        <Button variant="default" onClick={() => setActive((a) => Math.max(0, a - 1))} disabled={active === 0}>
          {t('sandbox.back')}
        </Button>
        {step !== 'results' ? (
          <Button onClick={next} disabled={nextDisabled} loading={run.isPending}>
            {active === lastInput ? t('sandbox.run') : t('sandbox.next')}
          </Button>
        ) : (
          <Button
            variant="light"
            onClick={() => {
              setRunIds(null);
              setActive(0);
            }}
          >
            {t('sandbox.again')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
