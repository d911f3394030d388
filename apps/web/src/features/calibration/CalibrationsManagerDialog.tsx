import { Modal } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { CalibrationsManager } from './CalibrationsManager';

/** The named-calibrations manager in a dialog (opened from the upload's calibration picker). */
export function CalibrationsManagerDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const mobile = useMediaQuery('(max-width: 48em)');
  return (
    <Modal opened={opened} onClose={onClose} title={t('calibration.manager.title')} size="lg" fullScreen={mobile} centered>
      <CalibrationsManager />
    </Modal>
  );
}
