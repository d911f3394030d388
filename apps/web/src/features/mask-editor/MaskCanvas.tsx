import { Box, Center, Group, Loader, Stack } from '@mantine/core';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { push, toOverlayRgba, type History, type Point } from './maskState';
import { rgb, type Tool } from './maskImage';
import { displayUrl } from './api';
import {
  brushRadius,
  cssTransform,
  frameToMask,
  initialView,
  isPanGesture,
  panBy,
  resizeView,
  viewForKey,
  viewForZoomKey,
  wheelFactor,
  zoomAt,
  zoomStep,
  type Geometry,
  type ZoomView,
} from './viewTransform';
import { MaskZoomBar } from './MaskZoomBar';

interface Props {
  imageId: string;
  alt: string;
  history: History | null;
  act: (fn: (h: History) => History) => void;
  tool: Tool;
  label: number;
  /** Brush diameter in screen pixels. */
  brush: number;
  loading: boolean;
  onImageLoad: (img: HTMLImageElement) => void;
  onImageError: () => void;
}

/** Keys typed into a field are not the editor's; Space also belongs to a focused button, radio or slider. */
const isTyping = (t: EventTarget | null) =>
  t instanceof Element && !!t.closest('textarea, select, [contenteditable="true"], input:not([type="radio"]):not([type="checkbox"])');
const isControl = (t: EventTarget | null) => isTyping(t) || (t instanceof Element && !!t.closest('button, input, [role="slider"], [role="radio"]'));

/**
 * The display rendition with the mask drawn over it, in a frame that zooms (wheel at the cursor, the zoom bar,
 * + − 0 keys) and pans (middle button, Space+drag, the hand tool, arrow keys when focused). Pointer positions map
 * to mask pixels through the view (viewTransform.ts); strokes preview live and commit on release.
 */
export function MaskCanvas({ imageId, alt, history, act, tool, label, brush, loading, onImageLoad, onImageError }: Props) {
  const { t } = useTranslation();
  const frameRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const stroke = useRef<Point[] | null>(null);
  const drag = useRef<{ x: number; y: number } | null>(null);
  const [view, setView] = useState<ZoomView>(initialView);
  const [space, setSpace] = useState(false);
  const [dragging, setDragging] = useState(false);

  const frameSize = useCallback(() => {
    const r = frameRef.current?.getBoundingClientRect();
    return { w: r?.width || 1, h: r?.height || 1, left: r?.left ?? 0, top: r?.top ?? 0 };
  }, []);

  // Draw the committed mask.
  useEffect(() => {
    const c = canvasRef.current;
    if (!c || !history) return;
    const m = history.present;
    if (c.width !== m.width || c.height !== m.height) {
      c.width = m.width;
      c.height = m.height;
    }
    c.getContext('2d')!.putImageData(new ImageData(toOverlayRgba(m) as Uint8ClampedArray<ArrayBuffer>, m.width, m.height), 0, 0);
  }, [history]);

  // The wheel zooms at the cursor (a non-passive listener keeps the page from scrolling).
  useEffect(() => {
    const el = frameRef.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const { w, h, left, top } = frameSize();
      setView((v) => zoomAt(v, wheelFactor(e.deltaY), e.clientX - left, e.clientY - top, w, h));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [frameSize]);

  // A resized frame (a narrower window) keeps the same part of the image in view.
  useEffect(() => {
    const el = frameRef.current;
    if (!el) return;
    let last = { w: el.clientWidth, h: el.clientHeight };
    const ro = new ResizeObserver(() => {
      const next = { w: el.clientWidth, h: el.clientHeight };
      if (!next.w || !next.h) return;
      const prev = last;
      last = next;
      setView((v) => resizeView(v, prev.w, prev.h, next.w, next.h));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // + − 0 anywhere on the page (not while typing); Space held pans.
  useEffect(() => {
    const onDown = (e: globalThis.KeyboardEvent) => {
      if (isTyping(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === ' ') {
        if (isControl(e.target)) return;
        e.preventDefault();
        setSpace(true);
        return;
      }
      if (frameRef.current?.contains(e.target as Node)) return; // the focused frame handles its keys
      const { w, h } = frameSize();
      setView((v) => viewForZoomKey(v, e.key, w, h) ?? v);
    };
    const onUp = (e: globalThis.KeyboardEvent) => {
      if (e.key === ' ') setSpace(false);
    };
    const onBlur = () => setSpace(false);
    window.addEventListener('keydown', onDown);
    window.addEventListener('keyup', onUp);
    window.addEventListener('blur', onBlur);
    return () => {
      window.removeEventListener('keydown', onDown);
      window.removeEventListener('keyup', onUp);
      window.removeEventListener('blur', onBlur);
    };
  }, [frameSize]);

  const geometry = (): Geometry | null => {
    if (!history) return null;
    const { w, h } = frameSize();
    return { frameW: w, frameH: h, maskW: history.present.width, maskH: history.present.height };
  };
  const toMask = (e: ReactPointerEvent, g: Geometry): Point => {
    const { left, top } = frameSize();
    return frameToMask(view, e.clientX - left, e.clientY - top, g);
  };

  const previewDot = (p: Point, r: number, from?: Point) => {
    const ctx = canvasRef.current?.getContext('2d');
    if (!ctx) return;
    const erasing = tool === 'erase' || label === 0;
    ctx.save();
    if (erasing) ctx.globalCompositeOperation = 'destination-out';
    ctx.strokeStyle = ctx.fillStyle = erasing ? 'rgba(0,0,0,1)' : rgb(label);
    ctx.globalAlpha = erasing ? 1 : 0.55;
    ctx.lineCap = 'round';
    ctx.lineWidth = r * 2;
    ctx.beginPath();
    if (from) {
      ctx.moveTo(from[0], from[1]);
      ctx.lineTo(p[0], p[1]);
      ctx.stroke();
    } else {
      ctx.arc(p[0], p[1], r, 0, Math.PI * 2);
      ctx.fill();
    }
    ctx.restore();
  };

  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (isPanGesture(e.button, space, tool)) {
      drag.current = { x: e.clientX, y: e.clientY };
      setDragging(true);
      e.currentTarget.setPointerCapture(e.pointerId);
      return;
    }
    const g = geometry();
    if (e.button !== 0 || !g) return;
    const p = toMask(e, g);
    if (tool === 'fill') {
      act((h) => push(h, { type: 'fill', label, x: p[0], y: p[1] }));
      return;
    }
    e.currentTarget.setPointerCapture(e.pointerId);
    stroke.current = [p];
    previewDot(p, brushRadius(brush, view, g));
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    if (start) {
      const { w, h } = frameSize();
      drag.current = { x: e.clientX, y: e.clientY };
      setView((v) => panBy(v, e.clientX - start.x, e.clientY - start.y, w, h));
      return;
    }
    const s = stroke.current;
    const g = geometry();
    if (!s || !g) return;
    const p = toMask(e, g);
    previewDot(p, brushRadius(brush, view, g), s[s.length - 1]);
    s.push(p);
  };
  const onPointerUp = () => {
    if (drag.current) {
      drag.current = null;
      setDragging(false);
      return;
    }
    const s = stroke.current;
    stroke.current = null;
    const g = geometry();
    if (!s || !g) return;
    const r = brushRadius(brush, view, g);
    act((h) => push(h, tool === 'erase' ? { type: 'erase', radius: r, points: s } : { type: 'paint', label, radius: r, points: s }));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const { w, h } = frameSize();
    const next = viewForKey(view, e.key, w, h);
    if (!next) return;
    e.preventDefault();
    setView(next);
  };
  const step = (dir: 1 | -1) => {
    const { w, h } = frameSize();
    setView((v) => zoomStep(v, dir, w, h));
  };

  const panning = tool === 'pan' || space;
  const cursor = dragging ? 'grabbing' : panning ? 'grab' : tool === 'fill' ? 'cell' : 'crosshair';

  return (
    <Stack gap={6} align="stretch">
      <Group justify="flex-end">
        <MaskZoomBar view={view} onStep={step} onFit={() => setView(initialView)} />
      </Group>
      <Box
        ref={frameRef}
        tabIndex={0}
        role="group"
        aria-label={t('maskEditor.zoom.frame', { name: alt })}
        data-testid="mask-frame"
        data-scale={view.scale.toFixed(3)}
        pos="relative"
        mx="auto"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onMouseDown={(e) => e.button === 1 && e.preventDefault()}
        onKeyDown={onKeyDown}
        style={{ lineHeight: 0, width: 'fit-content', maxWidth: '100%', overflow: 'hidden', touchAction: 'none', userSelect: 'none', cursor }}
      >
        <div style={{ position: 'relative', transformOrigin: '0 0', transform: cssTransform(view) }}>
          <img
            src={displayUrl(imageId)}
            alt={alt}
            crossOrigin="use-credentials"
            onLoad={(e) => onImageLoad(e.currentTarget)}
            onError={onImageError}
            draggable={false}
            style={{ display: 'block', maxWidth: '100%', maxHeight: 'calc(100vh - 220px)', width: 'auto', height: 'auto' }}
          />
          <canvas
            ref={canvasRef}
            data-testid="mask-canvas"
            style={{
              position: 'absolute',
              inset: 0,
              width: '100%',
              height: '100%',
              imageRendering: 'pixelated',
              display: history ? 'block' : 'none',
            }}
          />
        </div>
        {loading && (
          <Center pos="absolute" inset={0}>
            <Loader />
          </Center>
        )}
      </Box>
    </Stack>
  );
}
