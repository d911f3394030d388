import { IconFileSpreadsheet, IconFileZip, IconPhoto, IconPolygon, IconTable } from '@tabler/icons-react';
import { resultFormatsApi, type ResultFormat } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { urlOf } from '../../api/client';
import { DownloadMenu } from '../../components/DownloadMenu';

const ITEMS: Array<{
  format: ResultFormat;
  label: 'resultFormats.labels' | 'resultFormats.rois' | 'resultFormats.geojson' | 'resultFormats.csv' | 'resultFormats.xlsx';
  Icon: typeof IconPhoto;
}> = [
  { format: 'labels.tif', label: 'resultFormats.labels', Icon: IconPhoto },
  { format: 'rois.zip', label: 'resultFormats.rois', Icon: IconFileZip },
  { format: 'objects.geojson', label: 'resultFormats.geojson', Icon: IconPolygon },
  { format: 'objects.csv', label: 'resultFormats.csv', Icon: IconTable },
  { format: 'objects.xlsx', label: 'resultFormats.xlsx', Icon: IconFileSpreadsheet },
];

/** The "Objects" menu of a finished job: its objects as a label image, ImageJ ROI set, GeoJSON or table (issue 27 item 4). */
export function ResultFormatsMenu({ job }: { job: { resultId: string | null; image: { orginalFilename: string } } }) {
  const { t } = useTranslation();
  if (!job.resultId) return null;
  const resultId = job.resultId;
  return (
    <DownloadMenu
      title={t('resultFormats.title')}
      ariaLabel={t('resultFormats.menuFor', { name: job.image.orginalFilename })}
      icon={<IconPolygon size={18} />}
      testId="result-formats-menu"
      items={ITEMS.map(({ format, label, Icon }) => ({
        testId: `result-format-${format}`,
        href: urlOf(resultFormatsApi.download, { params: { resultId, format } }),
        label: t(label),
        icon: <Icon size={16} />,
      }))}
    />
  );
}
