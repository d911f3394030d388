import { useTranslation } from 'react-i18next';
import { ACTION_LABELS, TARGET_LABELS } from './labels';

/** Readable names of the action codes and target types the product records; unknown codes are shown as they are. */
export function useAuditLabels() {
  const { t } = useTranslation();
  const actions: Record<string, string> = Object.fromEntries(Object.entries(ACTION_LABELS).map(([code, key]) => [code, t(key)]));
  const targets: Record<string, string> = Object.fromEntries(Object.entries(TARGET_LABELS).map(([code, key]) => [code, t(key)]));
  return {
    actions,
    targets,
    action: (code: string) => actions[code] ?? code,
    target: (type: string) => targets[type] ?? type,
  };
}
