import { ColorSwatch, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LEGEND_LABELS, legendKey, legendKind } from './legend';
import { rgb } from './maskImage';

/** What labels 0 and 1 mean for the job's model, with the canvas colours (label 0 is unpainted: transparent). */
export function MaskLegend({ model }: { model: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={6} data-testid="mask-legend">
      <Text size="sm" fw={600}>
        {t('maskEditor.legendTitle')}
      </Text>
      {LEGEND_LABELS.map((l) => (
        <Group key={l} gap="xs" wrap="nowrap" data-testid={`legend-label-${l}`}>
          <ColorSwatch color={rgb(l)} size={20} radius="sm" style={{ flexShrink: 0, boxShadow: 'inset 0 0 0 1px var(--mantine-color-gray-5)' }}>
            <Text span size="xs" fw={700} c={l === 0 ? 'dark' : 'white'}>
              {l}
            </Text>
          </ColorSwatch>
          <Text size="sm">{t(legendKey(model, l))}</Text>
        </Group>
      ))}
      <Text size="xs" c="dimmed">
        {t('maskEditor.legendOthers')}
      </Text>
      <Text size="xs" c="dimmed">
        {t(`maskEditor.legend.${legendKind(model)}`)}
      </Text>
    </Stack>
  );
}
