import { useTranslation } from 'react-i18next';
import type { Permission } from '@lamella/contracts';

/** The name and explanation of each grantable privilege, in the reader's language. */
export function usePermissionLabels(): Record<Permission, { label: string; hint: string }> {
  const { t } = useTranslation();
  return {
    'USER.READ': { label: t('accessControl.permission.userRead'), hint: t('accessControl.hint.userRead') },
    'USER.WRITE': { label: t('accessControl.permission.userWrite'), hint: t('accessControl.hint.userWrite') },
    'JOB.READ': { label: t('accessControl.permission.jobRead'), hint: t('accessControl.hint.jobRead') },
    'JOB.WRITE': { label: t('accessControl.permission.jobWrite'), hint: t('accessControl.hint.jobWrite') },
  };
}
