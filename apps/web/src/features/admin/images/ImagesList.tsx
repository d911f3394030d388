/** Every user's images: filters, the table and infinite scrolling (pages from the `x-next-page` header). */
import { Group, Loader, Stack, Text } from '@mantine/core';
import type { AdminImage } from '@lamella/contracts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListState } from '../../../components/ListState';
import { useAdminImages } from './api';
import { ImagePreview } from './ImagePreview';
import { ImagesFilters } from './ImagesFilters';
import { ImagesTable } from './ImagesTable';
import { readPrefs, writePrefs, type ImagePrefs } from './prefs';
import { TrainableImagesList } from '../training/TrainableImagesList';

export function ImagesList() {
  const { t } = useTranslation();
  const [prefs, setPrefs] = useState<ImagePrefs>(() => readPrefs());
  const [preview, setPreview] = useState<AdminImage | null>(null);
  const update = (patch: Partial<ImagePrefs>) =>
    setPrefs((p) => {
      const next = { ...p, ...patch };
      writePrefs(next);
      return next;
    });
  const list = useAdminImages(prefs, !prefs.trainableModelId);
  const rows = list.data?.pages.flatMap((p) => p.items) ?? [];
  const total = list.data?.pages[0]?.total;

  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  useEffect(() => {
    const el = sentinel.current;
    if (!el) return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && hasNextPage && !isFetchingNextPage) void fetchNextPage();
    });
    io.observe(el);
    return () => io.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, rows.length]);

  return (
    <Stack gap="md">
      <ImagesFilters prefs={prefs} update={update} />
      {prefs.trainableModelId ? <TrainableImagesList modelId={prefs.trainableModelId} prefs={prefs} /> : null}
      {!prefs.trainableModelId && total !== undefined ? (
        <Text size="sm" c="dimmed" data-testid="list-total">
          {t('adminImages.total', { count: total })}
        </Text>
      ) : null}
      {!prefs.trainableModelId && (
        <ListState query={list} empty={rows.length === 0} emptyText={t('adminImages.empty')}>
          <ImagesTable rows={rows} prefs={prefs} update={update} onOpen={setPreview} />
        </ListState>
      )}
      <div ref={sentinel} style={{ height: 1 }} />
      {list.isFetchingNextPage ? (
        <Group justify="center" gap="xs">
          <Loader size="xs" />
          <Text size="sm" c="dimmed">
            {t('adminImages.loadingMore')}
          </Text>
        </Group>
      ) : null}
      <ImagePreview image={preview} onClose={() => setPreview(null)} />
    </Stack>
  );
}
