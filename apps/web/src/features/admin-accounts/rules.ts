/** Pure rules of the vouchers and templates pages (accounts.md §2, §5): testable without rendering. */
import { formatFilterDate } from '../../lib/format';

/** Rules of the template form (accounts.md §5); pure so they can be tested. */
export function templateErrors(values: { name: string; settings: string }): { name?: 'nameRequired'; settings?: 'settingsRequired' | 'invalidJson' } {
  const out: ReturnType<typeof templateErrors> = {};
  if (!values.name.trim()) out.name = 'nameRequired';
  if (!values.settings.trim()) out.settings = 'settingsRequired';
  else {
    try {
      const parsed: unknown = JSON.parse(values.settings);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) out.settings = 'invalidJson';
    } catch {
      out.settings = 'invalidJson';
    }
  }
  return out;
}

/** The default expiry of a new voucher: 30 days ahead, as YYYY-MM-DD. */
export function defaultExpiry(now = new Date()): string {
  const d = new Date(now.getTime() + 30 * 86_400_000);
  return formatFilterDate(d);
}
