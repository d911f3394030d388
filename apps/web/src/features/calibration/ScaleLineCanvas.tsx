import { Box, Loader } from '@mantine/core';
import { useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { lineLength, toImagePixels, type Point } from './scale';

interface Props {
  src: string;
  /** The image's own size in pixels (the shown rendition may be smaller). */
  natural: { width: number; height: number };
  /** The drawn line's length in the image's own pixels. */
  onLine: (pixelLength: number) => void;
}

/**
 * The image with a measuring line drawn by dragging (mouse, pen and touch through pointer events). The line is
 * measured in the original's pixels. Without a pointer, the dialog's pixel-length field is the fallback.
 */
export function ScaleLineCanvas({ src, natural, onLine }: Props) {
  const { t } = useTranslation();
  const imgRef = useRef<HTMLImageElement>(null);
  const [loaded, setLoaded] = useState(false);
  const [line, setLine] = useState<{ a: Point; b: Point } | null>(null);
  const drawing = useRef(false);

  const pointOf = (e: ReactPointerEvent<HTMLDivElement>): Point => {
    const r = e.currentTarget.getBoundingClientRect();
    return { x: Math.min(Math.max(e.clientX - r.left, 0), r.width), y: Math.min(Math.max(e.clientY - r.top, 0), r.height) };
  };
  const report = (a: Point, b: Point) => {
    const img = imgRef.current;
    if (!img || !img.clientWidth) return;
    const shown = { width: img.clientWidth, height: img.clientHeight };
    onLine(lineLength(toImagePixels(a, shown, natural), toImagePixels(b, shown, natural)));
  };

  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    drawing.current = true;
    const p = pointOf(e);
    setLine({ a: p, b: p });
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (!drawing.current || !line) return;
    const next = { a: line.a, b: pointOf(e) };
    setLine(next);
    report(next.a, next.b);
  };
  const onPointerUp = (e: ReactPointerEvent<HTMLDivElement>) => {
    drawing.current = false;
    if (e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId);
    if (line) report(line.a, line.b);
  };

  return (
    <Box
      pos="relative"
      mx="auto"
      style={{ lineHeight: 0, userSelect: 'none', touchAction: 'none', width: 'fit-content', maxWidth: '100%', cursor: 'crosshair' }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      data-testid="scale-canvas"
      role="img"
      aria-label={t('calibration.setScale.canvasLabel')}
    >
      <img
        ref={imgRef}
        src={src}
        alt=""
        draggable={false}
        onLoad={() => setLoaded(true)}
        style={{ maxWidth: '100%', maxHeight: '55vh', display: 'block' }}
      />
      {!loaded && <Loader size="sm" pos="absolute" top="45%" left="48%" aria-label={t('calibration.setScale.imageLoading')} />}
      {line && (
        <svg width="100%" height="100%" style={{ position: 'absolute', inset: 0, pointerEvents: 'none' }} aria-hidden>
          <line x1={line.a.x} y1={line.a.y} x2={line.b.x} y2={line.b.y} stroke="#fab005" strokeWidth={3} />
          <line x1={line.a.x} y1={line.a.y} x2={line.b.x} y2={line.b.y} stroke="#000" strokeWidth={1} />
          <circle cx={line.a.x} cy={line.a.y} r={4} fill="#fab005" />
          <circle cx={line.b.x} cy={line.b.y} r={4} fill="#fab005" />
        </svg>
      )}
    </Box>
  );
}
