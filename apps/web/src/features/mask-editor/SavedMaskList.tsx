import { Badge, Group, NavLink, Stack, Text } from '@mantine/core';
import { IconCpu, IconMask } from '@tabler/icons-react';
import type { JobMask } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';

interface Props {
  masks: JobMask[];
  /** The open mask's id ('' = the model's segmentation). */
  current: string;
  onOpen: (maskId: string) => void;
}

/** The job's saved masks (name, submitted or not, the mask it came from); each opens in the editor. */
export function SavedMaskList({ masks, current, onOpen }: Props) {
  const { t } = useTranslation();
  const labelOf = (id: string | null) => masks.find((m) => m.id === id)?.label;
  return (
    <Stack gap={4} data-testid="saved-masks">
      <Text size="sm" fw={600}>
        {t('maskEditor.masks.title')}
      </Text>
      <NavLink
        component="button"
        type="button"
        label={t('maskEditor.masks.model')}
        description={t('maskEditor.masks.modelHint')}
        leftSection={<IconCpu size={16} />}
        active={!current}
        aria-current={!current ? 'true' : undefined}
        onClick={() => onOpen('')}
        data-testid="saved-mask-model"
      />
      {masks.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="saved-masks-empty">
          {t('maskEditor.masks.empty')}
        </Text>
      ) : (
        masks.map((m) => {
          const parent = labelOf(m.parentId);
          return (
            <NavLink
              key={m.id}
              component="button"
              type="button"
              label={m.label}
              description={
                <Group gap={4} component="span">
                  <Badge size="xs" variant="light" color={m.isSubmitted ? 'green' : 'gray'} component="span">
                    {m.isSubmitted ? t('maskEditor.masks.submitted') : t('maskEditor.masks.draft')}
                  </Badge>
                  {parent && (
                    <Text span size="xs" c="dimmed">
                      {t('maskEditor.masks.fromParent', { label: parent })}
                    </Text>
                  )}
                </Group>
              }
              leftSection={<IconMask size={16} />}
              rightSection={
                m.id === current ? (
                  <Badge size="xs" variant="filled" component="span">
                    {t('maskEditor.masks.current')}
                  </Badge>
                ) : undefined
              }
              active={m.id === current}
              aria-current={m.id === current ? 'true' : undefined}
              onClick={() => onOpen(m.id)}
              data-testid="saved-mask"
              data-mask-id={m.id}
            />
          );
        })
      )}
      {masks.length > 0 && (
        <Text size="xs" c="dimmed">
          {t('maskEditor.masks.latest')}
        </Text>
      )}
    </Stack>
  );
}
