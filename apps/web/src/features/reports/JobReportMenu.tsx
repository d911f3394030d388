import { IconFileSpreadsheet, IconFileTypePdf, IconReport } from '@tabler/icons-react';
import { reportsApi } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { urlOf } from '../../api/client';
import { DownloadMenu } from '../../components/DownloadMenu';

/** The "Report" menu of a finished job on the results page: download the job report as PDF or Excel. */
export function JobReportMenu({ job }: { job: { id: string; image: { orginalFilename: string } } }) {
  const { t } = useTranslation();
  const href = (format: 'pdf' | 'xlsx') => urlOf(reportsApi.job, { params: { id: job.id }, query: { format } });
  return (
    <DownloadMenu
      title={t('reportsUi.job.menu')}
      ariaLabel={t('reportsUi.job.menuFor', { name: job.image.orginalFilename })}
      icon={<IconReport size={18} />}
      testId="job-report-menu"
      items={[
        { testId: 'job-report-pdf', href: href('pdf'), label: t('reportsUi.pdf'), icon: <IconFileTypePdf size={16} /> },
        { testId: 'job-report-xlsx', href: href('xlsx'), label: t('reportsUi.xlsx'), icon: <IconFileSpreadsheet size={16} /> },
      ]}
    />
  );
}
