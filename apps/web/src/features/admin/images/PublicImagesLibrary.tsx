/**
 * The public images library (back-office.md §7 Images): upload PNG or JPEG files with a progress bar, the grid of
 * images with their address to copy, delete after confirmation. The images are for the rich text of insights,
 * news and example results (everyone may read them at /image/public/{filename}).
 */
import { Button, FileButton, Group, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListState } from '../../../components/ListState';
import { errorText } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { confirmDelete } from '../common/confirm';
import { PUBLIC_IMAGES_KEY, uploadPublicImages, usePublicImages, useRemovePublicImage } from './api';
import { PublicImageCard } from './PublicImageCard';

export function PublicImagesLibrary() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const list = usePublicImages();
  const remove = useRemovePublicImage();
  const [progress, setProgress] = useState<number | null>(null);
  const rows = list.data ?? [];

  const upload = async (files: File[]) => {
    if (!files.length) return;
    setProgress(0);
    try {
      const stored = await uploadPublicImages(files, setProgress);
      notifySuccess(t('adminImages.public.uploaded', { count: stored.length }));
    } catch (e) {
      notifyError(errorText(t, e, 'admin.error'));
    } finally {
      setProgress(null);
      await qc.invalidateQueries({ queryKey: PUBLIC_IMAGES_KEY });
    }
  };
  const onDelete = (filename: string) =>
    confirmDelete(t, t('adminImages.public.deleteConfirm', { name: filename }), () =>
      remove.mutate(filename, {
        onSuccess: (r) => notifySuccess(r.message),
        onError: (e) => notifyError(errorText(t, e, 'admin.error')),
      }),
    );

  return (
    <Stack gap="md" data-testid="public-images">
      <Group justify="space-between" align="center" wrap="wrap">
        <Text size="sm" c="dimmed" maw={640}>
          {t('adminImages.public.hint')}
        </Text>
        <FileButton onChange={(files) => void upload(files)} accept="image/png,image/jpeg" multiple>
          {(props) => (
            <Button {...props} leftSection={<IconUpload size={16} />} loading={progress !== null} data-testid="public-upload">
              {t('adminImages.public.upload')}
            </Button>
          )}
        </FileButton>
      </Group>
      {progress !== null ? (
        <Progress value={Math.round(progress * 100)} aria-label={t('adminImages.public.uploading')} animated data-testid="public-upload-progress" />
      ) : null}
      <ListState query={list} empty={rows.length === 0} emptyText={t('adminImages.public.empty')}>
        <SimpleGrid cols={{ base: 1, xs: 2, sm: 3, lg: 4 }} spacing="md">
          {rows.map((img) => (
            <PublicImageCard key={img.filename} image={img} onDelete={() => onDelete(img.filename)} />
          ))}
        </SimpleGrid>
      </ListState>
    </Stack>
  );
}
