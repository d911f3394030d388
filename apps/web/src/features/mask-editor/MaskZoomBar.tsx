import { ActionIcon, Button, Group, Tooltip } from '@mantine/core';
import { IconZoomIn, IconZoomOut, IconZoomReset } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { MAX_SCALE, MIN_SCALE, zoomPercent, type ZoomView } from './viewTransform';

interface Props {
  view: ZoomView;
  onStep: (dir: 1 | -1) => void;
  onFit: () => void;
}

/** Zoom out, the zoom indicator (a press fits the image), zoom in, fit. */
export function MaskZoomBar({ view, onStep, onFit }: Props) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="nowrap" data-testid="mask-zoom">
      <Tooltip label={t('maskEditor.zoom.out')}>
        <ActionIcon variant="default" size="lg" aria-label={t('maskEditor.zoom.out')} onClick={() => onStep(-1)} disabled={view.scale <= MIN_SCALE}>
          <IconZoomOut size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={t('maskEditor.zoom.fit')}>
        <Button variant="subtle" size="compact-sm" miw={96} onClick={onFit} data-testid="zoom-level" data-scale={view.scale.toFixed(3)}>
          {t('maskEditor.zoom.level', { percent: zoomPercent(view) })}
        </Button>
      </Tooltip>
      <Tooltip label={t('maskEditor.zoom.in')}>
        <ActionIcon variant="default" size="lg" aria-label={t('maskEditor.zoom.in')} onClick={() => onStep(1)} disabled={view.scale >= MAX_SCALE}>
          <IconZoomIn size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={t('maskEditor.zoom.fit')}>
        <ActionIcon variant="default" size="lg" aria-label={t('maskEditor.zoom.fit')} onClick={onFit} disabled={view.scale <= MIN_SCALE}>
          <IconZoomReset size={18} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
