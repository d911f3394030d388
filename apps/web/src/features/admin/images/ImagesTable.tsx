/** The images table: thumbnail (click enlarges), owner, date, training and deleted, as the chosen columns say. */
import { Badge, Image, Table, Text, UnstyledButton } from '@mantine/core';
import { imagesApi, type AdminImage } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { urlOf } from '../../../api/client';
import { formatAdminDateTime } from '../../../lib/format';
import { nextSort, type ImagePrefs } from './prefs';
import { SortableHeader } from '../../../components/SortableHeader';

interface Props {
  rows: AdminImage[];
  prefs: ImagePrefs;
  update: (patch: Partial<ImagePrefs>) => void;
  onOpen: (image: AdminImage) => void;
}

export function ImagesTable({ rows, prefs, update, onOpen }: Props) {
  const { t } = useTranslation();
  const show = (c: ImagePrefs['columns'][number]) => prefs.columns.includes(c);
  const ariaSort = (key: ImagePrefs['sortKey']) => (prefs.sortKey === key ? (prefs.sortOrder === 'asc' ? 'ascending' : 'descending') : undefined);
  const yesNo = (v: boolean) => (
    <Badge variant="light" color={v ? 'teal' : 'gray'}>
      {v ? t('admin.yes') : t('admin.no')}
    </Badge>
  );
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table striped highlightOnHover verticalSpacing="xs" data-testid="admin-images-table">
        <Table.Thead>
          <Table.Tr>
            {show('thumbnail') ? <Table.Th w={96}>{t('adminImages.columns.thumbnail')}</Table.Th> : null}
            {show('owner') ? (
              <Table.Th aria-sort={ariaSort('owner')}>
                <SortableHeader
                  label={t('adminImages.columns.owner')}
                  active={prefs.sortKey === 'owner'}
                  order={prefs.sortOrder}
                  onSort={() => update(nextSort(prefs, 'owner'))}
                />
              </Table.Th>
            ) : null}
            {show('date') ? (
              <Table.Th aria-sort={ariaSort('createdAt')}>
                <SortableHeader
                  label={t('adminImages.columns.date')}
                  active={prefs.sortKey === 'createdAt'}
                  order={prefs.sortOrder}
                  onSort={() => update(nextSort(prefs, 'createdAt'))}
                />
              </Table.Th>
            ) : null}
            {show('training') ? <Table.Th>{t('adminImages.columns.training')}</Table.Th> : null}
            {show('deleted') ? <Table.Th>{t('adminImages.columns.deleted')}</Table.Th> : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((img) => (
            <Table.Tr key={img.id} data-testid="admin-image-row">
              {show('thumbnail') ? (
                <Table.Td>
                  <UnstyledButton onClick={() => onOpen(img)} aria-label={t('adminImages.enlarge', { name: img.orginalFilename })}>
                    <Image
                      src={urlOf(imagesApi.thumbnail, { params: { id: img.id } })}
                      alt={img.orginalFilename}
                      w={72}
                      h={72}
                      fit="cover"
                      radius="sm"
                      loading="lazy"
                    />
                  </UnstyledButton>
                </Table.Td>
              ) : null}
              {show('owner') ? (
                <Table.Td>
                  <Text size="sm">{`${img.owner.name} ${img.owner.surname}`.trim()}</Text>
                  <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                    {img.owner.email}
                  </Text>
                </Table.Td>
              ) : null}
              {show('date') ? (
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <Text size="sm">{formatAdminDateTime(img.createdAt)}</Text>
                </Table.Td>
              ) : null}
              {show('training') ? <Table.Td>{yesNo(img.allowedTrainingUse)}</Table.Td> : null}
              {show('deleted') ? <Table.Td>{yesNo(img.isDeleted)}</Table.Td> : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
