import { Box, Center, Loader } from '@mantine/core';
import { useEffect, useRef, type PointerEvent as ReactPointerEvent } from 'react';
import { push, toOverlayRgba, type History, type Point } from './maskState';
import { rgb, type Tool } from './maskImage';
import { displayUrl } from './api';

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

/** The display rendition with the mask drawn over it; strokes preview live and commit on release. */
export function MaskCanvas({ imageId, alt, history, act, tool, label, brush, loading, onImageLoad, onImageError }: Props) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const stroke = useRef<Point[] | null>(null);

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

  const toMask = (e: ReactPointerEvent<HTMLCanvasElement>): Point => {
    const c = e.currentTarget;
    const r = c.getBoundingClientRect();
    return [((e.clientX - r.left) * c.width) / r.width, ((e.clientY - r.top) * c.height) / r.height];
  };
  /** Brush radius in mask pixels: the slider is in screen pixels. */
  const radius = (c: HTMLCanvasElement) => (brush / 2) * (c.width / c.getBoundingClientRect().width);

  const previewDot = (c: HTMLCanvasElement, p: Point, from?: Point) => {
    const ctx = c.getContext('2d')!;
    ctx.save();
    if (tool === 'erase') ctx.globalCompositeOperation = 'destination-out';
    ctx.strokeStyle = ctx.fillStyle = tool === 'erase' ? 'rgba(0,0,0,1)' : rgb(label);
    ctx.globalAlpha = tool === 'erase' ? 1 : 0.55;
    ctx.lineCap = 'round';
    ctx.lineWidth = radius(c) * 2;
    ctx.beginPath();
    if (from) {
      ctx.moveTo(from[0], from[1]);
      ctx.lineTo(p[0], p[1]);
      ctx.stroke();
    } else {
      ctx.arc(p[0], p[1], radius(c), 0, Math.PI * 2);
      ctx.fill();
    }
    ctx.restore();
  };

  const onPointerDown = (e: ReactPointerEvent<HTMLCanvasElement>) => {
    if (!history) return;
    const p = toMask(e);
    if (tool === 'fill') {
      act((h) => push(h, { type: 'fill', label, x: p[0], y: p[1] }));
      return;
    }
    e.currentTarget.setPointerCapture(e.pointerId);
    stroke.current = [p];
    previewDot(e.currentTarget, p);
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLCanvasElement>) => {
    const s = stroke.current;
    if (!s) return;
    const p = toMask(e);
    previewDot(e.currentTarget, p, s[s.length - 1]);
    s.push(p);
  };
  const onPointerUp = (e: ReactPointerEvent<HTMLCanvasElement>) => {
    const s = stroke.current;
    stroke.current = null;
    if (!s) return;
    const r = radius(e.currentTarget);
    act((h) => push(h, tool === 'erase' ? { type: 'erase', radius: r, points: s } : { type: 'paint', label, radius: r, points: s }));
  };

  return (
    <Box pos="relative" mx="auto" style={{ lineHeight: 0, width: 'fit-content', maxWidth: '100%', touchAction: 'none', userSelect: 'none' }}>
      <img
        src={displayUrl(imageId)}
        alt={alt}
        crossOrigin="use-credentials"
        onLoad={(e) => onImageLoad(e.currentTarget)}
        onError={onImageError}
        draggable={false}
        style={{ display: 'block', maxWidth: '100%', maxHeight: 'calc(100vh - 180px)', width: 'auto', height: 'auto' }}
      />
      {loading && (
        <Center pos="absolute" inset={0}>
          <Loader />
        </Center>
      )}
      <canvas
        ref={canvasRef}
        data-testid="mask-canvas"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        style={{
          position: 'absolute',
          inset: 0,
          width: '100%',
          height: '100%',
          cursor: tool === 'fill' ? 'cell' : 'crosshair',
          display: history ? 'block' : 'none',
        }}
      />
    </Box>
  );
}
