import { useTranslation } from 'react-i18next';
import { useDemoLicense } from './api';
import { CardState } from './CardState';
import { DemoLicenseForm } from './DemoLicenseForm';
import { SettingsCard } from './SettingsCard';

/** Demo license (back-office.md §3 "Demo license settings"): the trial every new account gets, and its reminder mails. */
export function DemoLicenseCard() {
  const { t } = useTranslation();
  const demo = useDemoLicense();
  return (
    <SettingsCard title={t('adminSettings.demo.title')} description={t('adminSettings.demo.description')} testId="settings-demo-license">
      <CardState queries={[demo]}>{demo.data ? <DemoLicenseForm key={JSON.stringify(demo.data)} initial={demo.data} /> : null}</CardState>
    </SettingsCard>
  );
}
