import { Alert, Center, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/errorText';
import { useSearchParams } from 'react-router';
import { useJob } from '../jobs/api';
import { createMask, initHistory, push, resample, type History } from './maskState';
import { ACCEPTED_IMPORT, maskToPng, readLabels, type Tool } from './maskImage';
import { fetchJobSegmentation, fetchMaskImage, saveMask } from './api';
import { useMaskShortcuts } from './useMaskShortcuts';
import { MaskEditorHeader } from './MaskEditorHeader';
import { MaskToolbar } from './MaskToolbar';
import { MaskCanvas } from './MaskCanvas';
import { useModelName } from '../../lib/modelName';

/** What label 1 of the starting mask means for each model (the mask the model measures from). */
const legendOf = (model: string) =>
  (({ 'grain-size': 'grains', 'layer-thickness': 'layer', cracks: 'cracks', porosity: 'pores' }) as const)[model] ?? 'other';

/** The editor of ?image=&mask=&job=: loads the image (and mask), paints labels, saves a new mask for the job. */
export function MaskEditor() {
  const { t } = useTranslation();
  const nameOf = useModelName();
  const [params, setParams] = useSearchParams();
  const imageId = params.get('image') ?? '';
  const maskId = params.get('mask') ?? '';
  const jobId = params.get('job') ?? '';
  const job = useJob(jobId || null);
  const [history, setHistory] = useState<History | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [tool, setTool] = useState<Tool>('paint');
  const [label, setLabel] = useState(1);
  const [brush, setBrush] = useState(12);
  const [name, setName] = useState('mask');
  const [saving, setSaving] = useState(false);

  // Working size = the display rendition's pixels; the saved mask is scaled to the image's natural size.
  const onImageLoad = useCallback(
    async (img: HTMLImageElement) => {
      const w = img.naturalWidth;
      const h = img.naturalHeight;
      let base = createMask(w, h);
      if (maskId) {
        try {
          base = { width: w, height: h, data: await readLabels(await fetchMaskImage(maskId), w, h) };
        } catch {
          setLoadError(t('maskEditor.maskLoadFailed'));
        }
      } else if (jobId) {
        // no saved mask yet: start from the model's own segmentation, so a few wrong boundaries are a few strokes
        const own = await fetchJobSegmentation(jobId).catch(() => null);
        if (own) base = { width: w, height: h, data: await readLabels(own, w, h) };
      }
      setHistory(initHistory(base));
    },
    [maskId, jobId, t],
  );

  const act = useCallback((fn: (h: History) => History) => setHistory((h) => (h ? fn(h) : h)), []);
  useMaskShortcuts(act, setTool, setLabel);

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
    <Stack gap="sm" p="md" mih="100vh">
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
      {job.data && (
        <Text size="sm" c="dimmed" data-testid="mask-legend">
          {t(`maskEditor.legend.${legendOf(job.data.model.name)}`)}
        </Text>
      )}
      <MaskCanvas
        imageId={imageId}
        alt={job.data?.image.orginalFilename ?? ''}
        history={history}
        act={act}
        tool={tool}
        label={label}
        brush={brush}
        loading={!history && !loadError}
        onImageLoad={(img) => void onImageLoad(img)}
        onImageError={() => setLoadError(t('maskEditor.imageLoadFailed'))}
      />
      <Text size="xs" c="dimmed" ta="center">
        {t('maskEditor.hint')}
      </Text>
    </Stack>
  );
}
