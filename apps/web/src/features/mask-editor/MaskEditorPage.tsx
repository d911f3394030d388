import {
  ActionIcon,
  Alert,
  Anchor,
  Box,
  Button,
  Center,
  ColorSwatch,
  FileButton,
  Group,
  Loader,
  SegmentedControl,
  Slider,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowBackUp, IconArrowForwardUp, IconBrush, IconBucketDroplet, IconDeviceFloppy, IconEraser, IconUpload } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { useMe } from '../auth/session';
import { imageUrl, useJob } from '../jobs/api';
import { MASK_EDITOR_ROLES } from '../results/JobItem';
import {
  canRedo,
  canUndo,
  createMask,
  initHistory,
  LABEL_COLORS,
  labelsFromChannel,
  push,
  redo,
  resample,
  toLabelRgba,
  toOverlayRgba,
  undo,
  type History,
  type LabelMask,
  type Point,
} from './maskState';

type Tool = 'paint' | 'erase' | 'fill';
const LABEL_COUNT = 4;
const ACCEPTED_IMPORT = ['image/png', 'image/jpeg'];

const rgb = (label: number) => `rgb(${LABEL_COLORS[label].join(',')})`;

/** Reads an image (URL or file) into label values at the working size. */
async function readLabels(source: Blob, width: number, height: number): Promise<Uint8Array> {
  const bitmap = await createImageBitmap(source);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  const rgba = ctx.getImageData(0, 0, width, height).data;
  const red = new Uint8Array(width * height);
  for (let i = 0; i < red.length; i++) red[i] = rgba[i * 4];
  return labelsFromChannel(red);
}

async function maskToPng(mask: LabelMask): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = mask.width;
  canvas.height = mask.height;
  const ctx = canvas.getContext('2d')!;
  ctx.putImageData(new ImageData(toLabelRgba(mask) as Uint8ClampedArray<ArrayBuffer>, mask.width, mask.height), 0, 0);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('png'))), 'image/png'));
}

/** /admin/mask-editor?mask=&image=&job= — a full-page label-mask editor (ADMIN, POWER_USER, EDITOR). */
export function MaskEditorPage() {
  const { t } = useTranslation();
  const { data: me } = useMe();
  if (!me) return null;
  if (!MASK_EDITOR_ROLES.includes(me.role)) {
    return (
      <Center mih="60vh">
        <Stack align="center">
          <Text>{t('maskEditor.forbidden')}</Text>
          <Anchor component={Link} to="/dashboard">
            {t('maskEditor.toDashboard')}
          </Anchor>
        </Stack>
      </Center>
    );
  }
  return <Editor />;
}

function Editor() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const imageId = params.get('image') ?? '';
  const maskId = params.get('mask') ?? '';
  const jobId = params.get('job') ?? '';
  const job = useJob(jobId || null);
  const imgRef = useRef<HTMLImageElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [history, setHistory] = useState<History | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [tool, setTool] = useState<Tool>('paint');
  const [label, setLabel] = useState(1);
  const [brush, setBrush] = useState(12);
  const [name, setName] = useState('mask');
  const [saving, setSaving] = useState(false);
  const stroke = useRef<Point[] | null>(null);

  // Working size = the display rendition's pixels; the saved mask is scaled to the image's natural size.
  const onImageLoad = useCallback(async () => {
    const img = imgRef.current;
    if (!img) return;
    const w = img.naturalWidth;
    const h = img.naturalHeight;
    let base = createMask(w, h);
    if (maskId) {
      try {
        const blob = await api.get<Blob>(`/masks/${maskId}/image`, { as: 'blob' });
        base = { width: w, height: h, data: await readLabels(blob, w, h) };
      } catch {
        setLoadError(t('maskEditor.maskLoadFailed'));
      }
    }
    setHistory(initHistory(base));
  }, [maskId, t]);

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

  const act = useCallback((fn: (h: History) => History) => setHistory((h) => (h ? fn(h) : h)), []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.target as HTMLElement).closest('input, textarea')) return;
      const mod = e.ctrlKey || e.metaKey;
      if (mod && e.key.toLowerCase() === 'z') {
        e.preventDefault();
        act(e.shiftKey ? redo : undo);
      } else if (mod && e.key.toLowerCase() === 'y') {
        e.preventDefault();
        act(redo);
      } else if (!mod && e.key === 'b') setTool('paint');
      else if (!mod && e.key === 'e') setTool('erase');
      else if (!mod && e.key === 'f') setTool('fill');
      else if (!mod && /^[1-9]$/.test(e.key) && Number(e.key) <= LABEL_COUNT) setLabel(Number(e.key));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [act]);

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

  const importFile = async (file: File | null) => {
    if (!file || !history) return;
    if (!ACCEPTED_IMPORT.includes(file.type)) {
      notifications.show({ color: 'red', message: t('maskEditor.importType') });
      return;
    }
    try {
      const data = await readLabels(file, history.present.width, history.present.height);
      act((h) => push(h, { type: 'import', data }));
    } catch {
      notifications.show({ color: 'red', message: t('maskEditor.importFailed') });
    }
  };

  const save = async () => {
    if (!history || !job.data) return;
    setSaving(true);
    try {
      const natural = resample(history.present, job.data.image.width, job.data.image.height);
      const png = await maskToPng(natural);
      const form = new FormData();
      form.append('label', name.trim() || 'mask');
      form.append('jobId', job.data.id);
      form.append('parentId', maskId);
      form.append('files', png, 'mask.png');
      const saved = await api.post<{ id: string }>('/masks', form);
      notifications.show({ color: 'green', title: t('maskEditor.savedTitle'), message: t('maskEditor.saved') });
      const next = new URLSearchParams(params);
      next.set('mask', saved.id);
      setParams(next, { replace: true });
    } catch (e) {
      notifications.show({ color: 'red', message: e instanceof Error && e.message ? e.message : t('maskEditor.saveFailed') });
    } finally {
      setSaving(false);
    }
  };

  if (!imageId) {
    return (
      <Center mih="60vh">
        <Text>{t('maskEditor.noImage')}</Text>
      </Center>
    );
  }

  return (
    <Stack gap="sm" p="md" mih="100vh">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <div>
          <Title order={1} size="h3">
            {t('maskEditor.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {job.data ? `${job.data.image.orginalFilename} · ${job.data.model.displayName}` : ''}
          </Text>
        </div>
        <Group gap="xs" wrap="wrap">
          <TextInput
            aria-label={t('maskEditor.name')}
            placeholder={t('maskEditor.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            w={160}
            size="sm"
          />
          <FileButton onChange={(f) => void importFile(f)} accept="image/png,image/jpeg">
            {(props) => (
              <Button {...props} variant="default" size="sm" leftSection={<IconUpload size={16} />} disabled={!history}>
                {t('maskEditor.import')}
              </Button>
            )}
          </FileButton>
          <Button
            size="sm"
            leftSection={<IconDeviceFloppy size={16} />}
            onClick={() => void save()}
            loading={saving}
            disabled={!history || !job.data}
          >
            {t('maskEditor.save')}
          </Button>
        </Group>
      </Group>

      <Group gap="md" wrap="wrap" align="center">
        <SegmentedControl
          value={tool}
          onChange={(v) => setTool(v as Tool)}
          aria-label={t('maskEditor.tool')}
          data={[
            {
              value: 'paint',
              label: (
                <Group gap={4} wrap="nowrap">
                  <IconBrush size={16} />
                  <span>{t('maskEditor.tools.paint')}</span>
                </Group>
              ),
            },
            {
              value: 'erase',
              label: (
                <Group gap={4} wrap="nowrap">
                  <IconEraser size={16} />
                  <span>{t('maskEditor.tools.erase')}</span>
                </Group>
              ),
            },
            {
              value: 'fill',
              label: (
                <Group gap={4} wrap="nowrap">
                  <IconBucketDroplet size={16} />
                  <span>{t('maskEditor.tools.fill')}</span>
                </Group>
              ),
            },
          ]}
        />
        <Group gap={6} role="radiogroup" aria-label={t('maskEditor.label')}>
          <Text size="sm">{t('maskEditor.label')}</Text>
          {Array.from({ length: LABEL_COUNT }, (_, i) => i + 1).map((l) => (
            <Tooltip key={l} label={t('maskEditor.labelN', { n: l })}>
              <ColorSwatch
                component="button"
                type="button"
                role="radio"
                aria-checked={label === l}
                aria-label={t('maskEditor.labelN', { n: l })}
                color={rgb(l)}
                size={26}
                onClick={() => setLabel(l)}
                style={{
                  cursor: 'pointer',
                  outline: label === l ? '3px solid var(--mantine-color-dark-6)' : undefined,
                  outlineOffset: 2,
                  color: 'white',
                  fontSize: 12,
                  fontWeight: 700,
                }}
              >
                {l}
              </ColorSwatch>
            </Tooltip>
          ))}
        </Group>
        <Group gap="xs" wrap="nowrap" w={220}>
          <Text size="sm">{t('maskEditor.brush')}</Text>
          <Slider value={brush} onChange={setBrush} min={2} max={80} style={{ flex: 1 }} aria-label={t('maskEditor.brush')} />
        </Group>
        <Group gap={4}>
          <ActionIcon
            variant="default"
            size="lg"
            onClick={() => act(undo)}
            disabled={!history || !canUndo(history)}
            aria-label={t('maskEditor.undo')}
          >
            <IconArrowBackUp size={18} />
          </ActionIcon>
          <ActionIcon
            variant="default"
            size="lg"
            onClick={() => act(redo)}
            disabled={!history || !canRedo(history)}
            aria-label={t('maskEditor.redo')}
          >
            <IconArrowForwardUp size={18} />
          </ActionIcon>
        </Group>
      </Group>

      {loadError && <Alert color="yellow">{loadError}</Alert>}
      {!jobId && <Alert color="yellow">{t('maskEditor.noJob')}</Alert>}

      <Box pos="relative" mx="auto" style={{ lineHeight: 0, width: 'fit-content', maxWidth: '100%', touchAction: 'none', userSelect: 'none' }}>
        <img
          ref={imgRef}
          src={imageUrl.display(imageId)}
          alt={job.data?.image.orginalFilename ?? ''}
          crossOrigin="use-credentials"
          onLoad={() => void onImageLoad()}
          onError={() => setLoadError(t('maskEditor.imageLoadFailed'))}
          draggable={false}
          style={{ display: 'block', maxWidth: '100%', maxHeight: 'calc(100vh - 180px)', width: 'auto', height: 'auto' }}
        />
        {!history && !loadError && (
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
      <Text size="xs" c="dimmed" ta="center">
        {t('maskEditor.hint')}
      </Text>
    </Stack>
  );
}
