import { Alert, Box, Button, Group, Loader, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useMemo, useRef, useState, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useMediaQuery } from '@mantine/hooks';
import { imageUrl, useRerun } from '../jobs/api';
import type { JobListRow } from '../jobs/types';
import { fetchJobSegmentation, fetchMaskImage, saveMask } from '../mask-editor/api';
import { maskToPng, readLabels } from '../mask-editor/maskImage';
import { binary, brush, deleteAt, mergeAt, recount, splitAlong, type LabelMask, type Point } from './ops';

type Tool = 'merge' | 'split' | 'delete' | 'paint' | 'erase';
const TOOLS: Tool[] = ['merge', 'split', 'delete', 'paint', 'erase'];
const BRUSH = 4;
/** Each tool's name and help (keys written out whole, so the i18n usage check sees them). */
const LABEL = {
  merge: 'results.correction.merge',
  split: 'results.correction.split',
  delete: 'results.correction.delete',
  paint: 'results.correction.paint',
  erase: 'results.correction.erase',
} as const;
const HELP = {
  merge: 'results.correction.help.merge',
  split: 'results.correction.help.split',
  delete: 'results.correction.help.delete',
  paint: 'results.correction.help.paint',
  erase: 'results.correction.help.erase',
} as const;

/** Objects tinted, their outline opaque, the first grain of a merge in yellow. */
function draw(canvas: HTMLCanvasElement, mask: LabelMask, picked: number | null) {
  const { width: w, height: h, data } = mask;
  canvas.width = w;
  canvas.height = h;
  const ctx = canvas.getContext('2d')!;
  const img = ctx.createImageData(w, h);
  const px = img.data;
  for (let i = 0; i < data.length; i++) {
    if (!data[i]) continue;
    const x = i % w;
    const edge = x === 0 || x === w - 1 || i < w || i >= w * (h - 1) || !data[i - 1] || !data[i + 1] || !data[i - w] || !data[i + w];
    px[4 * i + 1] = edge ? 160 : 200;
    px[4 * i + 2] = 255;
    px[4 * i + 3] = edge ? 255 : 60;
  }
  ctx.putImageData(img, 0, 0);
  if (picked !== null) {
    // the first grain of a merge: flood its pixels yellow
    const seen = new Uint8Array(w * h);
    const stack = [picked];
    ctx.fillStyle = 'rgba(255, 220, 0, 0.55)';
    while (stack.length) {
      const i = stack.pop()!;
      if (seen[i] || !data[i]) continue;
      seen[i] = 1;
      ctx.fillRect(i % w, (i / w) | 0, 1, 1);
      const x = i % w;
      if (x > 0) stack.push(i - 1);
      if (x + 1 < w) stack.push(i + 1);
      if (i >= w) stack.push(i - w);
      if (i + w < w * h) stack.push(i + w);
    }
  }
}

/**
 * The user's correction of their own job on the results page (issue 24 item 3): starts from the latest saved mask or
 * the model's own segmentation, merges, splits, deletes, paints and erases, recounts live, and saves the mask and
 * re-runs the job with it (an unchanged segmentation runs as the model's own: its numbers exactly).
 */
export function CorrectionDialog({ job, opened, onClose }: { job: JobListRow; opened: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const mobile = useMediaQuery('(max-width: 40em)');
  const [base, setBase] = useState<LabelMask | null>(null);
  const [history, setHistory] = useState<LabelMask[]>([]);
  const [state, setState] = useState<'loading' | 'ready' | 'none'>('loading');
  const [tool, setTool] = useState<Tool>(job.model.name === 'grain-size' ? 'merge' : 'paint');
  const [picked, setPicked] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const canvas = useRef<HTMLCanvasElement>(null);
  const stroke = useRef<Point[] | null>(null);
  const rerun = useRerun();
  const mask = history[history.length - 1] ?? base;

  useEffect(() => {
    let live = true;
    void (async () => {
      const latest = job.masks[job.masks.length - 1];
      const blob = latest ? await fetchMaskImage(latest.id).catch(() => null) : await fetchJobSegmentation(job.id);
      if (!blob) return live && setState('none');
      const bitmap = await createImageBitmap(blob);
      const { width, height } = bitmap;
      bitmap.close();
      const data = binary(await readLabels(blob, width, height));
      if (!live) return;
      setBase({ width, height, data });
      setState('ready');
    })();
    return () => {
      live = false;
    };
  }, [job.id, job.masks]);

  useEffect(() => {
    if (canvas.current && mask) draw(canvas.current, mask, picked);
  }, [mask, picked]);

  const counts = useMemo(() => (mask ? recount(mask) : null), [mask]);
  const modelCount = job.result?.measurements?.grainCount ?? job.result?.measurements?.poreCount;
  const push = (next: LabelMask | null) => next && setHistory((h) => [...h, next]);
  const pointOf = (e: PointerEvent<HTMLCanvasElement>): Point => {
    const r = e.currentTarget.getBoundingClientRect();
    return [((e.clientX - r.left) / r.width) * (mask?.width ?? 1), ((e.clientY - r.top) / r.height) * (mask?.height ?? 1)];
  };
  const onDown = (e: PointerEvent<HTMLCanvasElement>) => {
    if (!mask) return;
    const p = pointOf(e);
    if (tool === 'delete') return push(deleteAt(mask, p));
    if (tool === 'merge') {
      const i = Math.floor(p[1]) * mask.width + Math.floor(p[0]);
      if (picked === null) return mask.data[i] ? setPicked(i) : undefined;
      const first: Point = [picked % mask.width, Math.floor(picked / mask.width)];
      setPicked(null);
      return push(mergeAt(mask, first, p));
    }
    stroke.current = [p];
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onMove = (e: PointerEvent<HTMLCanvasElement>) => {
    if (stroke.current && tool !== 'split') stroke.current.push(pointOf(e));
  };
  const onUp = (e: PointerEvent<HTMLCanvasElement>) => {
    const s = stroke.current;
    stroke.current = null;
    if (!s || !mask) return;
    if (tool === 'split') push(splitAlong(mask, s[0], pointOf(e)));
    else push(brush(mask, [...s, pointOf(e)], BRUSH, tool === 'paint' ? 1 : 0));
  };

  const save = async () => {
    if (!mask) return;
    setSaving(true);
    try {
      await saveMask({ jobId: job.id, label: 'correction', parentId: job.masks[job.masks.length - 1]?.id ?? '', png: await maskToPng(mask) });
      await rerun.mutateAsync({ jobsIds: [job.id], withUserMasks: true, modelId: job.model.id });
      notifications.show({ color: 'green', message: t('results.correction.saved') });
      onClose();
    } catch {
      notifications.show({ color: 'red', message: t('results.correction.failed') });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} size="xl" fullScreen={mobile} title={t('results.correction.title', { name: job.image.orginalFilename })}>
      {state === 'loading' ? (
        <Group gap="xs">
          <Loader size="sm" />
          <Text size="sm">{t('results.correction.loading')}</Text>
        </Group>
      ) : state === 'none' || !mask ? (
        <Alert color="gray">{t('results.correction.none')}</Alert>
      ) : (
        <Stack gap="sm">
          <SegmentedControl
            value={tool}
            onChange={(v) => {
              setTool(v as Tool);
              setPicked(null);
            }}
            data={TOOLS.map((x) => ({ value: x, label: t(LABEL[x]) }))}
            aria-label={t('results.correction.tools')}
            data-testid="correction-tools"
            fullWidth
          />
          <Text size="sm" c="dimmed">
            {picked !== null ? t('results.correction.firstPicked') : t(HELP[tool])}
          </Text>
          <Box pos="relative" style={{ lineHeight: 0 }}>
            <img src={imageUrl.display(job.imageId)} alt={job.image.orginalFilename} style={{ width: '100%', display: 'block' }} draggable={false} />
            <canvas
              ref={canvas}
              data-testid="correction-canvas"
              style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', cursor: 'crosshair', touchAction: 'none' }}
              onPointerDown={onDown}
              onPointerMove={onMove}
              onPointerUp={onUp}
            />
          </Box>
          {counts && (
            <Text size="sm" fw={500} data-testid="correction-count" aria-live="polite">
              {t('results.correction.count', { ...counts, jeffries: new Intl.NumberFormat(i18n.language).format(counts.jeffries) })}
              {typeof modelCount === 'number' ? ` · ${t('results.correction.model', { value: modelCount })}` : ''}
            </Text>
          )}
          {history.length === 0 && (
            <Text size="xs" c="dimmed">
              {t('results.correction.unchanged')}
            </Text>
          )}
          <Group justify="space-between" wrap="wrap">
            <Group gap="xs">
              <Button variant="default" size="xs" disabled={!history.length} onClick={() => setHistory((h) => h.slice(0, -1))}>
                {t('results.correction.undo')}
              </Button>
              <Button variant="default" size="xs" disabled={!history.length} onClick={() => setHistory([])}>
                {t('results.correction.reset')}
              </Button>
            </Group>
            <Group gap="xs">
              <Button variant="subtle" size="xs" onClick={onClose}>
                {t('results.correction.cancel')}
              </Button>
              <Button size="xs" loading={saving} onClick={() => void save()} data-testid="correction-rerun">
                {t('results.correction.rerun')}
              </Button>
            </Group>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
