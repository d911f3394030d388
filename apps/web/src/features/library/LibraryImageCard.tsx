import { Badge, Card, Checkbox, Group, Image, Stack, Text } from '@mantine/core';
import { imagesApi, type LibraryImage } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { urlOf } from '../../api/client';
import { useFormat } from '../../lib/format';

/** One image of the library: thumbnail, name, dimensions, calibration, projects, upload date and a selection box. */
export function LibraryImageCard({ image, selected, onToggle }: { image: LibraryImage; selected: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  return (
    <Card withBorder padding="xs" data-testid="library-image" data-selected={selected || undefined}>
      <Card.Section>
        <Image src={urlOf(imagesApi.thumbnail, { params: { id: image.id } })} alt={image.orginalFilename} h={140} fit="contain" bg="gray.1" />
      </Card.Section>
      <Stack gap={4} mt="xs">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text size="sm" fw={500} truncate="end" title={image.orginalFilename}>
            {image.orginalFilename}
          </Text>
          <Checkbox checked={selected} onChange={onToggle} aria-label={t('library.select', { name: image.orginalFilename })} />
        </Group>
        <Text size="xs" c="dimmed">
          {t('library.dimensions', { width: image.width, height: image.height })} · {fmt.date(image.createdAt)}
        </Text>
        <Text size="xs" c={image.pixelSizeUm === null ? 'dimmed' : undefined}>
          {image.pixelSizeUm === null ? t('library.notCalibrated') : t('library.calibration', { value: image.pixelSizeUm })}
        </Text>
        {image.projects.length > 0 && (
          <Group gap={4}>
            {image.projects.map((p) => (
              <Badge key={p.id} size="xs" variant="light">
                {p.name}
              </Badge>
            ))}
          </Group>
        )}
      </Stack>
    </Card>
  );
}
