import { Accordion, ActionIcon, Badge, Button, Checkbox, Group, Loader, Progress, Stack, Text, Tooltip } from '@mantine/core';
import { IconBrush, IconCrop, IconEdit, IconMessageReport, IconStar, IconStarFilled } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CropEditorDialog } from '../crop/CropEditorDialog';
import { CorrectionDialog } from '../correction/CorrectionDialog';
import { formatDateTime } from '../../lib/format';
import { StatusBadge } from '../jobs/StatusBadge';
import type { JobListRow } from '../jobs/types';
import { isRunning } from '../jobs/types';
import { ErrorPanel } from './ErrorPanel';
import { IssueReportDialog } from './IssueReportDialog';
import { RatingDialog } from './RatingDialog';
import { JobResultPanel } from './JobResultPanel';
import { FeedbackFlags } from './FeedbackFlags';
import { formatResultValue } from '../jobs/format';
import { keyResultOf } from './keyResult';
import { JobReportMenu } from '../reports/JobReportMenu';
import { ResultFormatsMenu } from './ResultFormatsMenu';

export const MASK_EDITOR_ROLES = ['ADMIN', 'POWER_USER', 'EDITOR'];

/** The mask editor opens in a new tab with `mask` (latest mask or empty), `image` and `job`. */
export function maskEditorUrl(job: JobListRow): string {
  const latest = job.masks[job.masks.length - 1];
  const q = new URLSearchParams({ mask: latest?.id ?? '', image: job.imageId, job: job.id });
  return `/admin/mask-editor?${q.toString()}`;
}

export interface Props {
  /** A row of the job list: its result is a brief (key value, feedback flags); the panel reads the full job. */
  job: JobListRow;
  /** The panel is open: its results are read (JobResultPanel) the first time it opens, and kept while it closes. */
  opened: boolean;
  selected: boolean;
  onSelect: (checked: boolean) => void;
  role: string | undefined;
}

/** One job of the results accordion: header with badges and buttons, panel with the results. */
export function JobItem({ job, opened, selected, onSelect, role }: Props) {
  const { t, i18n } = useTranslation();
  const [dialog, setDialog] = useState<'rating' | 'crop' | 'issue' | 'correct' | null>(null);
  const running = isRunning(job.status);
  const failed = job.status === 'FAILED';
  const customization = job.customization?.template
    ? i18n.language === 'de'
      ? job.customization.template.nameDe
      : job.customization.template.nameEn
    : null;
  const rating = job.userFeedback?.rating ?? 0;
  const key = failed || running ? null : keyResultOf(job.result?.measurements);
  // the panel's results are read once it has been opened, and stay while it closes (its animation)
  const [everOpened, setEverOpened] = useState(opened);
  if (opened && !everOpened) setEverOpened(true);

  return (
    <Accordion.Item value={job.id} data-testid="job-item" data-job-id={job.id} data-status={job.status}>
      {/* the action icons wrap below the name when the row is narrow (a phone): beside it they left the name about
          100 px and cut it to "grain-noi…" */}
      <Group gap={4} wrap="wrap" pl="xs" align="center">
        <Checkbox
          checked={selected}
          onChange={(e) => onSelect(e.currentTarget.checked)}
          aria-label={t('results.select', { name: job.image.orginalFilename })}
        />
        <Accordion.Control style={{ minWidth: 0, flex: '1 1 14rem' }}>
          <Stack gap={4}>
            {/* a long name takes up to two lines, broken anywhere (file names have no spaces) */}
            <Text fw={500} size="sm" lineClamp={2} title={job.image.orginalFilename} style={{ overflowWrap: 'anywhere' }} data-testid="job-filename">
              {job.image.orginalFilename}
            </Text>
            <Group gap={6} wrap="wrap">
              <Text size="xs" c="dimmed">
                {formatDateTime(job.createdAt, i18n.language)}
              </Text>
              <StatusBadge status={job.status} />
              {key && (
                <Badge color="dark" variant="outline" size="sm" tt="none" data-testid="key-result">
                  {t(key.labelKey, { value: formatResultValue(key.value, key.kind, i18n.language) })}
                </Badge>
              )}
              {job.outdated && (
                <Badge color="red" size="sm" data-testid="badge-outdated">
                  {t('results.badges.outdated')}
                </Badge>
              )}
              {job.withMasks && (
                <Badge color="violet" variant="light" size="sm">
                  {t('results.badges.withMasks')}
                </Badge>
              )}
              {job.crop && (
                <Badge color="gray" variant="light" size="sm">
                  {t('results.badges.cropped')}
                </Badge>
              )}
              {customization && (
                <Badge color="teal" variant="light" size="sm">
                  {customization}
                </Badge>
              )}
            </Group>
          </Stack>
        </Accordion.Control>
        <Group gap={2} wrap="nowrap" pr="xs" ml="auto" data-testid="job-actions">
          {!failed && MASK_EDITOR_ROLES.includes(role ?? '') && (
            <Tooltip label={t('results.actions.maskEditor')}>
              <ActionIcon
                variant="subtle"
                component="a"
                href={running ? undefined : maskEditorUrl(job)}
                target="_blank"
                rel="noopener"
                disabled={running}
                aria-label={t('results.actions.maskEditor')}
              >
                <IconBrush size={18} />
              </ActionIcon>
            </Tooltip>
          )}
          {!failed && !running && job.resultId && (
            <Tooltip label={t('results.correction.open')}>
              <ActionIcon
                variant="subtle"
                onClick={() => setDialog('correct')}
                aria-label={t('results.correction.open')}
                data-testid="correct-button"
              >
                <IconEdit size={18} />
              </ActionIcon>
            </Tooltip>
          )}
          {!failed && (
            <Tooltip label={t('results.actions.crop')}>
              <ActionIcon variant="subtle" onClick={() => setDialog('crop')} disabled={running} aria-label={t('results.actions.crop')}>
                <IconCrop size={18} />
              </ActionIcon>
            </Tooltip>
          )}
          {!failed && !running && (
            <>
              <Tooltip label={rating ? t('results.actions.ratingValue', { rating }) : t('results.actions.rate')}>
                <ActionIcon
                  variant="subtle"
                  color="yellow"
                  onClick={() => setDialog('rating')}
                  aria-label={t('results.actions.rate')}
                  data-testid="rate-button"
                >
                  {rating ? <IconStarFilled size={18} /> : <IconStar size={18} />}
                </ActionIcon>
              </Tooltip>
              <FeedbackFlags job={job} />
              <JobReportMenu job={job} />
              <ResultFormatsMenu job={job} />
            </>
          )}
        </Group>
      </Group>
      <Accordion.Panel>
        {running ? (
          <Stack align="center" py="lg" gap="xs" data-testid="job-running">
            <Loader />
            <Text size="sm" c="dimmed">
              {job.status === 'NEW' ? t('results.panel.queued') : t('results.panel.running')}
            </Text>
            {job.status === 'PENDING' && job.progress !== null && job.progress > 0 && (
              <Progress value={job.progress * (job.progress <= 1 ? 100 : 1)} w={200} />
            )}
          </Stack>
        ) : failed ? (
          <ErrorPanel jobId={job.id} isAdmin={role === 'ADMIN'} reason={job.failureReason} />
        ) : (
          everOpened && <JobResultPanel jobId={job.id} />
        )}
        {!running && (
          <Group justify="flex-end" mt="md">
            <Button variant="subtle" size="xs" color="gray" leftSection={<IconMessageReport size={16} />} onClick={() => setDialog('issue')}>
              {t('results.actions.reportIssue')}
            </Button>
          </Group>
        )}
      </Accordion.Panel>
      {dialog === 'rating' && <RatingDialog job={job} opened onClose={() => setDialog(null)} />}
      {dialog === 'crop' && <CropEditorDialog job={job} opened onClose={() => setDialog(null)} />}
      {dialog === 'issue' && <IssueReportDialog job={job} opened onClose={() => setDialog(null)} />}
      {dialog === 'correct' && <CorrectionDialog job={job} opened onClose={() => setDialog(null)} />}
    </Accordion.Item>
  );
}
