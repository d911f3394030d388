import { Button, Menu } from '@mantine/core';
import { IconChevronDown, IconFileSpreadsheet, IconFileTypePdf, IconReport } from '@tabler/icons-react';
import { reportsApi } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { urlOf } from '../../api/client';

/** The "Specimen report" menu of a project: each image is a field, with the field statistics (PDF or Excel). */
export function ProjectReportMenu({ project }: { project: { id: string; imageCount: number } }) {
  const { t } = useTranslation();
  const href = (format: 'pdf' | 'xlsx') => urlOf(reportsApi.project, { params: { id: project.id }, query: { format } });
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconReport size={14} />}
          rightSection={<IconChevronDown size={14} />}
          disabled={project.imageCount === 0}
          title={project.imageCount === 0 ? t('reportsUi.project.noImages') : undefined}
          data-testid="project-report-menu"
        >
          {t('reportsUi.project.menu')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component="a" href={href('pdf')} download leftSection={<IconFileTypePdf size={16} />} data-testid="project-report-pdf">
          {t('reportsUi.pdf')}
        </Menu.Item>
        <Menu.Item component="a" href={href('xlsx')} download leftSection={<IconFileSpreadsheet size={16} />} data-testid="project-report-xlsx">
          {t('reportsUi.xlsx')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
