import { useTranslation } from 'react-i18next';

/** Readable names of the action codes and target types the product records; unknown codes are shown as they are. */
export function useAuditLabels() {
  const { t } = useTranslation();
  const actions: Record<string, string> = {
    'user.role.set': t('auditLog.action.userRoleSet'),
    'user.activate': t('auditLog.action.userActivate'),
    'user.preferences.set': t('auditLog.action.userPreferencesSet'),
    'user.privileges.set': t('auditLog.action.userPrivilegesSet'),
    'user.impersonate.start': t('auditLog.action.userImpersonateStart'),
    'user.impersonate.end': t('auditLog.action.userImpersonateEnd'),
    'user.delete': t('auditLog.action.userDelete'),
    'license.assign': t('auditLog.action.licenseAssign'),
    'settings.demoLicense.set': t('auditLog.action.demoLicenseSet'),
    'job.feedback.add': t('auditLog.action.jobFeedbackAdd'),
    'job.feedback.delete': t('auditLog.action.jobFeedbackDelete'),
    'launcher.create': t('auditLog.action.launcherCreate'),
    'launcher.delete': t('auditLog.action.launcherDelete'),
    'launcher.updateAll': t('auditLog.action.launcherUpdateAll'),
    'model.access.grant': t('auditLog.action.modelAccessGrant'),
    'model.access.revoke': t('auditLog.action.modelAccessRevoke'),
    'model.create': t('auditLog.action.modelCreate'),
    'model.update': t('auditLog.action.modelUpdate'),
    'model.delete': t('auditLog.action.modelDelete'),
    'model.example.update': t('auditLog.action.modelExampleUpdate'),
    'model.manual.update': t('auditLog.action.modelManualUpdate'),
    'node.create': t('auditLog.action.nodeCreate'),
    'node.delete': t('auditLog.action.nodeDelete'),
    'node.start': t('auditLog.action.nodeStart'),
    'node.stop': t('auditLog.action.nodeStop'),
    'storage.quota.set': t('auditLog.action.storageQuotaSet'),
    'template.create': t('auditLog.action.templateCreate'),
    'template.update': t('auditLog.action.templateUpdate'),
    'template.delete': t('auditLog.action.templateDelete'),
    'voucher.create': t('auditLog.action.voucherCreate'),
    'voucher.delete': t('auditLog.action.voucherDelete'),
  };
  const targets: Record<string, string> = {
    user: t('auditLog.target.user'),
    job: t('auditLog.target.job'),
    node: t('auditLog.target.node'),
    launcher: t('auditLog.target.launcher'),
    model: t('auditLog.target.model'),
    settings: t('auditLog.target.settings'),
    customization_group: t('auditLog.target.customizationGroup'),
    settings_template: t('auditLog.target.settingsTemplate'),
    storage_quota: t('auditLog.target.storageQuota'),
    voucher: t('auditLog.target.voucher'),
  };
  return {
    actions,
    targets,
    action: (code: string) => actions[code] ?? code,
    target: (type: string) => targets[type] ?? type,
  };
}
