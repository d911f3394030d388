import { useTranslation } from 'react-i18next';

/** Formats a figure in the UI language; '—' when there is none (e.g. no NPS answers yet). */
export function useNumber() {
  const { i18n } = useTranslation();
  return (value: number | null | undefined, digits = 0): string =>
    value === null || value === undefined || !Number.isFinite(value)
      ? '—'
      : new Intl.NumberFormat(i18n.language, { maximumFractionDigits: digits }).format(value);
}
