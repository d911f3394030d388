/** "Insert image from the library" of the rich-text editor: pick a public image; its /image/public/… address is inserted. */
import { Anchor, Image, Modal, SimpleGrid, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ListState } from '../../../components/ListState';
import { usePublicImages } from './api';

export function PublicImagePicker({ opened, onClose, onPick }: { opened: boolean; onClose: () => void; onPick: (src: string, alt: string) => void }) {
  const { t } = useTranslation();
  const list = usePublicImages(opened);
  const rows = list.data ?? [];
  return (
    <Modal opened={opened} onClose={onClose} title={t('adminImages.picker.title')} size="lg" closeButtonProps={{ 'aria-label': t('admin.close') }}>
      <Text size="sm" c="dimmed" mb="sm">
        {t('adminImages.picker.hint')}
      </Text>
      <ListState query={list} empty={rows.length === 0} emptyText={t('adminImages.public.empty')}>
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm" data-testid="public-image-picker">
          {rows.map((img) => (
            <UnstyledButton
              key={img.filename}
              onClick={() => onPick(img.url, img.filename)}
              aria-label={t('adminImages.picker.insert', { name: img.filename })}
              style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8, padding: 4 }}
            >
              <Image src={img.url} alt={img.filename} h={100} fit="contain" />
              <Text size="xs" truncate>
                {img.filename}
              </Text>
            </UnstyledButton>
          ))}
        </SimpleGrid>
      </ListState>
      <Anchor href="/admin/images?tab=public" target="_blank" rel="noopener" size="sm" mt="sm" display="block">
        {t('adminImages.picker.manage')}
      </Anchor>
    </Modal>
  );
}
