import { ActionIcon, Box, Group, Tooltip } from '@mantine/core';
import { IconZoomIn, IconZoomOut, IconZoomReset } from '@tabler/icons-react';
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { initialView, panBy, viewForKey, zoomAt, ZOOM_STEP, type ZoomView } from './zoom';

const HEIGHT = 320;

/**
 * An image in a frame that zooms (wheel at the cursor, the buttons, + and − keys) and pans (drag, arrow keys);
 * 0 resets. The view rules are in zoom.ts. The view stays when `src` changes (the overlay switch), so the same
 * place can be compared with and without the overlay. With `underSrc` (the original image), `src` is drawn over it
 * at `opacity`: the overlay's opacity slider fades one into the other.
 */
const aspect = (img: HTMLImageElement | null) => (img && img.naturalHeight ? img.naturalWidth / img.naturalHeight : 0);
export function ZoomPanImage({
  src,
  alt,
  underSrc,
  opacity = 1,
  onMisaligned,
}: {
  src: string;
  alt: string;
  underSrc?: string;
  opacity?: number;
  /** Called when the two images' aspect ratios differ (an overlay of a cropped area): they cannot be faded into one. */
  onMisaligned?: () => void;
}) {
  const { t } = useTranslation();
  const frame = useRef<HTMLDivElement>(null);
  const [view, setView] = useState<ZoomView>(initialView);
  const drag = useRef<{ x: number; y: number } | null>(null);
  const under = useRef<HTMLImageElement>(null);
  const over = useRef<HTMLImageElement>(null);
  const checkAligned = () => {
    const a = aspect(under.current),
      b = aspect(over.current);
    if (a && b && Math.abs(a / b - 1) > 0.01) onMisaligned?.();
  };
  const size = () => ({ w: frame.current?.clientWidth ?? 1, h: frame.current?.clientHeight ?? 1 });

  // the wheel needs a non-passive listener to keep the page from scrolling while zooming
  useEffect(() => {
    const el = frame.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const r = el.getBoundingClientRect();
      setView((v) => zoomAt(v, e.deltaY < 0 ? ZOOM_STEP : 1 / ZOOM_STEP, e.clientX - r.left, e.clientY - r.top, r.width, r.height));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, []);

  const zoomBy = (factor: number) => {
    const { w, h } = size();
    setView((v) => zoomAt(v, factor, w / 2, h / 2, w, h));
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (view.scale <= 1) return;
    drag.current = { x: e.clientX, y: e.clientY };
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    if (!start) return;
    const { w, h } = size();
    drag.current = { x: e.clientX, y: e.clientY };
    setView((v) => panBy(v, e.clientX - start.x, e.clientY - start.y, w, h));
  };
  const endDrag = () => {
    drag.current = null;
  };
  const imgStyle = {
    width: '100%',
    height: '100%',
    objectFit: 'contain',
    transformOrigin: '0 0',
    transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})`,
    userSelect: 'none',
  } as const;

  return (
    <Box pos="relative">
      <Box
        ref={frame}
        tabIndex={0}
        role="group"
        aria-label={t('resultText.ui.zoomHelp', { name: alt })}
        data-testid="zoom-frame"
        data-scale={view.scale.toFixed(2)}
        h={HEIGHT}
        bg="gray.0"
        style={{ position: 'relative', overflow: 'hidden', cursor: view.scale > 1 ? 'grab' : 'zoom-in', touchAction: 'none', borderRadius: 4 }}
        onKeyDown={(e) => {
          const { w, h } = size();
          const next = viewForKey(view, e.key, w, h);
          if (!next) return;
          e.preventDefault();
          setView(next);
        }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        onDoubleClick={() => (view.scale >= 4 ? setView(initialView) : zoomBy(2))}
      >
        {underSrc && (
          <img
            ref={under}
            src={underSrc}
            alt=""
            aria-hidden
            loading="lazy"
            draggable={false}
            onLoad={checkAligned}
            style={{ ...imgStyle, position: 'absolute', inset: 0 }}
          />
        )}
        <img
          ref={over}
          src={src}
          alt={alt}
          loading="lazy"
          draggable={false}
          onLoad={checkAligned}
          data-testid="zoom-image"
          style={{ ...imgStyle, position: underSrc ? 'absolute' : undefined, inset: 0, opacity: underSrc ? opacity : 1 }}
        />
      </Box>
      <Group gap={2} pos="absolute" top={6} right={6}>
        <Tooltip label={t('resultText.ui.zoomIn')}>
          <ActionIcon variant="default" size="sm" aria-label={t('resultText.ui.zoomIn')} onClick={() => zoomBy(ZOOM_STEP)} data-testid="zoom-in">
            <IconZoomIn size={14} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label={t('resultText.ui.zoomOut')}>
          <ActionIcon variant="default" size="sm" aria-label={t('resultText.ui.zoomOut')} onClick={() => zoomBy(1 / ZOOM_STEP)}>
            <IconZoomOut size={14} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label={t('resultText.ui.zoomReset')}>
          <ActionIcon
            variant="default"
            size="sm"
            aria-label={t('resultText.ui.zoomReset')}
            onClick={() => setView(initialView)}
            data-testid="zoom-reset"
          >
            <IconZoomReset size={14} />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Box>
  );
}
