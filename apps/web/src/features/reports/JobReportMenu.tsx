import { ActionIcon, Menu } from '@mantine/core';
import { IconFileSpreadsheet, IconFileTypePdf, IconReport } from '@tabler/icons-react';
import { reportsApi } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { urlOf } from '../../api/client';

/** The "Report" menu of a finished job on the results page: download the job report as PDF or Excel. */
export function JobReportMenu({ job }: { job: { id: string; image: { orginalFilename: string } } }) {
  const { t } = useTranslation();
  const href = (format: 'pdf' | 'xlsx') => urlOf(reportsApi.job, { params: { id: job.id }, query: { format } });
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          title={t('reportsUi.job.menu')}
          aria-label={t('reportsUi.job.menuFor', { name: job.image.orginalFilename })}
          data-testid="job-report-menu"
        >
          <IconReport size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('reportsUi.job.menu')}</Menu.Label>
        <Menu.Item component="a" href={href('pdf')} download leftSection={<IconFileTypePdf size={16} />} data-testid="job-report-pdf">
          {t('reportsUi.pdf')}
        </Menu.Item>
        <Menu.Item component="a" href={href('xlsx')} download leftSection={<IconFileSpreadsheet size={16} />} data-testid="job-report-xlsx">
          {t('reportsUi.xlsx')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
