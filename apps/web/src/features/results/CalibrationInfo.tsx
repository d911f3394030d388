import { Button, Group, Text } from '@mantine/core';
import { IconRuler2 } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SetScaleDialog } from '../calibration/SetScaleDialog';
import { useRerun } from '../jobs/api';
import { notifyJobError, notifyJobStarted } from '../jobs/notify';
import type { Job } from '../jobs/types';
import { formatResultValue } from '../jobs/format';

const SOURCE_TEXT = {
  user: 'calibration.source.user',
  metadata: 'calibration.source.metadata',
  'scale-bar': 'calibration.source.scale-bar',
  settings: 'calibration.source.settings',
  none: 'calibration.source.none',
} as const;
type Source = keyof typeof SOURCE_TEXT;

/**
 * The pixel size a finished job measured with and where it came from (measurements `pixelSizeUm`,
 * `calibrationSource`); with a CALIBRATION_MISSING message, "Set calibration" opens the set-scale tool and
 * then re-runs the job (not when `readOnly`: a project member reviewing another's job).
 */
export function CalibrationInfo({ job, readOnly = false }: { job: Job; readOnly?: boolean }) {
  const { t, i18n } = useTranslation();
  const rerun = useRerun();
  const [open, setOpen] = useState(false);
  const m = job.result?.measurements ?? {};
  const source = typeof m.calibrationSource === 'string' && m.calibrationSource in SOURCE_TEXT ? (m.calibrationSource as Source) : null;
  const size = typeof m.pixelSizeUm === 'number' && Number.isFinite(m.pixelSizeUm) ? m.pixelSizeUm : null;
  const missing = (job.result?.results ?? []).some((i) => i.type === 'message' && i.code === 'CALIBRATION_MISSING');
  if (!source && !missing) return null;
  const value = size === null ? null : formatResultValue(size, 'pixelSize', i18n.language);
  const sourceText = source ? t(SOURCE_TEXT[source]) : '';

  return (
    <Group gap="sm" justify="space-between" wrap="wrap" data-testid="calibration-info" data-source={source ?? ''}>
      <Group gap={6} wrap="wrap">
        <Text size="sm" fw={500}>
          {t('calibration.source.label')}
        </Text>
        <Text size="sm" data-testid="calibration-value">
          {source === 'none' || value === null ? sourceText : t('calibration.source.value', { value, source: sourceText })}
        </Text>
      </Group>
      {missing && !readOnly && (
        <Button
          size="xs"
          variant="light"
          color="yellow"
          leftSection={<IconRuler2 size={16} />}
          onClick={() => setOpen(true)}
          loading={rerun.isPending}
          data-testid="set-calibration"
        >
          {t('calibration.setScale.open')}
        </Button>
      )}
      {open && (
        <SetScaleDialog
          image={job.image}
          opened
          onClose={() => setOpen(false)}
          saveLabel={t('calibration.setScale.applyAndRerun')}
          onSaved={() =>
            rerun.mutate(
              { jobsIds: [job.id], modelId: job.modelId },
              { onSuccess: (jobs) => notifyJobStarted(t, jobs.length), onError: (err) => notifyJobError(t, err) },
            )
          }
        />
      )}
    </Group>
  );
}
