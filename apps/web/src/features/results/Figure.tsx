import { Anchor, Card, Group, Switch, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ZoomPanImage } from './ZoomPanImage';

/**
 * A result figure that zooms and pans. With `originalSrc` (an overlay drawn by the model), a switch shows the
 * overlay or the image it was drawn on; the link opens what is shown in a new tab.
 */
export function Figure({ src, caption, alt, originalSrc }: { src: string; caption: string; alt: string; originalSrc?: string }) {
  const { t } = useTranslation();
  const [overlay, setOverlay] = useState(true);
  const shown = originalSrc && !overlay ? originalSrc : src;
  return (
    <Card withBorder padding={4} component="figure" m={0}>
      <ZoomPanImage src={shown} alt={alt} />
      <Group justify="space-between" gap="xs" mt={4} px={4} wrap="nowrap">
        {originalSrc ? (
          <Switch
            size="xs"
            checked={overlay}
            onChange={(e) => setOverlay(e.currentTarget.checked)}
            label={t('resultText.ui.overlay')}
            data-testid="overlay-switch"
          />
        ) : (
          <span />
        )}
        <Text component="figcaption" size="xs" c="dimmed" ta="center" truncate="end">
          {caption}
        </Text>
        <Anchor href={shown} target="_blank" rel="noreferrer" size="xs" aria-label={t('resultText.ui.openImage')}>
          <IconExternalLink size={14} />
        </Anchor>
      </Group>
    </Card>
  );
}
