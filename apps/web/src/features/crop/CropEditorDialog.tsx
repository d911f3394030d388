import { Box as MBox, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useCallback, useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { imageUrl, useRerun } from '../jobs/api';
import { notifyJobError, notifyJobStarted } from '../jobs/notify';
import type { JobListRow } from '../jobs/types';
import {
  cursorFor,
  HANDLE_ZONE,
  HANDLES,
  hitTest,
  initialBox,
  moveBox,
  nudge,
  resizeBox,
  toNatural,
  type Box,
  type Handle,
  type Size,
} from './cropBox';

const HANDLE_POS: Record<Handle, { left: string; top: string }> = {
  nw: { left: '0%', top: '0%' },
  n: { left: '50%', top: '0%' },
  ne: { left: '100%', top: '0%' },
  e: { left: '100%', top: '50%' },
  se: { left: '100%', top: '100%' },
  s: { left: '50%', top: '100%' },
  sw: { left: '0%', top: '100%' },
  w: { left: '0%', top: '50%' },
};

interface Drag {
  target: Handle | 'move';
  startX: number;
  startY: number;
  startBox: Box;
}

/** Crop editor over the displayed image (§4): drag, 8 handles, Reset, Apply → re-run with the box in natural pixels. */
export function CropEditorDialog({ job, opened, onClose }: { job: JobListRow; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const mobile = useMediaQuery('(max-width: 48em)');
  const rerun = useRerun();
  const imgRef = useRef<HTMLImageElement>(null);
  const [size, setSize] = useState<Size | null>(null);
  const [box, setBox] = useState<Box | null>(null);
  const [hover, setHover] = useState<Handle | 'move' | null>(null);
  const drag = useRef<Drag | null>(null);
  // The handle being dragged, as state for the cursor (refs are not read during render).
  const [dragTarget, setDragTarget] = useState<Drag['target'] | null>(null);
  // Closing forgets the measured size and the box (adjusted during render, not in an effect).
  const [wasOpened, setWasOpened] = useState(opened);
  if (wasOpened !== opened) {
    setWasOpened(opened);
    if (!opened) {
      setSize(null);
      setBox(null);
    }
  }

  const measure = useCallback(() => {
    const img = imgRef.current;
    if (!img || !img.complete || !img.clientWidth) return;
    const next = { width: img.clientWidth, height: img.clientHeight };
    setSize((prev) => {
      if (prev && prev.width === next.width && prev.height === next.height) return prev;
      setBox((b) => {
        if (!b || !prev) return initialBox(next);
        const sx = next.width / prev.width;
        const sy = next.height / prev.height;
        return { x: b.x * sx, y: b.y * sy, width: b.width * sx, height: b.height * sy };
      });
      return next;
    });
  }, []);

  useEffect(() => {
    if (!opened) return;
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [opened, measure]);

  const local = (e: ReactPointerEvent) => {
    const r = imgRef.current!.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };

  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (!box || !size) return;
    const p = local(e);
    const target = hitTest(box, p.x, p.y, HANDLE_ZONE);
    if (!target) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { target, startX: p.x, startY: p.y, startBox: box };
    setDragTarget(target);
    e.preventDefault();
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (!box || !size) return;
    const p = local(e);
    const d = drag.current;
    if (!d) {
      setHover(hitTest(box, p.x, p.y, HANDLE_ZONE));
      return;
    }
    const dx = p.x - d.startX;
    const dy = p.y - d.startY;
    setBox(d.target === 'move' ? moveBox(d.startBox, dx, dy, size) : resizeBox(d.startBox, d.target, dx, dy, size));
  };
  const onPointerUp = (e: ReactPointerEvent<HTMLDivElement>) => {
    drag.current = null;
    setDragTarget(null);
    if (e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId);
  };

  const apply = () => {
    if (!box || !size) return;
    const withCrop = toNatural(box, size, { width: job.image.width, height: job.image.height });
    rerun.mutate(
      { jobsIds: [job.id], withCrop, modelId: job.modelId },
      {
        onSuccess: (jobs) => {
          notifyJobStarted(t, jobs.length);
          onClose();
        },
        onError: (err) => notifyJobError(t, err),
      },
    );
  };

  const natural = box && size ? toNatural(box, size, { width: job.image.width, height: job.image.height }) : null;

  return (
    <Modal opened={opened} onClose={onClose} title={t('results.crop.title')} size="xl" fullScreen={mobile} centered>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('results.crop.hint')}
        </Text>
        <MBox pos="relative" mx="auto" style={{ lineHeight: 0, userSelect: 'none', touchAction: 'none', width: 'fit-content', maxWidth: '100%' }}>
          <img
            ref={imgRef}
            src={imageUrl.display(job.imageId)}
            alt={job.image.orginalFilename}
            onLoad={measure}
            draggable={false}
            style={{ display: 'block', maxWidth: '100%', width: 'auto', height: 'auto', maxHeight: mobile ? '60vh' : '65vh' }}
          />
          {!size && (
            <MBox pos="absolute" inset={0} style={{ display: 'grid', placeItems: 'center' }}>
              <Loader />
            </MBox>
          )}
          {box && size && (
            <div
              data-testid="crop-overlay"
              onPointerDown={onPointerDown}
              onPointerMove={onPointerMove}
              onPointerUp={onPointerUp}
              onPointerCancel={onPointerUp}
              style={{
                position: 'absolute',
                left: 0,
                top: 0,
                width: size.width,
                height: size.height,
                cursor: cursorFor(dragTarget ?? hover),
              }}
            >
              <div
                role="slider"
                tabIndex={0}
                aria-label={t('results.crop.boxLabel')}
                aria-valuetext={natural ? t('results.crop.boxValue', { ...natural }) : undefined}
                aria-valuenow={Math.round(box.x)}
                data-testid="crop-box"
                onKeyDown={(e) => {
                  if (!e.key.startsWith('Arrow')) return;
                  e.preventDefault();
                  setBox(nudge(box, e.key, 10, e.shiftKey, size));
                }}
                style={{
                  position: 'absolute',
                  left: box.x,
                  top: box.y,
                  width: box.width,
                  height: box.height,
                  outline: '2px solid var(--mantine-color-yellow-5)',
                  boxShadow: '0 0 0 9999px rgba(0,0,0,0.45)',
                }}
              >
                {HANDLES.map((h) => (
                  <span
                    key={h}
                    data-handle={h}
                    style={{
                      position: 'absolute',
                      ...HANDLE_POS[h],
                      width: 12,
                      height: 12,
                      transform: 'translate(-50%, -50%)',
                      background: 'var(--mantine-color-yellow-5)',
                      border: '1px solid var(--mantine-color-dark-7)',
                      pointerEvents: 'none',
                    }}
                  />
                ))}
              </div>
            </div>
          )}
        </MBox>
        <Group justify="space-between" wrap="wrap">
          <Text size="xs" c="dimmed" data-testid="crop-natural">
            {natural ? t('results.crop.boxValue', { ...natural }) : ''}
          </Text>
          <Group gap="xs">
            <Button variant="default" onClick={() => size && setBox(initialBox(size))}>
              {t('results.crop.reset')}
            </Button>
            <Button variant="default" onClick={onClose}>
              {t('model.common.cancel')}
            </Button>
            <Button onClick={apply} loading={rerun.isPending} disabled={!box}>
              {t('results.crop.apply')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
