import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Center,
  Checkbox,
  Group,
  Image,
  Loader,
  MultiSelect,
  Radio,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Stepper,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isAdmin, useMe } from '../auth/session';
import { useAvailableModels } from '../favourites/api';
import { imageUrl, useImages } from '../jobs/api';
import { formatDateTime, truncate } from '../jobs/format';
import { StatusBadge } from '../jobs/StatusBadge';
import { isRunning, type Job } from '../jobs/types';
import { ResultItems } from '../results/ResultItems';
import { customizationName, splitVals, useCustomizations, useRunSandbox, useSandboxJobs } from './api';
import { notifications } from '@mantine/notifications';

export const SANDBOX_FILENAME_MAX = 70;
export const MODEL_VERSIONS = ['20241025', '20250101'];

type StepId = 'image' | 'models' | 'params' | 'versions' | 'results';

interface Variable {
  key: string;
  vals: string;
}

/** The admin sandbox (/sandbox/admin): ADMIN only, renders nothing for anyone else (§6). */
export function AdminSandboxPage() {
  const { data: me } = useMe();
  if (!isAdmin(me)) return null;
  return <Sandbox admin />;
}

export function SandboxPage() {
  return <Sandbox admin={false} />;
}

/** The sandbox stepper (§2, §4, §5): one image, models, (admin: params identification, versions), results. */
export function Sandbox({ admin }: { admin: boolean }) {
  const { t, i18n } = useTranslation();
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
  const models = useAvailableModels();
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
        onError: (e) => notifications.show({ color: 'red', title: t('sandbox.failedTitle'), message: e.message || t('sandbox.failed') }),
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

      {step === 'image' && <ImageStep images={images.data} loading={images.isPending} value={imageId} onChange={setImageId} lng={i18n.language} />}
      {step === 'models' && (
        <Card withBorder>
          {models.isPending ? (
            <Skeleton h={80} />
          ) : (
            <Checkbox.Group value={modelIds} onChange={setModelIds} label={t('sandbox.chooseModels')}>
              <Stack gap={6} mt="xs">
                {models.data?.map((m) => (
                  <Checkbox key={m.id} value={m.id} label={m.displayName} />
                ))}
              </Stack>
            </Checkbox.Group>
          )}
        </Card>
      )}
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
      {step === 'versions' && (
        <Card withBorder>
          <MultiSelect
            label={t('sandbox.versions')}
            data={MODEL_VERSIONS}
            value={versions}
            onChange={setVersions}
            error={versions.length === 0 ? t('sandbox.versionsRequired') : undefined}
            maw={400}
          />
        </Card>
      )}
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

function ImageStep({
  images,
  loading,
  value,
  onChange,
  lng,
}: {
  images?: { id: string; orginalFilename: string; validated: boolean; createdAt: string }[];
  loading: boolean;
  value: string | null;
  onChange: (v: string) => void;
  lng: string;
}) {
  const { t } = useTranslation();
  if (loading) return <Skeleton h={160} />;
  if (!images?.length) {
    return (
      <Center py="xl">
        <Text c="dimmed">{t('sandbox.noImages')}</Text>
      </Center>
    );
  }
  return (
    <Radio.Group value={value} onChange={onChange} label={t('sandbox.chooseImage')}>
      <Table.ScrollContainer minWidth={320} mt="xs">
        <Table highlightOnHover data-testid="sandbox-images">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={40} />
              <Table.Th w={72}>{t('sandbox.preview')}</Table.Th>
              <Table.Th>{t('sandbox.filename')}</Table.Th>
              <Table.Th visibleFrom="sm">{t('sandbox.uploaded')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {images.map((img) => {
              const radio = <Radio value={img.id} aria-label={img.orginalFilename} />;
              return (
                <Table.Tr key={img.id} onClick={() => onChange(img.id)} style={{ cursor: 'pointer' }} data-testid="sandbox-image-row">
                  <Table.Td>
                    {img.validated ? (
                      radio
                    ) : (
                      <Tooltip label={t('sandbox.notValidated')}>
                        <span>{radio}</span>
                      </Tooltip>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Image src={imageUrl.thumbnail(img.id)} w={56} h={56} fit="cover" radius="sm" alt="" loading="lazy" />
                  </Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>
                    <Group gap={4} wrap="nowrap">
                      <Text size="sm" title={img.orginalFilename}>
                        {truncate(img.orginalFilename, SANDBOX_FILENAME_MAX)}
                      </Text>
                      {!img.validated && (
                        <Tooltip label={t('sandbox.notValidated')}>
                          <IconAlertTriangle size={16} color="var(--mantine-color-yellow-7)" aria-label={t('sandbox.notValidated')} />
                        </Tooltip>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Text size="xs" c="dimmed">
                      {formatDateTime(img.createdAt, lng)}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Radio.Group>
  );
}

function ParamsStep(props: {
  modelIds: string[];
  customizationId: string | null;
  setCustomizationId: (v: string | null) => void;
  variables: Variable[];
  setVariables: (v: Variable[]) => void;
  errors: boolean[];
}) {
  const { t, i18n } = useTranslation();
  const queries = useCustomizations(props.modelIds, true);
  const options = useMemo(() => {
    const seen = new Set<string>();
    return queries
      .flatMap((q) => q.data ?? [])
      .filter((c) => (seen.has(c.id) ? false : (seen.add(c.id), true)))
      .map((c) => ({ value: c.id, label: customizationName(c, i18n.language) }));
  }, [queries, i18n.language]);
  const { variables, setVariables } = props;
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
          value={props.customizationId}
          onChange={props.setCustomizationId}
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
          <Group key={i} align="flex-start" wrap="wrap" gap="xs">
            <TextInput
              label={t('sandbox.params.name')}
              placeholder="segmentation.threshold"
              value={v.key}
              onChange={(e) => update(i, { key: e.currentTarget.value })}
              error={props.errors[i] ? t('sandbox.params.nameRequired') : undefined}
              w={{ base: '100%', sm: 240 }}
            />
            <TextInput
              label={t('sandbox.params.values')}
              placeholder="0.3, 0.4 0.5"
              value={v.vals}
              onChange={(e) => update(i, { vals: e.currentTarget.value })}
              style={{ flex: 1, minWidth: 200 }}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              mt={28}
              onClick={() => setVariables(variables.filter((_, n) => n !== i))}
              aria-label={t('sandbox.params.remove')}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
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

function SandboxJobCard({ job }: { job: Job }) {
  const { t, i18n } = useTranslation();
  const failed = job.status === 'FAILED';
  return (
    <Card
      withBorder
      padding="sm"
      data-testid="sandbox-job"
      data-status={job.status}
      style={failed ? { borderColor: 'var(--mantine-color-red-5)', background: 'var(--mantine-color-red-0)' } : undefined}
    >
      <Group justify="space-between" wrap="wrap" mb="xs" gap="xs">
        <div style={{ minWidth: 0 }}>
          <Text fw={500} size="sm">
            {job.model.displayName}
          </Text>
          <Text size="xs" c="dimmed" truncate="end">
            {job.image.orginalFilename} · {formatDateTime(job.createdAt, i18n.language)}
          </Text>
        </div>
        <Group gap={4}>
          <Badge variant="outline" size="sm" tt="none">
            {t('sandbox.version', { version: job.modelVersion })}
          </Badge>
          <StatusBadge status={job.status} />
        </Group>
      </Group>
      {isRunning(job.status) ? (
        <Center py="md">
          <Loader size="sm" />
        </Center>
      ) : failed ? (
        <Text size="sm" c="red.8">
          {t('results.error.apology')}
        </Text>
      ) : (
        <ResultItems job={job} />
      )}
    </Card>
  );
}

function ResultsStep({ runIds, sideBySide }: { runIds: string[] | null; sideBySide: boolean }) {
  const { t } = useTranslation();
  const jobs = useSandboxJobs();
  if (jobs.isPending) return <Skeleton h={160} />;
  const all = jobs.data ?? [];
  // side by side, a model's versions read left to right from the oldest
  const current = (runIds ? all.filter((j) => runIds.includes(j.id)) : []).sort(
    (a, b) => a.model.displayName.localeCompare(b.model.displayName) || String(a.modelVersion).localeCompare(String(b.modelVersion)),
  );
  const earlier = all.filter((j) => !runIds?.includes(j.id));
  return (
    <Stack>
      {current.length > 0 && (
        <SimpleGrid cols={{ base: 1, md: sideBySide || current.length > 1 ? 2 : 1 }} data-testid="sandbox-results">
          {current.map((j) => (
            <SandboxJobCard key={j.id} job={j} />
          ))}
        </SimpleGrid>
      )}
      {earlier.length > 0 && (
        <>
          <Title order={2} size="h5" mt="md">
            {t('sandbox.earlier')}
          </Title>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            {earlier.map((j) => (
              <SandboxJobCard key={j.id} job={j} />
            ))}
          </SimpleGrid>
        </>
      )}
      {all.length === 0 && (
        <Text c="dimmed" ta="center" py="lg">
          {t('sandbox.noJobs')}
        </Text>
      )}
    </Stack>
  );
}
