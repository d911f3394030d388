import { Button, Card, Checkbox, Grid, Group, Image, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAvailableModels } from '../favourites/api';
import { imageUrl, useImages, useJobEvents, useRunJobs } from '../jobs/api';
import { notifyJobError, notifyJobStarted } from '../jobs/notify';
import type { UploadedImage } from '../jobs/types';
import { DashboardInsightsNews } from '../insights/DashboardInsightsNews';
import { LicenseCard } from './LicenseCard';
import { licenseLeft, RunLicenseHint } from './RunLicenseHint';
import { useAccount } from '../profile/api';
import { notifications } from '@mantine/notifications';
import { ProjectPicker } from './ProjectPicker';
import { RecentJobs } from './RecentJobs';
import { UploadZone } from './UploadZone';
import { useModelName } from '../../lib/modelName';

const RECENT_IMAGES = 12;

/** The dashboard (user-app.md §2 /dashboard/*): upload, choose models, run; recent jobs and the license. */
export function DashboardWorkbench() {
  const { t } = useTranslation();
  const nameOf = useModelName();
  useJobEvents();
  const images = useImages();
  const models = useAvailableModels();
  const run = useRunJobs();
  const account = useAccount();
  const [selectedImages, setSelectedImages] = useState<string[]>([]);
  const [selectedModels, setSelectedModels] = useState<string[]>([]);
  // ?project=<id> (the project page's "Upload into this project") chooses the project of the run.
  const [params, setParams] = useSearchParams();
  const projectId = params.get('project');
  const setProjectId = (id: string | null) =>
    setParams(
      (p) => {
        if (id) p.set('project', id);
        else p.delete('project');
        return p;
      },
      { replace: true },
    );

  const onUploaded = (uploaded: UploadedImage[]) => setSelectedImages((s) => [...new Set([...uploaded.map((i) => i.id), ...s])]);

  const submit = () => {
    run.mutate(
      { imageIds: selectedImages, modelIds: selectedModels, projectId },
      {
        onSuccess: (jobs) => {
          notifyJobStarted(t, jobs.length);
          // the license ran as many images as remained: say which part was not run
          const ran = new Set(jobs.map((j) => j.imageId)).size;
          const left = licenseLeft(account.data?.license);
          if (ran < selectedImages.length)
            notifications.show({
              color: 'orange',
              message: t('workbench.license.partial', { left: left ?? ran, ran, chosen: selectedImages.length }),
            });
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
                              {t('jobs.imageSize', { width: img.width, height: img.height })}
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
                      <Checkbox key={m.id} value={m.id} label={nameOf(m)} />
                    ))}
                  </Stack>
                </Checkbox.Group>
              )}
              <Stack mt="md">
                <ProjectPicker value={projectId} onChange={setProjectId} />
              </Stack>
              <Group justify="flex-end" mt="md" wrap="wrap">
                <RunLicenseHint chosen={selectedImages.length} />
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
            <DashboardInsightsNews />
            <RecentJobs />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
