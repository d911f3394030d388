import { ActionIcon, Button, ColorSwatch, Group, Stack, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { RecipeClass } from '@lamella/contracts';
import { CLASS_COLOURS } from './defaults';

interface Props {
  classes: RecipeClass[];
  onChange: (classes: RecipeClass[]) => void;
  active: number;
  onActive: (index: number) => void;
}

/** The classes (name, colour) and the brush: the class a stroke paints. */
export function ClassPicker({ classes, onChange, active, onActive }: Props) {
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
            onChange={(e) => onChange(classes.map((k, j) => (j === i ? { ...k, name: e.currentTarget.value } : k)))}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            disabled={classes.length <= 2}
            aria-label={t('recipes.editor.removeClass', { name: c.name })}
            onClick={() => {
              onChange(classes.filter((_, j) => j !== i));
              onActive(0);
            }}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      <Button
        variant="subtle"
        size="xs"
        leftSection={<IconPlus size={14} />}
        disabled={classes.length >= CLASS_COLOURS.length}
        onClick={() =>
          onChange([...classes, { name: t('recipes.editor.newClass', { index: classes.length + 1 }), colour: CLASS_COLOURS[classes.length] }])
        }
      >
        {t('recipes.editor.addClass')}
      </Button>
    </Stack>
  );
}
