import { Checkbox, Group, Image, Modal, Pagination, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { imagesApi, type Project } from '@lamella/contracts';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { urlOf } from '../../api/client';
import { FormActions } from '../../components/FormActions';
import { ListState } from '../../components/ListState';
import { errorText } from '../../lib/errorText';
import { notifyError } from '../../lib/notify';
import { useLibrary } from '../library/api';
import { useAddProjectImages } from './api';

const PAGE_SIZE = 10;

/** Picks images from the caller's image library (searchable, paged) and adds them to the project. */
export function AddImagesModal({ project, opened, onClose }: { project: Project; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 500);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string[]>([]);
  const library = useLibrary({ page, pageSize: PAGE_SIZE, search: debounced || undefined }, opened);
  const add = useAddProjectImages(project.id);
  const items = library.data?.items ?? [];
  const pages = Math.max(1, Math.ceil((library.data?.total ?? 0) / PAGE_SIZE));
  const close = () => {
    setSelected([]);
    onClose();
  };
  const submit = () => add.mutate(selected, { onSuccess: close, onError: (err) => notifyError(errorText(t, err)) });
  return (
    <Modal opened={opened} onClose={close} title={t('projects.images.addTitle')} size="lg">
      <Stack gap="sm">
        <TextInput
          label={t('projects.images.search')}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
        />
        <ListState query={library} empty={!items.length} emptyText={t('projects.images.libraryEmpty')}>
          <ScrollArea.Autosize mah={360}>
            <Stack gap={6}>
              {items.map((img) => {
                const held = img.projects.some((p) => p.id === project.id);
                return (
                  <Group key={img.id} gap="sm" wrap="nowrap">
                    <Checkbox
                      checked={held || selected.includes(img.id)}
                      disabled={held}
                      onChange={() => setSelected((s) => (s.includes(img.id) ? s.filter((x) => x !== img.id) : [...s, img.id]))}
                      aria-label={t('projects.images.pick', { name: img.orginalFilename })}
                    />
                    <Image src={urlOf(imagesApi.thumbnail, { params: { id: img.id } })} alt="" w={48} h={48} fit="cover" radius="sm" />
                    <Text size="sm" truncate="end">
                      {img.orginalFilename}
                    </Text>
                  </Group>
                );
              })}
            </Stack>
          </ScrollArea.Autosize>
          {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} size="sm" />}
        </ListState>
      </Stack>
      <FormActions
        submitLabel={t('projects.images.addSubmit', { count: selected.length })}
        onSubmit={submit}
        onCancel={close}
        loading={add.isPending}
        disabled={!selected.length}
      />
    </Modal>
  );
}
