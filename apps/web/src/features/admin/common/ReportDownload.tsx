import { Box, Button } from '@mantine/core';
import { IconDownload, IconFileSpreadsheet } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export type ReportFormat = 'csv' | 'xlsx';

/**
 * A back-office report download: the CSV button the spec names and, joined to it, the same report as Excel
 * (XLSX). Both files have headers in the staff member's language; the CSV uses their decimal separator.
 */
export function ReportDownload({
  label,
  xlsxLabel,
  href,
  testId,
}: {
  /** The CSV button's text (e.g. "Export Job Statistics"). */
  label: string;
  /** The XLSX button's accessible name and tooltip (e.g. "Job statistics as Excel (XLSX)"). */
  xlsxLabel: string;
  href: (format: ReportFormat) => string;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Button.Group>
      <Button component="a" href={href('csv')} download variant="light" leftSection={<IconDownload size={16} />} data-testid={testId}>
        {label}
      </Button>
      <Button
        component="a"
        href={href('xlsx')}
        download
        variant="light"
        px="xs"
        leftSection={<IconFileSpreadsheet size={16} />}
        aria-label={xlsxLabel}
        title={xlsxLabel}
        data-testid={testId ? `${testId}-xlsx` : undefined}
      >
        {/* phones: the icon alone (the accessible name stays) so the pair fits the width */}
        <Box component="span" visibleFrom="xs">
          {t('adminReports.download.xlsx')}
        </Box>
      </Button>
    </Button.Group>
  );
}
