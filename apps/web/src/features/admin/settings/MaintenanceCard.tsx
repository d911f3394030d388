import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAdminSettings, useModelNames } from './api';
import { CardState } from './CardState';
import { MaintenanceForm } from './MaintenanceForm';
import { SettingsCard } from './SettingsCard';

/** Maintenance mode (back-office.md §3 "Maintenance settings"): on while at least one model is chosen. */
export function MaintenanceCard() {
  const { t } = useTranslation();
  const settings = useAdminSettings();
  const models = useModelNames();
  const saved = settings.data?.maintenance;
  const on = Boolean(saved?.maintenanceModels.length);
  return (
    <SettingsCard
      title={t('adminSettings.maintenance.title')}
      description={t('adminSettings.maintenance.description')}
      testId="settings-maintenance"
      aside={
        saved ? (
          <Badge color={on ? 'orange' : 'gray'} variant="light" data-testid="maintenance-state">
            {on ? t('adminSettings.maintenance.on') : t('adminSettings.maintenance.off')}
          </Badge>
        ) : null
      }
    >
      <CardState queries={[settings, models]}>
        {saved && models.data ? <MaintenanceForm key={JSON.stringify(saved)} initial={saved} models={models.data} /> : null}
      </CardState>
    </SettingsCard>
  );
}
