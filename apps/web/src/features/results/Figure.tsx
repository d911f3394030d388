import { Anchor, Card, Group, Slider, Switch, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ZoomPanImage } from './ZoomPanImage';

/**
 * A result figure that zooms and pans. With `originalSrc` (an overlay drawn by the model): when the overlay covers
 * the original image (the same aspect: overlays are drawn on the whole image), an opacity slider fades the overlay
 * over the original (0 %: the original alone); otherwise (older overlays of a cropped area) a switch shows one or
 * the other. The link opens the overlay in a new tab.
 */
export function Figure({ src, caption, alt, originalSrc }: { src: string; caption: string; alt: string; originalSrc?: string }) {
  const { t } = useTranslation();
  const [overlay, setOverlay] = useState(true);
  const [opacity, setOpacity] = useState(100);
  const [aligned, setAligned] = useState(true);
  const blend = !!originalSrc && aligned;
  const shown = originalSrc && !blend && !overlay ? originalSrc : src;
  return (
    <Card withBorder padding={4} component="figure" m={0}>
      <ZoomPanImage src={shown} alt={alt} underSrc={blend ? originalSrc : undefined} opacity={opacity / 100} onMisaligned={() => setAligned(false)} />
      <Group justify="space-between" gap="xs" mt={4} px={4} wrap="nowrap">
        {blend ? (
          <Slider
            size="sm"
            min={0}
            max={100}
            step={5}
            value={opacity}
            onChange={setOpacity}
            label={(v) => `${v} %`}
            w={140}
            miw={100}
            thumbLabel={t('resultText.ui.overlayOpacity')}
            aria-label={t('resultText.ui.overlayOpacity')}
            title={t('resultText.ui.overlayOpacityValue', { value: opacity })}
            data-testid="overlay-opacity"
          />
        ) : originalSrc ? (
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
        <Text component="figcaption" size="xs" c="dimmed" ta="center" truncate="end" title={caption}>
          {caption}
        </Text>
        <Anchor href={shown} target="_blank" rel="noreferrer" size="xs" aria-label={t('resultText.ui.openImage')}>
          <IconExternalLink size={14} />
        </Anchor>
      </Group>
    </Card>
  );
}
