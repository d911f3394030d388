/** Pure rules of the vouchers and templates pages (accounts.md §2, §5): testable without rendering. */

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

/** DD/MM/YYYY HH:mm:ss (back-office §9 date display). */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getDate())}/${p(d.getMonth() + 1)}/${d.getFullYear()} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** The default expiry of a new voucher: 30 days ahead, as YYYY-MM-DD. */
export function defaultExpiry(now = new Date()): string {
  const d = new Date(now.getTime() + 30 * 86_400_000);
  return d.toISOString().slice(0, 10);
}
