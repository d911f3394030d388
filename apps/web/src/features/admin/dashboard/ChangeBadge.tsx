import { Badge } from '@mantine/core';

/** The customers change badge: new customers of the window against the window before (positive, negative, neutral). */
export function ChangeBadge({ current, previous }: { current: number; previous: number }) {
  const diff = current - previous;
  const pct = previous === 0 ? null : Math.round((diff / previous) * 100);
  const color = diff > 0 ? 'green' : diff < 0 ? 'red' : 'gray';
  const sign = diff > 0 ? '+' : '';
  const text = pct === null ? `${sign}${diff}` : `${sign}${pct}%`;
  return (
    <Badge color={color} variant="light" data-testid="customers-change">
      {text}
    </Badge>
  );
}
