/** One image of the public library: preview, file name, copy its address, delete. */
import { ActionIcon, Card, CopyButton, Group, Image, Text, Tooltip } from '@mantine/core';
import type { PublicImage } from '@lamella/contracts';
import { IconCheck, IconCopy, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export function PublicImageCard({ image, onDelete }: { image: PublicImage; onDelete: () => void }) {
  const { t } = useTranslation();
  const absolute = `${window.location.origin}${image.url}`;
  return (
    <Card withBorder padding="xs" radius="md" data-testid="public-image">
      <Card.Section>
        <Image src={image.url} alt={image.filename} h={140} fit="contain" bg="gray.1" />
      </Card.Section>
      <Group justify="space-between" wrap="nowrap" mt="xs" gap="xs">
        <div>
          <Text size="xs" style={{ wordBreak: 'break-all' }} data-testid="public-image-name" title={image.orginalFilename}>
            {image.filename}
          </Text>
          <Text size="xs" c="dimmed">
            {t('adminImages.public.size', { width: image.width, height: image.height })}
          </Text>
        </div>
        <Group gap={4} wrap="nowrap">
          <CopyButton value={absolute}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? t('admin.copied') : t('adminImages.public.copyUrl')} withArrow>
                <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={t('adminImages.public.copyUrl')}>
                  {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
          <Tooltip label={t('admin.delete')} withArrow>
            <ActionIcon variant="subtle" color="red" onClick={onDelete} aria-label={t('adminImages.public.delete', { name: image.filename })}>
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
    </Card>
  );
}
