import { ActionIcon, Menu } from '@mantine/core';
import {
  IconArchive,
  IconArchiveOff,
  IconBrain,
  IconDots,
  IconEdit,
  IconFileDescription,
  IconHistory,
  IconPhoto,
  IconTrash,
} from '@tabler/icons-react';
import { TRAINABLE_MODELS, type ComputeModel } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';

export interface ModelActions {
  onEdit: (m: ComputeModel) => void;
  onManual: (m: ComputeModel) => void;
  onExample: (m: ComputeModel) => void;
  onDelete: (m: ComputeModel) => void;
  /** Archive (true) or bring back (false): a model with jobs is archived, never deleted (issue 26 item 7). */
  onArchive: (m: ComputeModel, archive: boolean) => void;
  /** ADMIN only (issue 25): "Train new version" and the model's versions; left out for anyone else. */
  onTrain?: (m: ComputeModel) => void;
  onVersions?: (m: ComputeModel) => void;
}

/** Whether the model can be trained now (the others cannot, yet). */
const trainable = (m: ComputeModel) => (TRAINABLE_MODELS as readonly string[]).includes(m.internalName);

/** The "…" menu of a model row: Edit, Info (manual), Example, Archive or Unarchive, and Delete for a model without jobs. */
/** Whether any job ran with the model (its stats; unknown counts as yes, the server decides). */
const hasJobs = (m: ComputeModel) => (m.stats ? m.stats.totalCount > 0 : true);

export function ModelActionsMenu({ model, actions }: { model: ComputeModel; actions: ModelActions }) {
  const { t } = useTranslation();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" aria-label={t('admin.actions')} data-testid={`model-actions-${model.internalName}`}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconEdit size={16} />} onClick={() => actions.onEdit(model)}>
          {t('admin.edit')}
        </Menu.Item>
        <Menu.Item leftSection={<IconFileDescription size={16} />} onClick={() => actions.onManual(model)}>
          {t('admin.models.info')}
        </Menu.Item>
        <Menu.Item leftSection={<IconPhoto size={16} />} onClick={() => actions.onExample(model)}>
          {t('admin.models.example')}
        </Menu.Item>
        {actions.onTrain && (
          <Menu.Item
            leftSection={<IconBrain size={16} />}
            onClick={() => actions.onTrain?.(model)}
            disabled={!trainable(model) || Boolean(model.archivedAt)}
            data-testid="model-train"
          >
            {t('adminTraining.menu.train')}
          </Menu.Item>
        )}
        {actions.onVersions && (
          <Menu.Item leftSection={<IconHistory size={16} />} onClick={() => actions.onVersions?.(model)} data-testid="model-versions">
            {t('adminTraining.menu.versions')}
          </Menu.Item>
        )}
        <Menu.Divider />
        {model.archivedAt ? (
          <Menu.Item leftSection={<IconArchiveOff size={16} />} onClick={() => actions.onArchive(model, false)} data-testid="model-unarchive">
            {t('admin.models.unarchive')}
          </Menu.Item>
        ) : (
          <Menu.Item leftSection={<IconArchive size={16} />} onClick={() => actions.onArchive(model, true)} data-testid="model-archive">
            {t('admin.models.archive')}
          </Menu.Item>
        )}
        {!hasJobs(model) && (
          <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => actions.onDelete(model)}>
            {t('admin.delete')}
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
