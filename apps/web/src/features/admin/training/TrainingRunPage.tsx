/** /admin/training/:id: one run, live (socket, polling fallback): progress, parameters, error, cancel, candidate. */
import { Alert, Anchor, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconArrowLeft, IconPlayerStop } from '@tabler/icons-react';
import type { TrainingRun } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../../api/client';
import { ListState } from '../../../components/ListState';
import { errorText } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { isActive, useCancelRun, useTrainingRun, useTrainingRunEvents } from './api';
import { CandidatePanel } from './CandidatePanel';
import { confirmAction } from './confirm';
import { RunFacts } from './RunFacts';
import { RunProgress } from './RunProgress';
import { RunStatusBadge } from './RunStatusBadge';

export function TrainingRunPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const run = useTrainingRun(id);
  useTrainingRunEvents();
  const cancel = useCancelRun();
  const r: TrainingRun | undefined = run.data;
  const onCancel = (x: TrainingRun) =>
    confirmAction(
      t,
      {
        message: t('adminTraining.run.cancelConfirm', { version: x.candidateVersion }),
        confirm: t('adminTraining.run.cancel'),
        danger: true,
        testId: 'cancel-confirm',
      },
      () =>
        cancel.mutate(x.id, {
          onSuccess: (c) => notifySuccess(c.message || t('adminTraining.run.cancelled', { version: x.candidateVersion })),
          onError: (e) => notifyError(errorText(t, e, 'admin.error')),
        }),
    );
  const notFound = isApiError(run.error) && run.error.statusCode === 404;
  return (
    <Stack gap="md" data-testid="training-run">
      <Anchor component={Link} to="/admin/training" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {t('adminTraining.run.back')}
        </Group>
      </Anchor>
      {notFound ? (
        <Alert color="gray">{t('adminTraining.run.notFound')}</Alert>
      ) : (
        <ListState query={run}>
          {r && (
            <Stack gap="md" data-status={r.status} data-testid="training-run-body">
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Group gap="sm" wrap="wrap">
                  <Title order={1} size="h2">
                    {t('adminTraining.run.title', { version: r.candidateVersion })}
                  </Title>
                  <RunStatusBadge status={r.status} />
                </Group>
                {isActive(r.status) && (
                  <Button
                    color="red"
                    variant="light"
                    leftSection={<IconPlayerStop size={16} />}
                    loading={cancel.isPending}
                    onClick={() => onCancel(r)}
                    data-testid="cancel-run"
                  >
                    {t('adminTraining.run.cancel')}
                  </Button>
                )}
              </Group>
              {r.status === 'FAILED' && r.error && (
                <Alert color="red" icon={<IconAlertCircle size={18} />} title={t('adminTraining.run.failed')} data-testid="run-error">
                  <Text size="sm">{r.error.message}</Text>
                  <Text size="xs" c="dimmed" mt={4}>
                    {r.error.code}
                  </Text>
                </Alert>
              )}
              <Card withBorder>
                <Stack gap="xs">
                  {r.status === 'QUEUED' && (
                    <Text size="sm" c="dimmed">
                      {t('adminTraining.run.queued')}
                    </Text>
                  )}
                  <RunProgress run={r} />
                </Stack>
              </Card>
              <Card withBorder>
                <RunFacts run={r} />
              </Card>
              {r.status === 'FINISHED' && <CandidatePanel run={r} />}
            </Stack>
          )}
        </ListState>
      )}
    </Stack>
  );
}
