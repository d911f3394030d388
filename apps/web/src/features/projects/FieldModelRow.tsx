import { Anchor, Badge, Button, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import type { Project, ProjectField, ProjectFieldJob, ProjectFieldModel } from '@lamella/contracts';
import { IconLock, IconLockOpen } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/errorText';
import { useModelName } from '../../lib/modelName';
import { notifyError } from '../../lib/notify';
import { formatResultValue } from '../jobs/format';
import { StatusBadge } from '../jobs/StatusBadge';
import { keyResultOf } from '../results/keyResult';
import { useChooseField } from './api';

/** The link that opens a job of the project read-only on the project page. */
export const reviewLink = (projectId: string, jobId: string) => `/projects?project=${encodeURIComponent(projectId)}&job=${encodeURIComponent(jobId)}`;

/**
 * One model's value of a field: the job that represents it (key value, status, version, calibration, accepted or
 * the newest), a link to review it, and for owner and EDITOR: accept (lock) it, release it, or take a newer result.
 */
export function FieldModelRow({ project, field, model }: { project: Project; field: ProjectField; model: ProjectFieldModel }) {
  const { t, i18n } = useTranslation();
  const nameOf = useModelName();
  const choose = useChooseField(project.id);
  const canWrite = project.access !== 'VIEWER';
  const name = nameOf({ name: model.modelName, displayName: model.displayName, displayNameDe: model.displayNameDe });
  const job: ProjectFieldJob | null = model.job ?? model.jobs[0] ?? null;
  const key = model.job ? keyResultOf(model.job.values) : null;
  const pick = (jobId: string | null) =>
    choose.mutate({ imageId: field.imageId, modelId: model.modelId, jobId }, { onError: (err) => notifyError(errorText(t, err)) });
  const px = model.job?.pixelSizeUm;
  return (
    <Paper withBorder p={6} radius="sm" data-testid="field-model" data-model={model.modelName} data-accepted={model.accepted}>
      <Stack gap={4}>
        <Group justify="space-between" wrap="wrap" gap={4}>
          <Text size="xs" fw={600} title={name}>
            {name}
          </Text>
          {job && <StatusBadge status={job.status} />}
        </Group>
        <Group gap={6} wrap="wrap">
          {key ? (
            <Badge color="dark" variant="outline" size="sm" tt="none" data-testid="field-key-value">
              {t(key.labelKey, { value: formatResultValue(key.value, key.kind, i18n.language) })}
            </Badge>
          ) : (
            <Text size="xs" c="dimmed">
              {t('projects.field.noValue')}
            </Text>
          )}
          {model.job &&
            (model.accepted ? (
              <Badge color="teal" variant="light" size="sm" leftSection={<IconLock size={10} />} data-testid="field-accepted">
                {t('projects.field.accepted')}
              </Badge>
            ) : (
              <Badge color="gray" variant="light" size="sm">
                {t('projects.field.newest')}
              </Badge>
            ))}
        </Group>
        {model.job && (
          <Text size="xs" c="dimmed">
            {t('projects.field.details', {
              version: model.job.modelVersion,
              calibration:
                px === null || px === undefined
                  ? t('projects.field.notCalibrated')
                  : t('projects.field.pixelSize', { value: formatResultValue(px, 'pixelSize', i18n.language) }),
            })}
            {model.job.withMasks ? ` · ${t('projects.field.mask')}` : ''}
            {model.job.cropped ? ` · ${t('projects.field.cropped')}` : ''}
          </Text>
        )}
        {model.newer && (
          <Text size="xs" c="orange.8" data-testid="field-newer">
            {t('projects.field.newer')}
          </Text>
        )}
        <Group gap="xs" justify="space-between" wrap="wrap">
          {job ? (
            <Anchor
              component={Link}
              to={reviewLink(project.id, job.id)}
              size="xs"
              aria-label={t('projects.field.openFor', { model: name, name: field.orginalFilename })}
              data-testid="field-open"
            >
              {t('projects.field.open')}
            </Anchor>
          ) : (
            <span />
          )}
          {canWrite && model.job && (
            <Group gap={4}>
              {model.newer && (
                <Button size="compact-xs" variant="light" onClick={() => pick(model.newer!.id)} loading={choose.isPending}>
                  {t('projects.field.useNewer')}
                </Button>
              )}
              {model.accepted ? (
                <Tooltip label={t('projects.field.releaseHint')} multiline w={220}>
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    leftSection={<IconLockOpen size={12} />}
                    onClick={() => pick(null)}
                    loading={choose.isPending}
                    data-testid="field-release"
                  >
                    {t('projects.field.release')}
                  </Button>
                </Tooltip>
              ) : (
                <Tooltip label={t('projects.field.acceptHint')} multiline w={220}>
                  <Button
                    size="compact-xs"
                    variant="light"
                    color="teal"
                    leftSection={<IconLock size={12} />}
                    onClick={() => pick(model.job!.id)}
                    loading={choose.isPending}
                    data-testid="field-accept"
                  >
                    {t('projects.field.accept')}
                  </Button>
                </Tooltip>
              )}
            </Group>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
