/**
 * /admin/compute-compute-models-registry/:id/versions (ADMIN, issue 25): the model's current version, Roll back to the
 * previous one, and every trained version as a card with its validation and Promote.
 */
import { Anchor, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowBackUp, IconArrowLeft, IconList } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ListState } from '../../../components/ListState';
import { errorText } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useComputeModels } from '../models/api';
import { useModelName } from '../../../lib/modelName';
import { useTrainedVersions, useTrainingRunEvents, useVersionChange } from './api';
import { confirmAction } from './confirm';
import { useImageNames } from './useImageNames';
import { VersionCard } from './VersionCard';

export function ModelVersionsPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const models = useComputeModels();
  const versions = useTrainedVersions(id);
  const change = useVersionChange(id);
  const names = useImageNames(id);
  useTrainingRunEvents();
  const model = models.data?.find((m) => m.id === id);
  const nameOf = useModelName();
  const name = model ? nameOf(model) : '';
  const data = versions.data;
  const list = [...(data?.versions ?? [])].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const rollback = () => {
    if (!data?.previousVersion) return;
    const previous = data.previousVersion;
    confirmAction(
      t,
      {
        message: t('adminTraining.versions.rollbackConfirm', { name, current: data.currentVersion, previous }),
        confirm: t('adminTraining.versions.rollback'),
        danger: true,
        testId: 'rollback-confirm',
      },
      () =>
        change.mutate(
          { kind: 'rollback' },
          {
            onSuccess: (r) => notifySuccess(r.message || t('adminTraining.versions.rolledBack', { name, version: r.version })),
            onError: (e) => notifyError(errorText(t, e, 'admin.error')),
          },
        ),
    );
  };
  return (
    <Stack gap="md" data-testid="model-versions">
      <Anchor component={Link} to="/admin/compute-compute-models-registry" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {t('adminTraining.versions.back')}
        </Group>
      </Anchor>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={1} size="h2">
          {t('adminTraining.versions.title', { name })}
        </Title>
        <Button component={Link} to={`/admin/training?modelId=${id}`} variant="default" leftSection={<IconList size={16} />}>
          {t('adminTraining.versions.runs')}
        </Button>
      </Group>
      <ListState query={versions} empty={false}>
        {data && (
          <Stack gap="md">
            <Card withBorder>
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Stack gap={2}>
                  <Text fw={600} data-testid="current-version" data-version={data.currentVersion}>
                    {t('adminTraining.versions.current', { version: data.currentVersion })}
                  </Text>
                  {data.previousVersion && (
                    <Text size="sm" c="dimmed">
                      {t('adminTraining.versions.previous', { version: data.previousVersion })}
                    </Text>
                  )}
                </Stack>
                {data.previousVersion && (
                  <Button
                    variant="light"
                    color="orange"
                    leftSection={<IconArrowBackUp size={16} />}
                    loading={change.isPending}
                    onClick={rollback}
                    data-testid="rollback"
                  >
                    {t('adminTraining.versions.rollback')}
                  </Button>
                )}
              </Group>
            </Card>
            {list.length === 0 ? (
              <Text c="dimmed" ta="center" py="lg">
                {t('adminTraining.versions.empty')}
              </Text>
            ) : (
              list.map((v) => <VersionCard key={v.version} v={v} modelName={name} imageName={names} />)
            )}
          </Stack>
        )}
      </ListState>
    </Stack>
  );
}
