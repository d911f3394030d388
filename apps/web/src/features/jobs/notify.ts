/** The job toasts of user-app.md §8 (5 s, set on the provider). */
import { notifications } from '@mantine/notifications';
import type { TFunction } from 'i18next';
import { isApiError } from '../../api/client';
import { errorText } from '../../lib/errorText';

export function notifyJobStarted(t: TFunction, count = 1) {
  notifications.show({ color: 'blue', title: t('jobs.toast.startedTitle'), message: t('jobs.toast.started', { count }) });
}

/** A failed start or re-run: yellow "job failed", or the red license toast for LICENSE_LIMIT_EXCEEDED. */
export function notifyJobError(t: TFunction, error: unknown) {
  if (isApiError(error) && error.code === 'LICENSE_LIMIT_EXCEEDED') {
    notifications.show({ color: 'red', title: t('dashboard.licenseLimitExceeded'), message: error.message || t('jobs.toast.licenseText') });
    return;
  }
  notifications.show({ color: 'yellow', title: t('jobs.toast.failedTitle'), message: errorText(t, error, 'jobs.toast.failed') });
}

export function notifySuccess(t: TFunction, key: string, count: number) {
  notifications.show({ color: 'green', title: t('jobs.toast.success'), message: t(key, { count }) });
}
