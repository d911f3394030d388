import { Modal, Tabs, Text } from '@mantine/core';
import type { ComputeModel } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { AccessTab } from './AccessTab';
import { ModelForm } from './ModelForm';

/** Create or edit a model: General and Access tabs. */
export function ModelDialog({ model, opened, onClose }: { model: ComputeModel | null; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={model ? t('admin.models.editTitle') : t('admin.models.createTitle')} size="lg">
      <Tabs defaultValue="general">
        <Tabs.List mb="md">
          <Tabs.Tab value="general">{t('admin.models.general')}</Tabs.Tab>
          <Tabs.Tab value="access">{t('admin.models.access')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="general">
          <ModelForm key={model?.id ?? 'new'} model={model} onDone={onClose} />
        </Tabs.Panel>
        <Tabs.Panel value="access">
          {model ? (
            <AccessTab model={model} />
          ) : (
            <Text size="sm" c="dimmed">
              {t('admin.models.accessSaveFirst')}
            </Text>
          )}
        </Tabs.Panel>
      </Tabs>
    </Modal>
  );
}
