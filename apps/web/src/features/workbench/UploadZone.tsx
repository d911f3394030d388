import { ActionIcon, Group, Progress, Stack, Text } from '@mantine/core';
import { IconCheck, IconPhoto, IconUpload, IconX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/errorText';
import { isApiError } from '../../api/client';
import { IMAGES_KEY, uploadImage } from '../jobs/api';
import type { UploadedImage } from '../jobs/types';
import { STORAGE_USAGE_KEY, useStorageUsage } from '../profile/useStorageUsage';
import { CalibrationPicker } from '../calibration/CalibrationPicker';
import { FileDropArea } from './FileDropArea';

/** Analysis images: PNG, JPEG, TIFF (the server decides by content). */
export const ACCEPTED = { 'image/png': ['.png'], 'image/jpeg': ['.jpg', '.jpeg'], 'image/tiff': ['.tif', '.tiff'] };

interface Upload {
  key: number;
  name: string;
  progress: number;
  state: 'uploading' | 'done' | 'error';
  error?: string;
  abort?: () => void;
}

/** Drag-and-drop upload with one progress bar per file; calls onUploaded with each stored image. */
export function UploadZone({ onUploaded }: { onUploaded: (images: UploadedImage[]) => void }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const usage = useStorageUsage();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [pixelSizeUm, setPixelSizeUm] = useState<string | null>(null);
  const seq = useRef(0);

  const patch = (key: number, p: Partial<Upload>) => setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...p } : u)));

  const start = (files: File[]) => {
    const maxFileBytes = usage.data?.maxFileBytes;
    for (const file of files) {
      const key = ++seq.current;
      // over the server's per-file limit (MAX_UPLOAD_MB): refused here, without sending it
      if (maxFileBytes !== undefined && file.size > maxFileBytes) {
        const max = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 }).format(maxFileBytes / 1024 / 1024);
        const error = t('storage.errors.fileTooLarge', { file: file.name, max });
        setUploads((list) => [{ key, name: file.name, progress: 0, state: 'error', error }, ...list]);
        continue;
      }
      const { promise, abort } = uploadImage(file, (fraction) => patch(key, { progress: Math.round(fraction * 100) }), pixelSizeUm);
      setUploads((list) => [{ key, name: file.name, progress: 0, state: 'uploading', abort }, ...list]);
      promise
        .then((images) => {
          patch(key, { state: 'done', progress: 100, abort: undefined });
          onUploaded(images);
          void qc.invalidateQueries({ queryKey: IMAGES_KEY });
          void qc.invalidateQueries({ queryKey: STORAGE_USAGE_KEY });
        })
        .catch((e: unknown) => {
          const error = isApiError(e) && e.code === 'ABORTED' ? t('workbench.upload.aborted') : errorText(t, e, 'workbench.upload.failed');
          patch(key, { state: 'error', error, abort: undefined });
        });
    }
  };

  const reject = (rejected: File[]) => {
    setUploads((list) => [
      ...rejected.map((file) => ({
        key: ++seq.current,
        name: file.name,
        progress: 0,
        state: 'error' as const,
        error: t('workbench.upload.unsupported'),
      })),
      ...list,
    ]);
  };

  return (
    <Stack gap="sm">
      <CalibrationPicker onChange={setPixelSizeUm} />
      <FileDropArea onDrop={start} onReject={reject} accept={ACCEPTED} label={t('workbench.upload.label')} testId="upload-dropzone">
        {(state) => (
          <Group justify="center" gap="md" mih={120} style={{ pointerEvents: 'none' }} wrap="nowrap">
            {state === 'accept' ? (
              <IconUpload size={40} stroke={1.5} aria-hidden />
            ) : state === 'reject' ? (
              <IconX size={40} stroke={1.5} aria-hidden />
            ) : (
              <IconPhoto size={40} stroke={1.5} aria-hidden />
            )}
            <div>
              <Text size="lg" inline>
                {t('workbench.upload.title')}
              </Text>
              <Text size="sm" c="dimmed" mt={7}>
                {t('workbench.upload.hint')}
              </Text>
            </div>
          </Group>
        )}
      </FileDropArea>
      {uploads.length > 0 && (
        <Stack gap={6} aria-live="polite">
          {uploads.map((u) => (
            <div key={u.key} data-testid="upload-row" data-state={u.state}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text size="sm" truncate="end" style={{ minWidth: 0, flex: 1 }} title={u.name}>
                  {u.name}
                </Text>
                {u.state === 'done' && <IconCheck size={16} color="var(--mantine-color-green-6)" aria-label={t('workbench.upload.done')} />}
                {u.state === 'uploading' && (
                  <ActionIcon size="sm" variant="subtle" color="gray" onClick={() => u.abort?.()} aria-label={t('workbench.upload.cancel')}>
                    <IconX size={14} />
                  </ActionIcon>
                )}
              </Group>
              {u.state === 'error' ? (
                <Text size="xs" c="red">
                  {u.error}
                </Text>
              ) : (
                <Progress
                  value={u.progress}
                  size="sm"
                  color={u.state === 'done' ? 'green' : 'blue'}
                  aria-label={t('workbench.upload.progress', { name: u.name })}
                />
              )}
            </div>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
