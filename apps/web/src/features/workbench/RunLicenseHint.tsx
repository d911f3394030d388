import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAccount } from '../profile/api';

/** How many images are left on the user's license, said beside Run before it is pressed (issue 24 item 7). */
export function licenseLeft(license: { images: number | null; used: number } | null | undefined): number | null {
  if (!license || license.images === null) return null;
  return Math.max(0, license.images - license.used);
}

export function RunLicenseHint({ chosen }: { chosen: number }) {
  const { t } = useTranslation();
  const account = useAccount();
  const left = licenseLeft(account.data?.license);
  if (left === null) return null;
  const fewer = chosen > left;
  return (
    <Text size="sm" c={fewer ? 'orange.8' : 'dimmed'} data-testid="license-left" data-left={left}>
      {left === 0 ? t('workbench.license.leftNone') : t('workbench.license.left', { count: left })}
      {fewer && left > 0 ? ` ${t('workbench.license.leftFewer', { chosen, left })}` : ''}
    </Text>
  );
}
