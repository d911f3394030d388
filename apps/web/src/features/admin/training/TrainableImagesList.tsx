import { Anchor, Button, Group, Image, Loader, Stack, Table, Text } from '@mantine/core';
import { imagesApi, masksApi, trainingApi, type TrainableImage, type TrainableImagesQuery } from '@lamella/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { call, urlOf } from '../../../api/client';
import { ListState } from '../../../components/ListState';
import { formatAdminDateTime } from '../../../lib/format';
import { useComputeModels } from '../models/api';
import { useModelName } from '../../../lib/modelName';
import type { ImagePrefs } from '../images/prefs';

const PAGE = 50;

/** The images that can train a model, as the images screen's owner and day filters narrow them, with their masks. */
export function TrainableImagesList({ modelId, prefs }: { modelId: string; prefs: ImagePrefs }) {
  const { t } = useTranslation();
  const nameOf = useModelName();
  const model = useComputeModels().data?.find((m) => m.id === modelId);
  const query: TrainableImagesQuery = {
    ...(prefs.userId ? { userIds: [prefs.userId] } : {}),
    ...(prefs.startDate ? { from: prefs.startDate } : {}),
    ...(prefs.endDate ? { to: prefs.endDate } : {}),
    pageSize: PAGE,
  };
  const list = useInfiniteQuery({
    queryKey: ['admin', 'trainable-images-list', modelId, query],
    queryFn: ({ pageParam }) => call(trainingApi.trainableImages, { params: { id: modelId }, query: { ...query, page: pageParam } }),
    initialPageParam: 1,
    getNextPageParam: (last, all) => (all.length * PAGE < last.total ? all.length + 1 : undefined),
  });
  const rows: TrainableImage[] = list.data?.pages.flatMap((p) => p.images) ?? [];
  const total = list.data?.pages[0]?.total;
  return (
    <Stack gap="sm" data-testid="trainable-images">
      {total !== undefined && (
        <Text size="sm" c="dimmed" data-testid="trainable-total" data-count={total}>
          {t('adminTraining.images.total', { count: total, model: model ? nameOf(model) : '' })}
        </Text>
      )}
      <ListState query={list} empty={rows.length === 0} emptyText={t('adminTraining.images.empty')}>
        <Table.ScrollContainer minWidth={520}>
          <Table striped verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={96}>{t('adminImages.columns.thumbnail')}</Table.Th>
                <Table.Th>{t('adminImages.columns.owner')}</Table.Th>
                <Table.Th>{t('adminImages.columns.date')}</Table.Th>
                <Table.Th>{t('adminTraining.images.mask')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((img) => (
                <Table.Tr key={img.id} data-testid="trainable-image-row">
                  <Table.Td>
                    <Image
                      src={urlOf(imagesApi.thumbnail, { params: { id: img.id } })}
                      alt={img.orginalFilename}
                      w={72}
                      h={72}
                      fit="cover"
                      radius="sm"
                      loading="lazy"
                    />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{`${img.owner.name ?? ''} ${img.owner.surname ?? ''}`.trim()}</Text>
                    <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                      {img.owner.email}
                    </Text>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <Text size="sm">{formatAdminDateTime(img.createdAt)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Image
                        src={urlOf(masksApi.image, { params: { id: img.maskId } })}
                        alt={t('adminTraining.images.mask')}
                        w={48}
                        h={48}
                        fit="contain"
                        radius="sm"
                        loading="lazy"
                        bg="dark"
                      />
                      <Anchor component={Link} to={`/admin/jobs/${img.jobId}`} size="sm">
                        {t('adminTraining.images.job')}
                      </Anchor>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </ListState>
      {list.hasNextPage && (
        <Group justify="center">
          <Button variant="light" size="xs" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
            {t('adminTraining.images.more')}
          </Button>
        </Group>
      )}
      {list.isFetching && !list.isFetchingNextPage && !list.isPending && <Loader size="xs" />}
    </Stack>
  );
}
