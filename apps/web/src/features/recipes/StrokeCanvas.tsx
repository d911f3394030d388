import { Box } from '@mantine/core';
import { useRef, useState, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { imagesApi, type RecipeClass, type RecipeStroke } from '@lamella/contracts';
import { urlOf } from '../../api/client';

interface Props {
  imageId: string;
  /** The image's natural size: strokes are drawn in its pixels. */
  width: number;
  height: number;
  classes: RecipeClass[];
  activeClass: number;
  strokes: RecipeStroke[];
  onStroke: (stroke: RecipeStroke) => void;
  /** The segmentation (data: URL), shown over the image. */
  overlay: string | null;
  overlayOpacity: number;
}

/**
 * The image with the class strokes on it: press and drag to paint with the active class's brush. An SVG in the
 * image's own pixel coordinates scales with the page, so it works the same on a narrow screen.
 */
export function StrokeCanvas({ imageId, width, height, classes, activeClass, strokes, onStroke, overlay, overlayOpacity }: Props) {
  const { t } = useTranslation();
  const svg = useRef<SVGSVGElement>(null);
  const [current, setCurrent] = useState<Array<[number, number]> | null>(null);
  const brush = Math.max(3, Math.round(width / 150));
  const at = (e: PointerEvent<SVGSVGElement>): [number, number] => {
    const r = svg.current!.getBoundingClientRect();
    return [Math.round(((e.clientX - r.left) * width) / r.width), Math.round(((e.clientY - r.top) * height) / r.height)];
  };
  const finish = () => {
    if (current?.length) onStroke({ classIndex: activeClass, width: brush, points: current });
    setCurrent(null);
  };
  const line = (pts: Array<[number, number]>) => pts.map(([x, y]) => `${x},${y}`).join(' ');
  return (
    <Box pos="relative" w="100%" style={{ aspectRatio: `${width} / ${height}`, touchAction: 'none', userSelect: 'none' }}>
      <img
        src={urlOf(imagesApi.display, { params: { id: imageId } })}
        alt={t('recipes.editor.imageAlt')}
        style={{ position: 'absolute', inset: 0, width: '100%', height: '100%' }}
        draggable={false}
      />
      {overlay && (
        <img
          src={overlay}
          alt={t('recipes.editor.previewAlt')}
          data-testid="recipe-preview"
          style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', opacity: overlayOpacity, pointerEvents: 'none' }}
          draggable={false}
        />
      )}
      <svg
        ref={svg}
        data-testid="stroke-canvas"
        viewBox={`0 0 ${width} ${height}`}
        preserveAspectRatio="none"
        style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', cursor: 'crosshair' }}
        onPointerDown={(e) => {
          e.currentTarget.setPointerCapture(e.pointerId);
          setCurrent([at(e)]);
        }}
        onPointerMove={(e) => {
          if (current) setCurrent([...current, at(e)]);
        }}
        onPointerUp={finish}
        onPointerCancel={finish}
      >
        {strokes.map((s, i) => (
          <polyline
            key={i}
            points={line(s.points)}
            fill="none"
            stroke={classes[s.classIndex]?.colour ?? '#888'}
            strokeWidth={s.width}
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        ))}
        {current && (
          <polyline
            points={line(current)}
            fill="none"
            stroke={classes[activeClass]?.colour ?? '#888'}
            strokeWidth={brush}
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        )}
      </svg>
    </Box>
  );
}
