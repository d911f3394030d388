import { Center, Group, Image, Radio, Skeleton, Table, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Image as UploadedImage } from '@lamella/contracts';
import { imageUrl } from '../jobs/api';
import { truncate } from '../jobs/format';
import { formatDateTime } from '../../lib/format';
import { SANDBOX_FILENAME_MAX } from './api';

interface Props {
  images?: UploadedImage[];
  loading: boolean;
  value: string | null;
  onChange: (v: string) => void;
}

/** Step 1: one of the user's images (thumbnail, name, upload date). */
export function ImageStep({ images, loading, value, onChange }: Props) {
  const { t, i18n } = useTranslation();
  if (loading) return <Skeleton h={160} />;
  if (!images?.length) {
    return (
      <Center py="xl">
        <Text c="dimmed">{t('sandbox.noImages')}</Text>
      </Center>
    );
  }
  return (
    <Radio.Group value={value} onChange={onChange} label={t('sandbox.chooseImage')}>
      <Table.ScrollContainer minWidth={320} mt="xs">
        <Table highlightOnHover data-testid="sandbox-images">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={40} />
              <Table.Th w={72}>{t('sandbox.preview')}</Table.Th>
              <Table.Th>{t('sandbox.filename')}</Table.Th>
              <Table.Th visibleFrom="sm">{t('sandbox.uploaded')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {images.map((img) => {
              const radio = <Radio value={img.id} aria-label={img.orginalFilename} />;
              return (
                <Table.Tr key={img.id} onClick={() => onChange(img.id)} style={{ cursor: 'pointer' }} data-testid="sandbox-image-row">
                  <Table.Td>
                    {img.validated ? (
                      radio
                    ) : (
                      <Tooltip label={t('sandbox.notValidated')}>
                        <span>{radio}</span>
                      </Tooltip>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Image src={imageUrl.thumbnail(img.id)} w={56} h={56} fit="cover" radius="sm" alt="" loading="lazy" />
                  </Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>
                    <Group gap={4} wrap="nowrap">
                      <Text size="sm" title={img.orginalFilename}>
                        {truncate(img.orginalFilename, SANDBOX_FILENAME_MAX)}
                      </Text>
                      {!img.validated && (
                        <Tooltip label={t('sandbox.notValidated')}>
                          <IconAlertTriangle size={16} color="var(--mantine-color-yellow-7)" aria-label={t('sandbox.notValidated')} />
                        </Tooltip>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Text size="xs" c="dimmed">
                      {formatDateTime(img.createdAt, i18n.language)}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Radio.Group>
  );
}
