import { ActionIcon, Button, ColorSwatch, Group, Stack, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { RecipeClass } from '@lamella/contracts';

interface Props {
  /** The classes as shown (defaults.ts recipeClasses: default names in the current language). */
  classes: RecipeClass[];
  onRename: (index: number, name: string) => void;
  onRemove: (index: number) => void;
  onAdd: () => void;
  canAdd: boolean;
  active: number;
  onActive: (index: number) => void;
}

/** The classes (name, colour) and the brush: the class a stroke paints. */
export function ClassPicker({ classes, onRename, onRemove, onAdd, canAdd, active, onActive }: Props) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      {classes.map((c, i) => (
        <Group key={i} gap="xs" wrap="nowrap">
          <Button
            variant={i === active ? 'filled' : 'light'}
            color={c.colour}
            size="xs"
            leftSection={<ColorSwatch color={c.colour} size={14} />}
            onClick={() => onActive(i)}
            aria-pressed={i === active}
            aria-label={t('recipes.editor.brushFor', { name: c.name })}
          >
            {t('recipes.editor.brush')}
          </Button>
          <TextInput
            size="xs"
            flex={1}
            aria-label={t('recipes.editor.className', { index: i + 1 })}
            value={c.name}
            maxLength={60}
            onChange={(e) => onRename(i, e.currentTarget.value)}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            disabled={classes.length <= 2}
            aria-label={t('recipes.editor.removeClass', { name: c.name })}
            onClick={() => {
              onRemove(i);
              onActive(0);
            }}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      <Button variant="subtle" size="xs" leftSection={<IconPlus size={14} />} disabled={!canAdd} onClick={onAdd}>
        {t('recipes.editor.addClass')}
      </Button>
    </Stack>
  );
}
