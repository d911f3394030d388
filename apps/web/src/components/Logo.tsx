import { useTranslation } from 'react-i18next';

/** The "Lamella" wordmark: stacked lamellae (a nod to pearlite) and the name, as inline SVG. */
export function Logo({ height = 28 }: { height?: number }) {
  const { t } = useTranslation();
  const name = t('common.appName');
  return (
    <svg height={height} viewBox="0 0 150 32" role="img" aria-label={name} style={{ display: 'block' }}>
      <title>{name}</title>
      <g fill="var(--mantine-color-indigo-6)">
        <rect x="2" y="4" width="26" height="4" rx="2" />
        <rect x="2" y="11" width="20" height="4" rx="2" opacity="0.8" />
        <rect x="2" y="18" width="26" height="4" rx="2" opacity="0.6" />
        <rect x="2" y="25" width="16" height="4" rx="2" opacity="0.4" />
      </g>
      <text
        x="36"
        y="24"
        fontFamily="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
        fontSize="22"
        fontWeight="700"
        letterSpacing="0.5"
        fill="var(--mantine-color-dark-7)"
      >
        {name}
      </text>
    </svg>
  );
}
