import { Alert, Box, Center, Flex, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/errorText';
import { useSearchParams } from 'react-router';
import { invalidateJobs, useJob } from '../jobs/api';
import { createMask, initHistory, push, resample, type History, type LabelMask } from './maskState';
import { ACCEPTED_IMPORT, maskToPng, readLabels, type Tool } from './maskImage';
import { fetchJobSegmentation, fetchMaskImage, saveMask } from './api';
import { useMaskShortcuts } from './useMaskShortcuts';
import { MaskEditorHeader } from './MaskEditorHeader';
import { MaskToolbar } from './MaskToolbar';
import { MaskCanvas } from './MaskCanvas';
import { MaskLegend } from './MaskLegend';
import { SavedMaskList } from './SavedMaskList';
import { useModelName } from '../../lib/modelName';

interface Size {
  w: number;
  h: number;
}

/**
 * The editor of ?image=&mask=&job=: loads the image, starts from the saved mask (?mask=) or else the job's own
 * segmentation, paints labels, saves a new mask for the job. Beside the canvas: what the labels mean for the
 * job's model and the job's saved masks, each of which opens here.
 */
export function MaskEditor() {
  const { t } = useTranslation();
  const nameOf = useModelName();
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  const imageId = params.get('image') ?? '';
  const maskId = params.get('mask') ?? '';
  const jobId = params.get('job') ?? '';
  const job = useJob(jobId || null);
  const [size, setSize] = useState<Size | null>(null);
  const [history, setHistory] = useState<History | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [tool, setTool] = useState<Tool>('paint');
  const [label, setLabel] = useState(1);
  const [brush, setBrush] = useState(12);
  const [name, setName] = useState('mask');
  const [saving, setSaving] = useState(false);
  /** The mask the history was started from ('' = the model's segmentation); a save sets it to the new mask. */
  const loadedFor = useRef<string | null>(null);
  /** The history as last loaded or saved: anything else is unsaved work. */
  const clean = useRef<History | null>(null);

  // Working size = the display rendition's pixels; the saved mask is scaled to the image's natural size.
  // The starting mask follows ?mask= (the list switches it): a saved mask, or the job's own segmentation.
  useEffect(() => {
    if (!size || loadedFor.current === maskId) return;
    let live = true;
    const { w, h } = size;
    const load = async (): Promise<LabelMask> => {
      if (maskId) {
        try {
          return { width: w, height: h, data: await readLabels(await fetchMaskImage(maskId), w, h) };
        } catch {
          if (live) setLoadError(t('maskEditor.maskLoadFailed'));
          return createMask(w, h);
        }
      }
      // no saved mask: start from the model's own segmentation, so a few wrong boundaries are a few strokes
      const own = jobId ? await fetchJobSegmentation(jobId).catch(() => null) : null;
      return own ? { width: w, height: h, data: await readLabels(own, w, h) } : createMask(w, h);
    };
    void load().then((base) => {
      if (!live) return;
      const h0 = initHistory(base);
      loadedFor.current = maskId;
      clean.current = h0;
      setHistory(h0);
    });
    return () => {
      live = false;
    };
  }, [size, maskId, jobId, t]);

  const onImageLoad = useCallback((img: HTMLImageElement) => setSize({ w: img.naturalWidth, h: img.naturalHeight }), []);

  const act = useCallback((fn: (h: History) => History) => setHistory((h) => (h ? fn(h) : h)), []);
  useMaskShortcuts(act, setTool, setLabel);

  const openMask = (id: string) => {
    if (id === maskId) return;
    if (history && history !== clean.current && !window.confirm(t('maskEditor.masks.discard'))) return;
    setLoadError(null);
    setHistory(null);
    const next = new URLSearchParams(params);
    next.set('mask', id);
    setParams(next);
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
      const png = await maskToPng(resample(history.present, job.data.image.width, job.data.image.height));
      const saved = await saveMask({ jobId: job.data.id, label: name.trim() || 'mask', parentId: maskId, png });
      notifications.show({ color: 'green', title: t('maskEditor.savedTitle'), message: t('maskEditor.saved') });
      // the canvas already shows the saved mask: keep it (and its undo history) rather than load it again
      loadedFor.current = saved.id;
      clean.current = history;
      invalidateJobs(qc);
      const next = new URLSearchParams(params);
      next.set('mask', saved.id);
      setParams(next, { replace: true });
    } catch (e) {
      notifications.show({ color: 'red', message: errorText(t, e, 'maskEditor.saveFailed') });
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
    <Stack gap="sm" p={{ base: 'xs', sm: 'md' }} mih="100vh">
      <MaskEditorHeader
        subtitle={job.data ? `${job.data.image.orginalFilename} · ${nameOf(job.data.model)}` : ''}
        name={name}
        onName={setName}
        onImport={(f) => void importFile(f)}
        onSave={() => void save()}
        saving={saving}
        canImport={Boolean(history)}
        canSave={Boolean(history && job.data)}
      />
      <MaskToolbar tool={tool} onTool={setTool} label={label} onLabel={setLabel} brush={brush} onBrush={setBrush} history={history} act={act} />
      {loadError && <Alert color="yellow">{loadError}</Alert>}
      {!jobId && <Alert color="yellow">{t('maskEditor.noJob')}</Alert>}
      <Flex direction={{ base: 'column', md: 'row' }} gap="md" align="flex-start">
        <Stack gap={6} style={{ flex: 1, minWidth: 0, width: '100%' }}>
          <MaskCanvas
            imageId={imageId}
            alt={job.data?.image.orginalFilename ?? ''}
            history={history}
            act={act}
            tool={tool}
            label={label}
            brush={brush}
            loading={!history && !loadError}
            onImageLoad={onImageLoad}
            onImageError={() => setLoadError(t('maskEditor.imageLoadFailed'))}
          />
          <Text size="xs" c="dimmed" ta="center">
            {t('maskEditor.hint')}
          </Text>
        </Stack>
        {job.data && (
          <Box w={{ base: '100%', md: 280 }} style={{ flexShrink: 0 }}>
            <Stack gap="lg">
              <MaskLegend model={job.data.model.name} />
              <SavedMaskList masks={job.data.masks} current={maskId} onOpen={openMask} />
            </Stack>
          </Box>
        )}
      </Flex>
    </Stack>
  );
}
