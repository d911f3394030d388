/** The enlarged image of a table row, with its original file name (back-office.md §2: "a click enlarges it"). */
import { Image, Modal, Stack, Text } from '@mantine/core';
import { imagesApi, type AdminImage } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { urlOf } from '../../../api/client';

export function ImagePreview({ image, onClose }: { image: AdminImage | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={image !== null}
      onClose={onClose}
      size="xl"
      title={image?.orginalFilename ?? ''}
      closeButtonProps={{ 'aria-label': t('admin.close') }}
    >
      {image ? (
        <Stack gap="xs" data-testid="image-preview">
          <Image src={urlOf(imagesApi.display, { params: { id: image.id } })} alt={image.orginalFilename} fit="contain" mah="70vh" />
          <Text size="sm" fw={600} style={{ wordBreak: 'break-all' }} data-testid="image-preview-name">
            {image.orginalFilename}
          </Text>
          <Text size="xs" c="dimmed">
            {t('adminImages.preview.details', { width: image.width, height: image.height, format: image.format.toUpperCase() })}
          </Text>
        </Stack>
      ) : null}
    </Modal>
  );
}
