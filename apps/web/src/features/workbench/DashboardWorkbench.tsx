import { Anchor, Badge, Button, Card, Checkbox, Grid, Group, Image, Progress, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAvailableModels } from '../favourites/api';
import { imageUrl, useAccount, useImages, useJobEvents, useJobsPage, useRunJobs } from '../jobs/api';
import { formatDateTime } from '../jobs/format';
import { notifyJobError, notifyJobStarted } from '../jobs/notify';
import { StatusBadge } from '../jobs/StatusBadge';
import type { UploadedImage } from '../jobs/types';
import { UploadZone } from './UploadZone';

const RECENT_IMAGES = 12;

/** The dashboard (user-app.md §2 /dashboard/*): upload, choose models, run; recent jobs and the license. */
export function DashboardWorkbench() {
  const { t } = useTranslation();
  useJobEvents();
  const images = useImages();
  const models = useAvailableModels();
  const run = useRunJobs();
  const [selectedImages, setSelectedImages] = useState<string[]>([]);
  const [selectedModels, setSelectedModels] = useState<string[]>([]);

  const onUploaded = (uploaded: UploadedImage[]) => setSelectedImages((s) => [...new Set([...uploaded.map((i) => i.id), ...s])]);

  const submit = () => {
    run.mutate(
      { imageIds: selectedImages, modelIds: selectedModels },
      {
        onSuccess: (jobs) => {
          notifyJobStarted(t, jobs.length);
          setSelectedImages([]);
        },
        onError: (e) => notifyJobError(t, e),
      },
    );
  };

  const recentImages = images.data?.slice(0, RECENT_IMAGES) ?? [];
  const canRun = selectedImages.length > 0 && selectedModels.length > 0;

  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {t('workbench.title')}
      </Title>
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="lg">
            <Card withBorder padding="md">
              <Title order={2} size="h4" mb="sm">
                {t('workbench.upload.heading')}
              </Title>
              <UploadZone onUploaded={onUploaded} />
            </Card>

            <Card withBorder padding="md">
              <Title order={2} size="h4" mb="sm">
                {t('workbench.images.heading')}
              </Title>
              {images.isPending ? (
                <Stack gap="xs">
                  <Skeleton h={40} />
                  <Skeleton h={40} />
                </Stack>
              ) : recentImages.length === 0 ? (
                <Text c="dimmed" size="sm">
                  {t('workbench.images.empty')}
                </Text>
              ) : (
                <Checkbox.Group value={selectedImages} onChange={setSelectedImages} label={t('workbench.images.choose')}>
                  <Stack gap={6} mt="xs">
                    {recentImages.map((img) => (
                      <Checkbox
                        key={img.id}
                        value={img.id}
                        data-testid="image-choice"
                        label={
                          <Group gap="xs" wrap="nowrap">
                            <Image src={imageUrl.thumbnail(img.id)} w={36} h={36} radius="sm" fit="cover" alt="" />
                            <Text size="sm" truncate="end" maw={{ base: 220, sm: 360 }}>
                              {img.orginalFilename}
                            </Text>
                            <Text size="xs" c="dimmed" visibleFrom="sm">
                              {img.width}×{img.height}
                            </Text>
                          </Group>
                        }
                        styles={{ body: { alignItems: 'center' } }}
                      />
                    ))}
                  </Stack>
                </Checkbox.Group>
              )}
            </Card>

            <Card withBorder padding="md">
              <Title order={2} size="h4" mb="sm">
                {t('workbench.models.heading')}
              </Title>
              {models.isPending ? (
                <Skeleton h={80} />
              ) : (
                <Checkbox.Group value={selectedModels} onChange={setSelectedModels} label={t('workbench.models.choose')}>
                  <Stack gap={6} mt="xs">
                    {models.data?.map((m) => (
                      <Checkbox key={m.id} value={m.id} label={m.displayName} />
                    ))}
                  </Stack>
                </Checkbox.Group>
              )}
              <Group justify="flex-end" mt="md">
                <Button leftSection={<IconPlayerPlay size={16} />} onClick={submit} disabled={!canRun} loading={run.isPending}>
                  {t('workbench.run', { count: selectedImages.length * selectedModels.length })}
                </Button>
              </Group>
            </Card>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="lg">
            <LicenseCard />
            <RecentJobs />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

function LicenseCard() {
  const { t, i18n } = useTranslation();
  const account = useAccount();
  const license = account.data?.license;
  return (
    <Card withBorder padding="md" data-testid="license-card">
      <Title order={2} size="h4" mb="sm">
        {t('workbench.license.heading')}
      </Title>
      {account.isPending ? (
        <Skeleton h={60} />
      ) : !license ? (
        <Text size="sm" c="dimmed">
          {t('workbench.license.none')}
        </Text>
      ) : (
        <Stack gap={6}>
          <Group justify="space-between">
            <Text size="sm">{t('workbench.license.type')}</Text>
            <Badge variant="light">{license.type}</Badge>
          </Group>
          <Group justify="space-between">
            <Text size="sm">{t('workbench.license.used')}</Text>
            <Text size="sm" fw={500}>
              {license.images === null
                ? t('workbench.license.usedUnlimited', { used: license.used })
                : t('workbench.license.usedOf', { used: license.used, limit: license.images })}
            </Text>
          </Group>
          {license.images !== null && license.images > 0 && (
            <Progress
              value={Math.min(100, (license.used / license.images) * 100)}
              color={license.used >= license.images ? 'red' : 'blue'}
              aria-label={t('workbench.license.used')}
            />
          )}
          <Group justify="space-between">
            <Text size="sm">{t('workbench.license.expires')}</Text>
            <Text size="sm" c={license.finish && new Date(license.finish) < new Date() ? 'red' : undefined}>
              {license.finish
                ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(license.finish))
                : t('workbench.license.noExpiry')}
            </Text>
          </Group>
        </Stack>
      )}
    </Card>
  );
}

function RecentJobs() {
  const { t, i18n } = useTranslation();
  const jobs = useJobsPage({ pageSize: 10, sortBy: 'createdAt', sortOrder: 'desc' });
  return (
    <Card withBorder padding="md">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {t('workbench.recent.heading')}
        </Title>
        <Anchor component={Link} to="/history" size="sm">
          {t('workbench.recent.all')}
        </Anchor>
      </Group>
      {jobs.isPending ? (
        <Stack gap="xs">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} h={36} />
          ))}
        </Stack>
      ) : !jobs.data?.jobs.length ? (
        <Text size="sm" c="dimmed">
          {t('jobs.empty')}
        </Text>
      ) : (
        <Stack gap={8} data-testid="recent-jobs">
          {jobs.data.jobs.map((j) => (
            <Group key={j.id} justify="space-between" wrap="nowrap" gap="xs" data-testid="recent-job">
              <div style={{ minWidth: 0, flex: 1 }}>
                <Anchor component={Link} to={`/models/${j.model.name.toLowerCase()}`} size="sm" display="block" truncate="end">
                  {j.image.orginalFilename}
                </Anchor>
                <Text size="xs" c="dimmed" truncate="end">
                  {j.model.displayName} · {formatDateTime(j.createdAt, i18n.language)}
                </Text>
              </div>
              <StatusBadge status={j.status} />
            </Group>
          ))}
        </Stack>
      )}
    </Card>
  );
}
