import { Button, Container, Group, Pagination, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListState } from '../../components/ListState';
import { useLibrary } from './api';
import { DeleteImagesModal } from './DeleteImagesModal';
import { LibraryFilters, type LibraryFilterValues } from './LibraryFilters';
import { LibraryImageCard } from './LibraryImageCard';
import { RunModelModal } from './RunModelModal';

const PAGE_SIZE = 24;
const SEARCH_DEBOUNCE_MS = 500;

/** /library: all of the user's images, paged and filtered; selected images run again on a model or are deleted. */
export function LibraryPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<LibraryFilterValues>({ search: '', from: '', to: '', projectId: null });
  const [search] = useDebouncedValue(filters.search.trim(), SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string[]>([]);
  const [dialog, setDialog] = useState<'run' | 'delete' | null>(null);
  const query = useLibrary({
    page,
    pageSize: PAGE_SIZE,
    search: search || undefined,
    from: filters.from || undefined,
    to: filters.to || undefined,
    projectId: filters.projectId ?? undefined,
  });
  const items = query.data?.items ?? [];
  const pages = Math.max(1, Math.ceil((query.data?.total ?? 0) / PAGE_SIZE));
  const toggle = (id: string) => setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));
  const changeFilters = (next: LibraryFilterValues) => {
    setFilters(next);
    setPage(1);
  };

  return (
    <Container size="xl" py="md">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <Title order={2}>{t('library.title')}</Title>
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {t('library.selected', { count: selected.length })}
            </Text>
            <Button leftSection={<IconPlayerPlay size={16} />} disabled={!selected.length} onClick={() => setDialog('run')}>
              {t('library.runSelected')}
            </Button>
            <Button color="red" variant="light" leftSection={<IconTrash size={16} />} disabled={!selected.length} onClick={() => setDialog('delete')}>
              {t('library.deleteSelected')}
            </Button>
          </Group>
        </Group>
        <LibraryFilters value={filters} onChange={changeFilters} />
        <ListState query={query} empty={!items.length} emptyText={t('library.empty')}>
          <SimpleGrid cols={{ base: 1, xs: 2, sm: 3, md: 4, lg: 6 }} spacing="sm">
            {items.map((image) => (
              <LibraryImageCard key={image.id} image={image} selected={selected.includes(image.id)} onToggle={() => toggle(image.id)} />
            ))}
          </SimpleGrid>
          {pages > 1 && (
            <Group justify="center">
              <Pagination total={pages} value={page} onChange={setPage} size="sm" />
            </Group>
          )}
        </ListState>
      </Stack>
      <RunModelModal imageIds={selected} opened={dialog === 'run'} onClose={() => setDialog(null)} />
      <DeleteImagesModal imageIds={selected} opened={dialog === 'delete'} onClose={() => setDialog(null)} onDeleted={() => setSelected([])} />
    </Container>
  );
}
