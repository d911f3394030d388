import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ActionIcon, Alert, Button, Group, Loader, Modal, ScrollArea, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconEdit, IconPlus, IconTrash } from '@tabler/icons-react';
import { notifyError, notifySuccess } from '../../lib/notify';
import { errorText } from '../../lib/errorText';
import type { SettingsTemplate } from '@lamella/contracts';
import { templatesApi } from './api';
import { formatAdminDateTime } from '../../lib/format';
import { TemplateModal } from './TemplateModal';

/** Project settings templates (accounts.md §2): Add Template, table, create/edit modal (width 800), delete. */
export function TemplatesPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ['admin', 'templates'], queryFn: templatesApi.list });
  const [editing, setEditing] = useState<SettingsTemplate | 'new' | null>(null);
  const [deleting, setDeleting] = useState<SettingsTemplate | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => templatesApi.remove(id),
    onSuccess: () => {
      notifySuccess(t('adminAccounts.templates.deleted'));
      setDeleting(null);
      return qc.invalidateQueries({ queryKey: ['admin', 'templates'] });
    },
    onError: (e) => notifyError(errorText(t, e, 'adminAccounts.error')),
  });

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>{t('adminAccounts.templates.title')}</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
          {t('adminAccounts.templates.add')}
        </Button>
      </Group>
      {list.isLoading ? (
        <Loader aria-label={t('adminAccounts.loading')} />
      ) : list.isError ? (
        <Alert color="red">{errorText(t, list.error, 'adminAccounts.error')}</Alert>
      ) : !list.data?.length ? (
        <Text c="dimmed">{t('adminAccounts.templates.empty')}</Text>
      ) : (
        <ScrollArea type="auto">
          <Table striped highlightOnHover miw={640}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('adminAccounts.templates.name')}</Table.Th>
                <Table.Th>{t('adminAccounts.templates.description')}</Table.Th>
                <Table.Th>{t('adminAccounts.templates.createdBy')}</Table.Th>
                <Table.Th>{t('adminAccounts.templates.createdAt')}</Table.Th>
                <Table.Th>{t('adminAccounts.templates.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.map((tpl) => (
                <Table.Tr key={tpl.id}>
                  <Table.Td>{tpl.name}</Table.Td>
                  <Table.Td>{tpl.description || '-'}</Table.Td>
                  <Table.Td>{tpl.createdBy ? `${tpl.createdBy.name} ${tpl.createdBy.surname}` : '-'}</Table.Td>
                  <Table.Td>{formatAdminDateTime(tpl.createdAt)}</Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Tooltip label={t('adminAccounts.edit')}>
                        <ActionIcon variant="subtle" aria-label={t('adminAccounts.edit')} onClick={() => setEditing(tpl)}>
                          <IconEdit size={16} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label={t('adminAccounts.delete')}>
                        <ActionIcon variant="subtle" color="red" aria-label={t('adminAccounts.delete')} onClick={() => setDeleting(tpl)}>
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
      {editing !== null && (
        <TemplateModal
          template={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            notifySuccess(t('adminAccounts.templates.saved'));
            void qc.invalidateQueries({ queryKey: ['admin', 'templates'] });
          }}
        />
      )}
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title={t('adminAccounts.templates.deleteTitle')}>
        <Stack>
          <Text>{t('adminAccounts.templates.deleteConfirm')}</Text>
          <FormActions
            submitLabel={t('adminAccounts.yes')}
            onSubmit={() => deleting && remove.mutate(deleting.id)}
            onCancel={() => setDeleting(null)}
            cancelLabel={t('adminAccounts.no')}
            loading={remove.isPending}
            danger
          />
        </Stack>
      </Modal>
    </Stack>
  );
}
