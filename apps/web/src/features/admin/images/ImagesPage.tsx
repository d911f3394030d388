/** /admin/images (back-office.md §2 Images screen): the Metadata Report download, every user's images, the public images library. */
import { Group, Stack, Tabs, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ReportDownload } from '../common/ReportDownload';
import { metadataReportUrl } from './api';
import { ImagesList } from './ImagesList';
import { PublicImagesLibrary } from './PublicImagesLibrary';

export function ImagesPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'public' ? 'public' : 'images';
  return (
    <Stack gap="md" data-testid="admin-images">
      <Group justify="space-between" align="center" wrap="wrap">
        <Title order={1} size="h2">
          {t('adminImages.title')}
        </Title>
        <ReportDownload
          label={t('adminImages.metadataReport')}
          xlsxLabel={t('adminReports.download.imagesXlsx')}
          href={metadataReportUrl}
          testId="metadata-report"
        />
      </Group>
      <Tabs value={tab} onChange={(v) => setParams(v === 'public' ? { tab: 'public' } : {}, { replace: true })} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="images">{t('adminImages.tabs.images')}</Tabs.Tab>
          <Tabs.Tab value="public" data-testid="tab-public-images">
            {t('adminImages.tabs.public')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="images" pt="md">
          <ImagesList />
        </Tabs.Panel>
        <Tabs.Panel value="public" pt="md">
          <PublicImagesLibrary />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
